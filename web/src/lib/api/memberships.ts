// Memberships (issue 15, decisions 0037 and 0038): the catalogue on sale, the cart of a
// membership order, its commit, and a paid order's new members read back.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from './client';
import type { components } from './schema';

type Schemas = components['schemas'];
export type CustomerInfo = Schemas['CustomerInfo'];
export type Membership = Schemas['MembershipDto'];
export type MembershipPrice = Schemas['MembershipPriceDto'];
/** A prompt the buyer answers for a price (a student card number); `pattern` a regex, or none. */
export type MembershipReference = Schemas['ReferenceDto'];
export type MembershipCatalogue = Schemas['MembershipCatalogueResponse'];
export type CartMembershipIn = Schemas['CartMembershipIn'];
export type CartMembershipPriceIn = Schemas['CartMembershipPriceIn'];
export type PricedMembership = Schemas['PricedMembership'];
/** A member the order made or topped up. */
export type OrderMember = Schemas['IssuedMember'];
export type MembershipOrder = Schemas['GiftOrderResponse'];
type MembershipCartResponse = Schemas['CartResponse'];
type MembershipCommitResponse = Schemas['CommitResponse'];

/** The cart line's field that answers a prompt; null for a key this page does not know. */
export function referenceField(r: MembershipReference): 'reference1' | 'reference2' | null {
  return r.key === 'reference1' || r.key === 'reference2' ? r.key : null;
}

export const membershipKeys = {
  catalogue: ['memberships', 'catalogue'] as const,
  order: (id: string) => ['memberships', 'order', id] as const,
  commit: (paymentId: string | null) => ['memberships', 'commit', paymentId] as const,
};

export const membershipCatalogueQuery = queryOptions({
  queryKey: membershipKeys.catalogue,
  queryFn: ({ signal }) => apiGet<MembershipCatalogue>('/memberships', undefined, signal),
});

/** A paid membership order (GET /gift-orders/{id}, which carries its `members`). */
export const membershipOrderQuery = (id: string) =>
  queryOptions({
    queryKey: membershipKeys.order(id),
    queryFn: ({ signal }) =>
      apiGet<MembershipOrder>(`/gift-orders/${encodeURIComponent(id)}`, undefined, signal),
    retry: false,
  });

/** POST /cart with the chosen memberships and the buyer's details (the buyer logged in). */
export function postMembershipCart(
  memberships: CartMembershipIn[],
  customerInfo: CustomerInfo,
  total: number,
  locale: string,
): Promise<MembershipCartResponse> {
  return apiSend<MembershipCartResponse>('POST', '/cart', {
    cart: { presentations: [], memberships, customerInfo, total },
    step: 'customerInfo',
    locale,
  });
}

/** POST /payment/commit of the session's paid membership order. */
export function commitMemberships(recaptchaToken: string): Promise<MembershipCommitResponse> {
  return apiSend<MembershipCommitResponse>('POST', '/payment/commit', {
    cart: { memberships: [{}] },
    recaptchaToken,
  });
}
