// Unpaid hold orders ("reserve and pay later", decision 0028): the commit with `isHold`, a hold
// read back, the customer's holds, switching a hold to paid and giving it up. Shared by the order (the choice
// at checkout) and the customer area (the list with "pay now").
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from './client';
import type { components } from './schema';

type Schemas = components['schemas'];
export type Hold = Schemas['Hold'];
export type HoldState = 'open' | 'paid' | 'released';
type PaymentFormResponse = Schemas['PaymentFormResponse'];

export const holdKeys = {
  all: ['holds'] as const,
  one: (id: string) => ['holds', id] as const,
};

/** The spec's commit with `cart.isHold`: the priced cart becomes an unpaid hold. */
export function commitHold(
  presentationId: number,
  recaptchaToken: string,
): Promise<Schemas['CommitResponse']> {
  return apiSend<Schemas['CommitResponse']>('POST', '/payment/commit', {
    cart: { presentations: [{ presentationId }], isHold: true },
    recaptchaToken,
  });
}

export const holdQuery = (id: string) =>
  queryOptions({
    queryKey: holdKeys.one(id),
    queryFn: ({ signal }) =>
      apiGet<Schemas['HoldResponse']>(
        `/reservations/${encodeURIComponent(id)}/hold`,
        undefined,
        signal,
      ),
    retry: false,
  });

export const holdsQuery = queryOptions({
  queryKey: holdKeys.all,
  queryFn: ({ signal }) =>
    apiGet<Schemas['HoldsResponse']>('/customer-area/holds', undefined, signal),
  retry: false,
});

/** Starts paying a hold: where the gateway's page is (the whole window goes there). */
export function payHold(
  id: string,
  body: { locale: string; returnPath: string; total: number; recaptchaToken: string },
): Promise<PaymentFormResponse> {
  return apiSend<PaymentFormResponse>('POST', `/reservations/${encodeURIComponent(id)}/pay`, {
    method: 'card',
    ...body,
  });
}

/** Gives an open hold up before its time: its seats go back on sale at once. */
export function releaseHold(id: string): Promise<Schemas['HoldResponse']> {
  return apiSend<Schemas['HoldResponse']>(
    'POST',
    `/reservations/${encodeURIComponent(id)}/release`,
    {},
  );
}
