// Memberships (issue 15, decision 0038): the catalogue on sale, the cart of a membership order,
// its commit, and a paid order's new members read back.
//
// Written by hand to the contract (/work/notes/membership-contract.md) until the server's
// OpenAPI document has these shapes; then they become `Schemas[...]` aliases like lib/api/gifts.ts.
// The names are the contract's, including its mixed spellings (MembershipId next to prices).
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from './client';
import type { components } from './schema';

type Schemas = components['schemas'];
export type CustomerInfo = Schemas['CustomerInfo'];

/** A prompt the buyer answers for a price (a student card number); `pattern` a regex, or null. */
export interface MembershipReference {
  key: 'reference1' | 'reference2';
  label: string;
  labelEn: string;
  pattern: string | null;
}

export interface MembershipCurrency {
  CurrencyId: number;
  CurrencySymbol: string;
  CurrencyCode: string;
}

export interface MembershipPrice {
  MembershipPriceId: number;
  PriceCode: string;
  /** Agorot. */
  Price: number;
  /** The balance a series member gets for it (agorot). */
  value: number;
  currency: MembershipCurrency;
  references: MembershipReference[];
}

export interface MembershipTerms {
  termsId: number;
  text: string;
  textEn: string;
}

export interface Membership {
  MembershipId: number;
  /** 2 means a series (a balance spent on tickets). */
  MembershipTypeId: number;
  Name: string;
  NameEn: string;
  Code: string;
  ClassName: string;
  Description: string;
  DescriptionEn: string;
  prices: MembershipPrice[];
  /** A new member is good for this many months from the day of payment. */
  validMonths: number;
  /** Its prices can be bought again for an existing member number (a series only). */
  topUp: boolean;
  terms: MembershipTerms | null;
}

export interface MembershipCatalogue {
  memberships: Membership[];
  maxQuantityForMembership: number;
}

/** A price line of the cart: new members of that price, with the answers to its prompts. */
export interface CartMembershipPriceIn {
  MembershipPriceId: number;
  selectedQuantity: number;
  reference1?: string;
  reference2?: string;
}

export interface CartMembershipIn {
  MembershipId: number;
  prices: CartMembershipPriceIn[];
  /** Top-ups keyed by the member number they add to. */
  topups?: Record<string, { MembershipPriceId: number; selectedQuantity: number }[]>;
}

/** One unit of the priced cart (one new member or one top-up). */
export interface PricedMembership {
  membershipId: number;
  membershipPriceId: number;
  name: string;
  nameEn: string;
  membershipTypeId: number;
  price: number;
  value: number;
  topUpMemberNumber: string | null;
  reference1: string | null;
  reference2: string | null;
  validFrom: string | null;
  validTo: string | null;
}

export type MembershipCartResponse = Schemas['CartResponse'] & {
  memberships?: PricedMembership[];
};

/** A member the order made or topped up. */
export interface OrderMember {
  memberNumber: string;
  membershipId: number;
  membershipTypeId: number;
  name: string;
  nameEn: string;
  /** Agorot (a series member's balance after the order). */
  balance: number;
  startDate: string;
  endDate: string;
  topUp: boolean;
}

export type MembershipOrder = Schemas['GiftOrderResponse'] & { members?: OrderMember[] };
export type MembershipCommitResponse = Schemas['CommitResponse'] & { members?: OrderMember[] };

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
