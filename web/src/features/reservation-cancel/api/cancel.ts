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

export interface CancelAsk {
  /** Ticket lines; null: the whole reservation. */
  lines: number[] | null;
  dryRun: boolean;
}

export function cancelReservation(id: string, ask: CancelAsk): Promise<CancelResponse> {
  return apiSend<CancelResponse>('POST', `/reservations/${encodeURIComponent(id)}/cancel`, {
    itemsToCancel: ask.lines,
    refundToTransactionCredit: false,
    dryRun: ask.dryRun,
  });
}

/** The preview (a dry run): the charge and the refund the buyer would get. */
export function useCancelPreview(id: string) {
  return useMutation({
    mutationFn: (lines: number[] | null) => cancelReservation(id, { lines, dryRun: true }),
  });
}

/** The cancellation itself. */
export function useCancel(id: string) {
  return useMutation({
    mutationFn: (lines: number[] | null) => cancelReservation(id, { lines, dryRun: false }),
  });
}
