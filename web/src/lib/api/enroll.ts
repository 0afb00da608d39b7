// Enrolment in a membership season (issue 15, decision 0040; the contract in docs/api.md): the
// season open for enrolment, its seat maps, the member's seat held in its presentations, the
// ticket cart with `enrollment`, and its commit. Shared by the enrolment flow, the customer area's
// member cards and the memberships page (which offer it), so the query keys live here.
import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiGet, apiSend } from './client';
import type { components } from './schema';

type Schemas = components['schemas'];
type CustomerInfo = Schemas['CustomerInfo'];

export type EnrollTicket = Schemas['SeasonTicket'];
export type EnrollTicketGroup = Schemas['SeasonTicketGroup'];
export type EnrollPresentation = Schemas['SeasonPresentationDto'];
/** A ticket's price in one presentation: `Price` in force, `MembershipPayableAmount` from the pass. */
export type EnrollPriceDetail = Schemas['SeasonPriceDto'];
export type EnrollSeason = Schemas['EnrollMembershipDto'];
export type EnrollMember = Schemas['EnrollingMemberDto'];
export type EnrollResponse = Schemas['EnrollSeasonResponse'];
/** A seat this session holds in one presentation of the season, and when the hold ends. */
export type EnrollSelection = Schemas['SelectionDto'];
export type EnrollSeatplanResponse = Schemas['EnrollSeatplanResponse'];
/** Every seat this session holds in the season (a lock's or an unlock's answer). */
export type EnrollSelectionsResponse = Schemas['SelectionsResponse'];
export type EnrollLockBody = Schemas['EnrollLockBody'];
export type EnrollUnlockBody = Schemas['EnrollUnlockBody'];
export type EnrollmentCartResponse = Schemas['CartResponse'];

/** A seat of the enrolment's cart: the member's one seat in a presentation, with its ticket. */
export interface EnrollmentCartSeat {
  presentationId: number;
  sectionId: number;
  x: number;
  y: number;
  ticketId: number;
}

export const enrollKeys = {
  season: (membershipId: number) => ['enroll', membershipId] as const,
  member: (membershipId: number, memberNumber: string) =>
    ['enroll', membershipId, 'member', memberNumber] as const,
  seatplan: (membershipId: number, seasonId: number, presentationId: number | null) =>
    ['enroll', membershipId, 'seatplan', seasonId, presentationId] as const,
  cart: (membershipId: number) => ['enroll', membershipId, 'cart'] as const,
  commit: (paymentId: string | null) => ['enroll', 'commit', paymentId] as const,
};

/**
 * The membership's season open for enrolment and the customer's members of it; null when there
 * is none (404 notFound) or nobody is logged in (401 loginError), so an offer is simply not shown.
 */
export const enrollSeasonQuery = (membershipId: number) =>
  queryOptions({
    queryKey: enrollKeys.season(membershipId),
    queryFn: async ({ signal }): Promise<EnrollResponse | null> => {
      try {
        return await apiGet<EnrollResponse>(`/enroll/${membershipId}`, undefined, signal);
      } catch (error) {
        if (error instanceof ApiError && ['notFound', 'loginError'].includes(error.code)) {
          return null;
        }
        throw error;
      }
    },
    retry: false,
    staleTime: 0,
  });

/** One member checked for enrolment: its refusal (ALREADY_ENROLLED, CUSTOMER_NO_MOBILE …) throws. */
export const enrollMemberQuery = (membershipId: number, memberNumber: string) =>
  queryOptions({
    queryKey: enrollKeys.member(membershipId, memberNumber),
    queryFn: ({ signal }) =>
      apiGet<EnrollResponse>(`/enroll/${membershipId}`, { memberNumber }, signal),
    retry: false,
    staleTime: 0,
  });

/** The season hall's map: the member seat (no presentation) or one presentation's. */
export const enrollSeatplanQuery = (
  membershipId: number,
  seasonId: number,
  presentationId: number | null,
) =>
  queryOptions({
    queryKey: enrollKeys.seatplan(membershipId, seasonId, presentationId),
    queryFn: ({ signal }) =>
      apiGet<EnrollSeatplanResponse>(
        `/enroll/${membershipId}/seatplan`,
        presentationId === null ? { seasonId } : { seasonId, presentationId },
        signal,
      ),
    refetchInterval: 5000,
    staleTime: 0,
  });

export function lockEnrollSeat(
  membershipId: number,
  body: EnrollLockBody,
): Promise<EnrollSelectionsResponse> {
  return apiSend<EnrollSelectionsResponse>('PUT', `/enroll/${membershipId}/lock-seat`, body);
}

export function unlockEnrollSeat(
  membershipId: number,
  body: EnrollUnlockBody,
): Promise<EnrollSelectionsResponse> {
  return apiSend<EnrollSelectionsResponse>('PUT', `/enroll/${membershipId}/unlock-seat`, body);
}

/** POST /cart: the member's seat in each chosen presentation, priced by the season. */
export function postEnrollmentCart(
  enrollment: { membershipId: number; seasonId: number; memberNumber: string },
  seats: readonly EnrollmentCartSeat[],
  customerInfo: CustomerInfo | null,
  locale: string,
): Promise<EnrollmentCartResponse> {
  return apiSend<EnrollmentCartResponse>('POST', '/cart', {
    cart: {
      enrollment,
      presentations: seats.map((s) => ({
        presentationId: s.presentationId,
        seats: [
          {
            XCoordinate: s.x,
            YCoordinate: s.y,
            VenueSectionId: s.sectionId,
            ticket: { ticketId: s.ticketId },
          },
        ],
      })),
      customerInfo,
    },
    step: 'customerInfo',
    locale,
  });
}

/** POST /payment/commit of the session's paid enrolment (a ticket order, by its first screening). */
export function commitEnrollment(
  presentationId: number,
  recaptchaToken: string,
): Promise<{ reservationIdentifier: string }> {
  return apiSend<{ reservationIdentifier: string }>('POST', '/payment/commit', {
    cart: { presentations: [{ presentationId }] },
    recaptchaToken,
  });
}
