import { useContext } from 'react';
import type { PaymentMethod } from '../../lib/api/payment';
import { ConfigContext, type MethodOffer } from '../../lib/config';

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

/**
 * The methods of `among` (in its order) offered for an order in `currency`: those the server
 * lists (GET /config `paymentMethods`, issue 20) in that currency, or in every currency when it
 * names none. A currency not known yet keeps a method listed for some currency. No list from
 * the server (null): all of `among`.
 */
export function offeredMethods(
  offers: readonly MethodOffer[] | null,
  currency: string | undefined,
  among: readonly OfferedMethod[] = ALL_METHODS,
): OfferedMethod[] {
  if (!offers) return [...among];
  return among.filter((method) =>
    offers.some(
      (o) =>
        o.method === method &&
        (!o.currencies || currency === undefined || o.currencies.includes(currency)),
    ),
  );
}

/** The methods offered for an order in `currency`, by the site's configuration. */
export function useOfferedMethods(
  currency: string | undefined,
  among: readonly OfferedMethod[] = ALL_METHODS,
): OfferedMethod[] {
  const config = useContext(ConfigContext);
  return offeredMethods(config?.paymentMethods ?? null, currency, among);
}

/** The chosen method when it is offered, else the first offered (or the chosen one if none). */
export function chosenAmong(chosen: OfferedMethod, offered: readonly OfferedMethod[]) {
  return offered.includes(chosen) ? chosen : (offered[0] ?? chosen);
}
