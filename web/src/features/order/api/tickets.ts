// The tickets and products steps' calls and the one place that owns their query keys.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from '../../../lib/api/client';
import type {
  CartBody,
  CartResponse,
  TicketByCodeResponse,
  TicketGroupsResponse,
} from '../../../lib/api/types';

export const ticketKeys = {
  groups: (presentationId: number, memberNumber: string) =>
    ['ticketGroups', presentationId, memberNumber] as const,
};

/** The ticket types of the presentation's groups; a member number adds the member-only ones. */
export function ticketGroupsQuery(presentationId: number, memberNumber = '') {
  return queryOptions({
    queryKey: ticketKeys.groups(presentationId, memberNumber),
    queryFn: ({ signal }) =>
      apiGet<TicketGroupsResponse>(
        `/presentations/${encodeURIComponent(presentationId)}/ticketGroups`,
        { membershipLoyaltyId: memberNumber || undefined },
        signal,
      ),
    staleTime: 60_000,
  });
}

/** The ticket a voucher or code unlocks for a seat of `sectionId` / `ticketGroupId`. */
export function ticketByCode(
  presentationId: number,
  query: { sectionId: number; ticketGroupId: number; ticketCode: string; recaptchaToken: string },
): Promise<TicketByCodeResponse> {
  return apiGet<TicketByCodeResponse>(
    `/presentations/${encodeURIComponent(presentationId)}/ticket`,
    query,
  );
}

/** Prices and validates the order on the server and moves the checkout to `body.step`. */
export function postCart(body: CartBody): Promise<CartResponse> {
  return apiSend<CartResponse>('POST', '/cart', body);
}
