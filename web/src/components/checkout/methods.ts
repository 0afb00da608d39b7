import type { PaymentMethod } from '../../lib/api/payment';

export type OfferedMethod = Exclude<PaymentMethod, 'voucher'>;

export const ALL_METHODS: readonly OfferedMethod[] = [
  'card',
  'savedCard',
  'paypal',
  'blik',
  'payu',
];

/** Cards may be paid in installments (spec 9: "Installments selectable at payment"). */
export const takesInstallments = (method: OfferedMethod) =>
  method === 'card' || method === 'savedCard';
