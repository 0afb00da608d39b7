// The calls of the payment and confirmation steps: the cart re-posted with the buyer's details or
// vouchers, a voucher's balance, the commit, and the paid reservation.
import { useMutation } from '@tanstack/react-query';
import type { Captcha } from '../../../lib/captcha';
import { fetchPaymentForm, type PaymentFormQuery } from '../../../lib/api/payment';
import { apiGet, apiSend } from '../../../lib/api/client';
import { channelOf } from '../../../lib/api/orderChannel';
import type { components } from '../../../lib/api/schema';
import type { CartBody, PricedCart } from '../../../lib/api/types';
import type { CustomerInfo } from '../../../components/checkout/customerInfo';
import { seatKey } from '../../../lib/seatAddress';

type Schemas = components['schemas'];

export type { PricedCart };
export type VoucherResponse = Schemas['VoucherResponse'];
export type CommitResponse = Schemas['CommitResponse'];
export type { Reservation, ReservationResponse } from '../../../lib/api/reservations';

/**
 * POST /cart's body for the same seats, tickets and products as a priced cart, with the buyer's
 * details and vouchers. The server prices it again; nothing here is trusted.
 */
export function cartBodyFrom(
  cart: PricedCart,
  extra: {
    customerInfo?: CustomerInfo | null;
    voucherReferences?: readonly string[];
    locale: string;
    step?: string;
    /**
     * Senior citizens' ID numbers by seat (`sectionId:x:y`). The priced cart does not repeat
     * them (an ID number is not echoed back), so every re-post must send them again or the
     * server rejects the senior tickets.
     */
    seniorIds?: Readonly<Record<string, string>>;
  },
): CartBody {
  return {
    cart: {
      // Every presentation of the priced cart, in its order, each with its own tickets.
      presentations: (cart.presentationIds.length > 0
        ? cart.presentationIds
        : [cart.presentationId]
      ).map((presentationId) => ({
        presentationId,
        seats: cart.tickets
          .filter((t) => (t.presentationId ?? cart.presentationId) === presentationId)
          .map((t) => ({
            VenueSectionId: t.sectionId,
            XCoordinate: t.x,
            YCoordinate: t.y,
            // The priced cart repeats each line's code, member number and references, so a later
            // post (details, vouchers) keeps member, hotel-guest and code tickets as they were.
            ticket: {
              ticketId: t.ticketId,
              code: t.code ?? null,
              memberNumber: t.memberNumber ?? null,
              ref1: t.ref1 ?? null,
              ref2: t.ref2 ?? null,
              seniorId: extra.seniorIds?.[seatKey(t)] || null,
            },
          })),
      })),
      products: cart.products.map((p) => ({ id: p.id, quantity: p.quantity })),
      customerInfo: extra.customerInfo ?? null,
      voucherPayments: (extra.voucherReferences ?? []).map((reference) => ({ reference })),
    },
    step: extra.step ?? 'customerInfo',
    locale: extra.locale,
  };
}

export function fetchVoucher(query: {
  reference: string;
  presentationId: number;
  recaptchaToken: string;
}): Promise<VoucherResponse> {
  return apiGet<VoucherResponse>('/payment/voucher', query);
}

export function commitOrder(
  presentationId: number,
  recaptchaToken: string,
): Promise<CommitResponse> {
  return apiSend<CommitResponse>('POST', '/payment/commit', {
    cart: { presentations: [{ presentationId }] },
    recaptchaToken,
    ...channelOf(presentationId),
  });
}

// The reservation read back (its query key included) is shared with the seat-change screen.
export {
  fetchReservation,
  linkProofOf,
  reservationKeys,
  reservationPath,
  reservationQuery,
  type LinkProof,
} from '../../../lib/api/reservations';

export function sendTickets(id: string, mobileNumber: string): Promise<{ success: boolean }> {
  return apiSend<{ success: boolean }>(
    'POST',
    `/reservations/${encodeURIComponent(id)}/sendTickets`,
    { mobileNumber },
  );
}

/** The read-back's signed PDF link in a language (the tickets come in Hebrew or English). */
export const reservationPdfUrl = (pdfUrl: string, lang: string) =>
  `${pdfUrl}${pdfUrl.includes('?') ? '&' : '?'}lang=${lang === 'he' ? 'he' : 'en'}`;

// ---------------------------------------------------------------------------------------------
// Mutations.

/** A voucher's balance, looked up before it is applied to the order. */
export function useCheckVoucher(presentationId: number, captcha: Captcha) {
  return useMutation({
    mutationKey: ['voucher', presentationId] as const,
    mutationFn: async (reference: string) =>
      fetchVoucher({ reference, presentationId, recaptchaToken: await captcha('voucher') }),
  });
}

/** Starts a payment (GET /payment/form creates it): the gateway's form, or `paid` when vouchers cover it. */
export function useStartPayment(captcha: Captcha) {
  return useMutation({
    mutationKey: ['startPayment'] as const,
    mutationFn: async ({
      lang,
      query,
      signal,
    }: {
      lang: string;
      query: Omit<PaymentFormQuery, 'recaptchaToken'>;
      signal: AbortSignal;
    }) => fetchPaymentForm(lang, { ...query, recaptchaToken: await captcha('payment') }, signal),
  });
}

/** Commits the paid order: the answer names the reservation. */
export function useCommitOrder(presentationId: number, captcha: Captcha) {
  return useMutation({
    mutationKey: ['commit', presentationId] as const,
    mutationFn: async () => commitOrder(presentationId, await captcha('commit')),
  });
}

/** Sends the tickets of a paid order by SMS. */
export function useSendTickets(reservationId: string) {
  return useMutation({
    mutationKey: ['sendTickets', reservationId] as const,
    mutationFn: (mobileNumber: string) => sendTickets(reservationId, mobileNumber),
  });
}
