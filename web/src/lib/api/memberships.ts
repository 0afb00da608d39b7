// Memberships (issue 15, decisions 0037, 0038 and 0043): the catalogue on sale, a seated
// membership's member-seat map and its seat held, the cart of a membership order, its commit, and
// a paid order's new members (and seats) read back.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from './client';
import type { EnrollSelectionsResponse } from './enroll';
import type { components } from './schema';

type Schemas = components['schemas'];
export type CustomerInfo = Schemas['CustomerInfo'];
/** A seated membership's season: the screenings its price includes a fixed seat in. */
export type MembershipSeats = Schemas['MembershipSeatsDto'];
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
/** A seat a seated membership's order holds (the priced cart) or sold (the order read back). */
export type MembershipOrderSeat = Schemas['MembershipSeatDto'];
export type MembershipCartResponse = Schemas['CartResponse'];
/** The member-seat map of a seated membership's season, for this buyer. */
export type MembershipSeatplan = Schemas['MembershipSeatplanResponse'];
export type MembershipSeatBody = Schemas['MembershipSeatBody'];
type MembershipCommitResponse = Schemas['CommitResponse'];

/** The cart line's field that answers a prompt; null for a key this page does not know. */
export function referenceField(r: MembershipReference): 'reference1' | 'reference2' | null {
  return r.key === 'reference1' || r.key === 'reference2' ? r.key : null;
}

export const membershipKeys = {
  catalogue: ['memberships', 'catalogue'] as const,
  order: (id: string) => ['memberships', 'order', id] as const,
  commit: (paymentId: string | null) => ['memberships', 'commit', paymentId] as const,
  seatplan: (membershipId: number) => ['memberships', 'seatplan', membershipId] as const,
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

/** A seated membership's member-seat map: a seat is free only when it is free in every screening. */
export const membershipSeatplanQuery = (membershipId: number) =>
  queryOptions({
    queryKey: membershipKeys.seatplan(membershipId),
    queryFn: ({ signal }) =>
      apiGet<MembershipSeatplan>('/membership/seatplan', { membershipId }, signal),
    refetchInterval: 5000,
    staleTime: 0,
    retry: false,
  });

/** Holds a seat in every screening of the season; the seat held before gives way. */
export function lockMembershipSeat(body: MembershipSeatBody): Promise<EnrollSelectionsResponse> {
  return apiSend<EnrollSelectionsResponse>('PUT', '/membership/lock-seat', body);
}

/** Lets go of the seat in every screening of the season. */
export function unlockMembershipSeat(body: MembershipSeatBody): Promise<EnrollSelectionsResponse> {
  return apiSend<EnrollSelectionsResponse>('PUT', '/membership/unlock-seat', body);
}

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
