// The enrolment's steps and what the buyer chose (spec section 2 "Enroll membership": choose
// seats, choose tickets, choose presentations, choose presentation seats, customer info,
// confirmation; section 4: stepping with next and previous), as one reducer over named actions.
// The server holds the seats; `selections` is its last word on which seat this session holds in
// each presentation of the season.
import { seatInEvery, selectionsBy } from '../../../lib/memberSeat';
import { earliestClock, type Clock, type Timed } from '../../../lib/countdownClock';
import type { EnrollSeason, EnrollSelection, EnrollmentCartSeat } from '../../../lib/api/enroll';

export type EnrollStep = 'memberSeat' | 'tickets' | 'presentations' | 'seats' | 'details';

const ALL_STEPS: readonly EnrollStep[] = [
  'memberSeat',
  'tickets',
  'presentations',
  'seats',
  'details',
];

export interface ChosenTicket {
  groupId: number;
  ticketId: number;
}

export interface EnrollState {
  step: EnrollStep;
  ticket: ChosenTicket | null;
  /** The presentations chosen, in the season's order; the required ones always among them. */
  chosen: number[];
  /** The seat this session holds in each presentation, by presentation id. */
  selections: Record<number, EnrollSelection>;
  /** The presentation whose map the presentation-seats step shows. */
  shown: number | null;
  clock: Clock | null;
}

/** The server's word on the seats this session holds (a lock's, an unlock's or a map's answer). */
export type HeldAnswer = Timed<{ selections: readonly EnrollSelection[]; serverTime: string }>;

export type EnrollAction =
  | { type: 'held'; answer: HeldAnswer }
  | { type: 'clock'; clock: Clock | null }
  | { type: 'ticket'; ticket: ChosenTicket }
  | { type: 'toggle'; presentationId: number }
  | { type: 'show'; presentationId: number }
  | { type: 'next' }
  | { type: 'previous' };

/** The steps of this season: no member seat to choose when the season skips it. */
export function stepsOf(season: EnrollSeason): EnrollStep[] {
  return ALL_STEPS.filter((s) => s !== 'memberSeat' || !season.IsSkipMemberSeat);
}

/** The season's default ticket: the first of its default ticket group (else of its first). */
export function defaultTicket(season: EnrollSeason): ChosenTicket | null {
  const group =
    season.TicketGroups.find((g) => g.id === season.DefaultTicketGroupId) ?? season.TicketGroups[0];
  const first = group?.tickets[0];
  return group && first ? { groupId: group.id, ticketId: first.id } : null;
}

export function initialState(season: EnrollSeason, held?: HeldAnswer): EnrollState {
  return {
    step: stepsOf(season)[0],
    ticket: defaultTicket(season),
    // The required presentations to begin with: the optional ones are the buyer's to add.
    chosen: season.Presentations.filter((p) => p.IsRequired).map((p) => p.PresentationId),
    selections: selectionsBy(held?.selections ?? []),
    shown: null,
    clock: held ? earliestClock(held) : null,
  };
}

/** The chosen presentations that have no seat yet (the member seat was taken there). */
export function missingSeats(state: EnrollState): number[] {
  return state.chosen.filter((id) => !state.selections[id]);
}

/** The member seat: the one seat held in every presentation of the season, if there is one. */
export function memberSeat(season: EnrollSeason, state: EnrollState): EnrollSelection | null {
  return seatInEvery(
    season.Presentations.map((p) => p.PresentationId),
    state.selections,
  );
}

/** Why "Next" is not open on this step, or null when it is. */
export function blockedBecause(
  season: EnrollSeason,
  state: EnrollState,
): 'memberSeat' | 'ticket' | 'seats' | null {
  switch (state.step) {
    case 'memberSeat':
      return memberSeat(season, state) ? null : 'memberSeat';
    case 'tickets':
      return state.ticket ? null : 'ticket';
    case 'presentations':
      return null;
    case 'seats':
      return missingSeats(state).length === 0 ? null : 'seats';
    case 'details':
      return null;
  }
}

export function enrollReducer(season: EnrollSeason) {
  const steps = stepsOf(season);
  const required = new Set(
    season.Presentations.filter((p) => p.IsRequired).map((p) => p.PresentationId),
  );
  const order = season.Presentations.map((p) => p.PresentationId);
  return (state: EnrollState, action: EnrollAction): EnrollState => {
    switch (action.type) {
      case 'held':
        return {
          ...state,
          selections: selectionsBy(action.answer.selections),
          clock: earliestClock(action.answer),
        };
      case 'clock':
        return { ...state, clock: action.clock };
      case 'ticket':
        return { ...state, ticket: action.ticket };
      case 'toggle': {
        if (required.has(action.presentationId) || !order.includes(action.presentationId)) {
          return state;
        }
        const on = state.chosen.includes(action.presentationId);
        const chosen = order.filter((id) =>
          id === action.presentationId ? !on : state.chosen.includes(id),
        );
        return { ...state, chosen };
      }
      case 'show':
        return state.chosen.includes(action.presentationId)
          ? { ...state, shown: action.presentationId }
          : state;
      case 'next': {
        if (blockedBecause(season, state) !== null) return state;
        const at = steps.indexOf(state.step);
        const step = steps[Math.min(at + 1, steps.length - 1)];
        // The presentation seats start at the first one without a seat, else the first.
        const shown =
          step === 'seats' ? (missingSeats(state)[0] ?? state.chosen[0] ?? null) : state.shown;
        return { ...state, step, shown };
      }
      case 'previous': {
        const at = steps.indexOf(state.step);
        return at <= 0 ? state : { ...state, step: steps[at - 1] };
      }
    }
  };
}

/** Whether "Previous" leads anywhere (the first step's leads back to the member choice). */
export function isFirstStep(season: EnrollSeason, state: EnrollState): boolean {
  return stepsOf(season).indexOf(state.step) === 0;
}

/** The seats this session holds in presentations not chosen: released when the buyer goes on. */
export function heldButNotChosen(state: EnrollState): EnrollSelection[] {
  return Object.values(state.selections).filter((s) => !state.chosen.includes(s.presentationId));
}

/** The ticket cart's seats: the member's one seat in each chosen presentation. */
export function cartSeats(state: EnrollState): EnrollmentCartSeat[] {
  const ticket = state.ticket;
  if (!ticket) return [];
  return state.chosen.flatMap((presentationId) => {
    const s = state.selections[presentationId];
    return s
      ? [{ presentationId, sectionId: s.sectionId, x: s.x, y: s.y, ticketId: ticket.ticketId }]
      : [];
  });
}

export interface SeasonPrice {
  /** The tickets' prices in force, all of them. */
  price: number;
  /** The part the member's pass balance pays. */
  fromPass: number;
  /** What is paid in money. */
  money: number;
}

/** A ticket's price over some presentations of the season (PresentationDetail's). */
export function priceOf(
  season: EnrollSeason,
  ticket: ChosenTicket,
  presentations: readonly number[],
): SeasonPrice {
  let price = 0;
  let fromPass = 0;
  for (const id of presentations) {
    const detail =
      season.PresentationDetail[String(id)]?.[String(ticket.groupId)]?.[String(ticket.ticketId)];
    const own = season.TicketGroups.find((g) => g.id === ticket.groupId)?.tickets.find(
      (t) => t.id === ticket.ticketId,
    );
    price += detail?.Price ?? own?.price ?? 0;
    fromPass += detail?.MembershipPayableAmount ?? 0;
  }
  return { price, fromPass, money: price - fromPass };
}
