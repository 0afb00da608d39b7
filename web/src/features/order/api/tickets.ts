// The tickets and products steps' calls, the cart's post as a mutation, and the one place that
// owns their query keys.
import { queryOptions, useMutation } from '@tanstack/react-query';
import type { Captcha } from '../../../lib/captcha';
import { apiGet, apiSend } from '../../../lib/api/client';
import { channelOf } from '../../../lib/api/orderChannel';
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
        { membershipLoyaltyId: memberNumber || undefined, ...channelOf(presentationId) },
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
    { ...query, ...channelOf(presentationId) },
  );
}

/**
 * Prices and validates the order on the server and moves the checkout to `body.step`. A ticket
 * order started from a mini-site says so (the server makes it the mini-site's).
 */
export function postCart(body: CartBody): Promise<CartResponse> {
  const first = body.cart.presentations?.[0]?.presentationId;
  const channel = first === undefined ? {} : channelOf(first);
  return apiSend<CartResponse>('POST', '/cart', { ...body, cart: { ...body.cart, ...channel } });
}

/** POST /cart: every step that prices the order posts it (tickets, products, details, vouchers). */
export function usePostCart() {
  return useMutation({ mutationKey: ['cart'] as const, mutationFn: postCart });
}

/**
 * The ticket a typed code unlocks for the order's seats: one lookup per ticket group that still
 * has seats without a code (`targets`: group → a section of it); the first match wins. A group
 * that does not know the code says `ticketNotFound`; another error is the one kept.
 */
export function useTicketByCode(presentationId: number, captcha: Captcha) {
  return useMutation({
    mutationKey: ['ticketByCode', presentationId] as const,
    mutationFn: async ({
      code,
      targets,
    }: {
      code: string;
      targets: ReadonlyMap<number, number>;
    }): Promise<TicketByCodeResponse> => {
      let firstError: unknown = null;
      for (const [ticketGroupId, sectionId] of targets) {
        try {
          return await ticketByCode(presentationId, {
            sectionId,
            ticketGroupId,
            ticketCode: code,
            recaptchaToken: await captcha('ticketByCode'),
          });
        } catch (e) {
          // A ticketNotFound for one group may still match another group.
          if (firstError === null || isTicketNotFound(firstError)) firstError = e;
        }
      }
      throw firstError;
    },
  });
}

function isTicketNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === 'ticketNotFound'
  );
}
