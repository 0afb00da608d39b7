// The "choose seats" step of a seated membership (decision 0043: its price includes one fixed seat
// in every screening of a season). The server holds the seat, all screenings or none, and its
// `selections` are the only record of it: this reads them, says what is missing, and names the
// server's refusals in the step's words.
import { ApiError } from '../../lib/api/client';
import type { EnrollSelection } from '../../lib/api/enroll';
import type { Membership, MembershipSeats } from '../../lib/api/memberships';
import { seatInEvery, selectionsBy } from '../../lib/memberSeat';

export interface SeatProgress {
  /** The one seat held in every screening of the season, once there is one. */
  seat: EnrollSelection | null;
  /** The season's screenings with no seat held in them. */
  missing: number[];
}

export function seatProgress(
  seats: MembershipSeats,
  selections: readonly EnrollSelection[],
): SeatProgress {
  const ids = seats.presentations.map((p) => p.PresentationId);
  const held = selectionsBy(selections);
  return { seat: seatInEvery(ids, held), missing: ids.filter((id) => !held[id]) };
}

/** Why "Next" is off: no seat yet, or (a screening's hold ended) not the same seat in every one. */
export function seatsBlocked(
  seats: MembershipSeats,
  progress: SeatProgress,
): 'noSeat' | 'notEvery' | null {
  if (progress.seat) return null;
  return progress.missing.length === seats.presentations.length ? 'noSeat' : 'notEvery';
}

/** The seat kinds that ask the buyer's yes before they are held (as the order's seat step asks). */
export function confirmationOf(seat: {
  hc: boolean;
  lv: boolean;
}): 'wheelchair' | 'limitedView' | null {
  if (seat.hc) return 'wheelchair';
  if (seat.lv) return 'limitedView';
  return null;
}

/** The refusals of a lock the step says in its own words (`membershipSeats.errors.<key>`). */
export type SeatRefusal =
  'lock_seat_error' | 'sofa' | 'notFound' | 'holdLimitReached' | 'recaptcha';

export function seatRefusal(error: unknown): SeatRefusal | null {
  if (!(error instanceof ApiError)) return null;
  switch (error.code) {
    case 'lock_seat_error':
    case 'notFound':
    case 'holdLimitReached':
    case 'recaptcha':
      return error.code;
    case 'formValidation':
      return error.params?.reason === 'oneSeatPerPresentation' ? 'sofa' : null;
    default:
      return null;
  }
}

/**
 * The cart's refusal of a seated membership without its seat held in every screening (the hold
 * ended, or was never taken): which membership, so the buyer is sent back to its seats.
 */
export function missingSeatsOf(error: unknown): { membershipId: number } | null {
  if (!(error instanceof ApiError) || error.code !== 'formValidation') return null;
  const params = error.params ?? {};
  if (params.reason !== 'membershipSeats') return null;
  return { membershipId: typeof params.membershipId === 'number' ? params.membershipId : 0 };
}

/** The seats step's index for a membership among the seated ones chosen (the first if unknown). */
export function seatsStepOf(seated: readonly Membership[], membershipId: number): number {
  return Math.max(
    0,
    seated.findIndex((m) => m.MembershipId === membershipId),
  );
}
