// The cancel call (POST /reservations/{id}/cancel): a dry run for the dialog's figures, then the
// cancellation itself. The reservation's own query belongs to the page that shows it; the page
// is told to read it again when a cancellation is done.
import { useMutation } from '@tanstack/react-query';
import { apiSend } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

type Schemas = components['schemas'];
export type Reservation = Schemas['Reservation'];
export type CancellationResult = Schemas['CancellationDto'];
export type CancelResponse = Schemas['CancelReservationResponse'];

/** What the buyer chose: the tickets and where the refund goes. */
export interface CancelChoice {
  /** Ticket lines; null: the whole reservation. */
  lines: number[] | null;
  /** The card's part as voucher credit for a next order instead of back to the card. */
  credit: boolean;
}

export interface CancelAsk extends CancelChoice {
  dryRun: boolean;
}

export function cancelReservation(id: string, ask: CancelAsk): Promise<CancelResponse> {
  return apiSend<CancelResponse>('POST', `/reservations/${encodeURIComponent(id)}/cancel`, {
    itemsToCancel: ask.lines,
    refundToTransactionCredit: ask.credit,
    dryRun: ask.dryRun,
  });
}

/** The preview (a dry run): the charge and the refund the buyer would get. */
export function useCancelPreview(id: string) {
  return useMutation({
    mutationFn: (choice: CancelChoice) => cancelReservation(id, { ...choice, dryRun: true }),
  });
}

/** The cancellation itself. */
export function useCancel(id: string) {
  return useMutation({
    mutationFn: (choice: CancelChoice) => cancelReservation(id, { ...choice, dryRun: false }),
  });
}
