// Enrolment in a membership season (issue 15, decision 0040; the contract in docs/api.md): the
// season open for enrolment, its seat maps, the member's seat held in its presentations, the
// ticket cart with `enrollment`, and its commit. Shared by the enrolment flow, the customer area's
// member cards and the memberships page (which offer it), so the query keys live here.
import { queryOptions } from '@tanstack/react-query';
import { ApiError, apiGet, apiSend } from './client';
import type { components } from './schema';
import type { SeatplanV2, SeatStatusShort, SectionStatus } from './types';

type CustomerInfo = components['schemas']['CustomerInfo'];

export interface EnrollTicket {
  id: number;
  name: string;
  nameEn: string;
  price: number;
}

export interface EnrollTicketGroup {
  id: number;
  name: string;
  nameEn: string;
  tickets: EnrollTicket[];
}

export interface EnrollPresentation {
  PresentationId: number;
  IsRequired: boolean;
  MembershipPayableAmount: number;
  featureId: number;
  featureName: string;
  featureNameEn: string;
  dateTime: string;
  locationName: string;
  locationNameEn: string;
  venueId: number;
  venueName: string;
  venueNameEn: string;
  seatplanId: number;
}

/** A ticket's price in one presentation: `Price` in force, `MembershipPayableAmount` from the pass. */
export interface EnrollPriceDetail {
  IsPriceOverride: boolean;
  Price: number;
  MembershipPayableAmount: number;
}

export interface EnrollSeason {
  SeasonId: number;
  MembershipId: number;
  Name: string;
  NameEn: string;
  Description: string;
  DescriptionEn: string;
  IsSkipMemberSeat: boolean;
  IsPricingPerTicket: boolean;
  DefaultTicketGroupId: number;
  TicketGroups: EnrollTicketGroup[];
  Presentations: EnrollPresentation[];
  /** presentation id → ticket group id → ticket id → its price there. */
  PresentationDetail: Record<string, Record<string, Record<string, EnrollPriceDetail>>>;
  venueId: number;
  seatplanId: number;
}

export interface EnrollMember {
  memberNumber: string;
  name: string;
  balance: number;
  startDate: string;
  endDate: string;
  isAvailable: boolean;
  enrolled: boolean;
}

export interface EnrollResponse {
  enrollMembership: EnrollSeason;
  members: EnrollMember[];
}

/** A seat this session holds in one presentation of the season. */
export interface EnrollSelection {
  presentationId: number;
  sectionId: number;
  x: number;
  y: number;
  rowName: string;
  seatName: string;
}

export interface EnrollSeatplanResponse {
  seatplan: SeatplanV2;
  sections: SectionStatus[];
  seats: SeatStatusShort[];
  selections: EnrollSelection[];
  serverTime: string;
}

export interface EnrollLockResponse {
  selections: EnrollSelection[];
  expiresAt?: string | null;
  serverTime: string;
}

export interface EnrollLockBody {
  recaptchaToken: string;
  memberNumber: string;
  venueId: number;
  seatplanId: number;
  sectionId: number;
  x: number;
  y: number;
  ticketGroupId: number;
  seasonId: number;
  /** null: the member seat, in every presentation of the season. */
  presentationId: number | null;
  selections: EnrollSelection[];
}

export interface EnrollmentCartSeat {
  presentationId: number;
  sectionId: number;
  x: number;
  y: number;
  ticketId: number;
}

/** The priced enrolment cart (the ticket cart's answer, what this flow reads of it). */
export interface EnrollmentCartResponse {
  cart: {
    total: number;
    amountDue: number;
    currency: string;
    memberBalanceTotal?: number;
    tickets: {
      presentationId?: number | null;
      rowName: string;
      seatName: string;
      amount: number;
      memberBalance?: number;
    }[];
  };
  expiresAt?: string | null;
  serverTime: string;
}

export const enrollKeys = {
  season: (membershipId: number) => ['enroll', membershipId] as const,
  member: (membershipId: number, memberNumber: string) =>
    ['enroll', membershipId, 'member', memberNumber] as const,
  seatplan: (membershipId: number, seasonId: number, presentationId: number | null) =>
    ['enroll', membershipId, 'seatplan', seasonId, presentationId] as const,
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
): Promise<EnrollLockResponse> {
  return apiSend<EnrollLockResponse>('PUT', `/enroll/${membershipId}/lock-seat`, body);
}

export function unlockEnrollSeat(
  membershipId: number,
  body: Omit<EnrollLockBody, 'seasonId'> & { seasonId?: number },
): Promise<{ selections: EnrollSelection[] }> {
  return apiSend<{ selections: EnrollSelection[] }>(
    'PUT',
    `/enroll/${membershipId}/unlock-seat`,
    body,
  );
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
