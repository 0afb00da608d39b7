// The payment calls of a checkout (any order type). The order page passes these to the payment
// dialog (tests pass fakes).
import { apiGet } from './client';
import type { components, operations } from './schema';

export type PaymentMethod = components['schemas']['PaymentMethodValue'];
type PaymentFormResponse = components['schemas']['PaymentFormResponse'];
type PaymentStatusResponse = components['schemas']['PaymentStatusResponse'];
export type PaymentFormQuery = operations['paymentForm']['parameters']['query'];

/** Starts a payment for the buyer's priced cart: where the gateway's form is, and its id. */
export function fetchPaymentForm(
  locale: string,
  query: PaymentFormQuery,
  signal?: AbortSignal,
): Promise<PaymentFormResponse> {
  return apiGet<PaymentFormResponse>(`/payment/form/${encodeURIComponent(locale)}`, query, signal);
}

/** Where a payment stands (what the payment dialog polls every 2 s). */
export function fetchPaymentStatus(
  paymentId: string,
  signal?: AbortSignal,
): Promise<PaymentStatusResponse> {
  return apiGet<PaymentStatusResponse>(
    `/payment/status/${encodeURIComponent(paymentId)}`,
    undefined,
    signal,
  );
}
