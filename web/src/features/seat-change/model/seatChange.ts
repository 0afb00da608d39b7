// Pure: the seat-change screen's state. The buyer picks one of their tickets (its seat on the
// map, or its line in the list) and then a free seat for it; several tickets may move at once,
// within one presentation of the reservation at a time. What the server is sent is derived from
// this state, never kept beside it.

import type { SeatMark } from '../../../components/seat-map/SeatMap';
import { seatKey } from '../../../lib/seatAddress';

/** A ticket of the reservation that may move: its line and its seat now. */
export interface MovableTicket {
  line: number;
  presentationId: number;
  sectionId: number;
  x: number;
  y: number;
  row: string;
  seat: string;
  /** The ticket group of its seat (from the seat plan): a new seat must sell the same tickets. */
  ticketGroupId: number;
  /** The ticket's number on this screen (1, 2, ...), shown on its seat. */
  tag: string;
}

/** A free seat of the map, as the screen picks it. */
export interface PickedSeat {
  sectionId: number;
  x: number;
  y: number;
  row: string;
  seat: string;
  ticketGroupId: number;
}

/** Why a tap did nothing, for the screen to say. */
export type Hint = 'pickTicketFirst' | 'otherTickets' | 'seatTaken' | null;

export interface ChangeState {
  tickets: readonly MovableTicket[];
  /** The ticket the next free seat is for. */
  picked: number | null;
  /** Each moving ticket's new seat, by line, in the order chosen. */
  moves: ReadonlyMap<number, PickedSeat>;
  hint: Hint;
}

export type ChangeAction =
  | { type: 'pickTicket'; line: number }
  | { type: 'tapSeat'; seat: PickedSeat }
  | { type: 'undo'; line: number }
  | { type: 'seatsLost'; keys: readonly string[] }
  | { type: 'reset'; tickets: readonly MovableTicket[] };

/**
 * The reservation's live tickets of one presentation that sit on the map's seats (a
 * general-admission place has no seat to change), numbered for the screen. `groupOf` gives the
 * ticket group of a seat of the plan, null for a place that is not on it.
 */
export function movableTickets<
  S extends {
    line: number;
    presentationId: number;
    sectionId: number;
    x: number;
    y: number;
    row: string;
    seat: string;
    cancelledAt?: string | null;
  },
>(
  seats: readonly S[],
  presentationId: number,
  groupOf: (key: string) => number | null,
): MovableTicket[] {
  const live = seats.filter((s) => s.presentationId === presentationId && !s.cancelledAt);
  return live
    .flatMap((s) => {
      const group = groupOf(seatKey(s));
      if (group === null) return [];
      const ticket: MovableTicket = {
        line: s.line,
        presentationId: s.presentationId,
        sectionId: s.sectionId,
        x: s.x,
        y: s.y,
        row: s.row,
        seat: s.seat,
        ticketGroupId: group,
        tag: '',
      };
      return [ticket];
    })
    .map((t, i) => ({ ...t, tag: String(i + 1) }));
}

export function initialChange(tickets: readonly MovableTicket[]): ChangeState {
  // One ticket: it is the one that moves, no need to pick it.
  return {
    tickets,
    picked: tickets.length === 1 ? tickets[0].line : null,
    moves: new Map(),
    hint: null,
  };
}

function withoutMove(moves: ReadonlyMap<number, PickedSeat>, line: number) {
  const next = new Map(moves);
  next.delete(line);
  return next;
}

export function changeReducer(state: ChangeState, action: ChangeAction): ChangeState {
  switch (action.type) {
    case 'reset':
      return initialChange(action.tickets);
    case 'pickTicket':
      return {
        ...state,
        picked: state.picked === action.line && state.tickets.length > 1 ? null : action.line,
        hint: null,
      };
    case 'undo':
      return { ...state, moves: withoutMove(state.moves, action.line), hint: null };
    case 'seatsLost': {
      const lost = new Set(action.keys);
      const moves = new Map([...state.moves].filter(([, seat]) => !lost.has(seatKey(seat))));
      return moves.size === state.moves.size ? state : { ...state, moves, hint: 'seatTaken' };
    }
    case 'tapSeat': {
      const key = seatKey(action.seat);
      // One of the buyer's own seats: that ticket is the one to move.
      const own = state.tickets.find((t) => seatKey(t) === key);
      if (own) return changeReducer(state, { type: 'pickTicket', line: own.line });
      // A new seat already chosen: tapping it again gives it back.
      const chosen = [...state.moves].find(([, seat]) => seatKey(seat) === key);
      if (chosen) {
        return {
          ...state,
          moves: withoutMove(state.moves, chosen[0]),
          picked: chosen[0],
          hint: null,
        };
      }
      const ticket = state.tickets.find((t) => t.line === state.picked);
      if (!ticket) return { ...state, hint: 'pickTicketFirst' };
      if (ticket.ticketGroupId !== action.seat.ticketGroupId) {
        return { ...state, hint: 'otherTickets' };
      }
      const moves = new Map(state.moves);
      moves.set(ticket.line, action.seat);
      // The next free seat is for whichever ticket the buyer picks next (a lone ticket stays
      // picked): a tap never moves a ticket the buyer did not choose.
      const picked = state.tickets.length === 1 ? ticket.line : null;
      return { ...state, moves, picked, hint: null };
    }
  }
}

/** The marks of the map: each ticket's seat (staying, or being left) and each new seat. */
export function marksOf(
  state: ChangeState,
  words: (tone: SeatMark['tone'], tag: string) => string,
): Map<string, SeatMark> {
  const marks = new Map<string, SeatMark>();
  for (const t of state.tickets) {
    const tone = state.moves.has(t.line) || state.picked === t.line ? 'leaving' : 'yours';
    marks.set(seatKey(t), { tone, tag: t.tag, label: words(tone, t.tag) });
    const to = state.moves.get(t.line);
    if (to) marks.set(seatKey(to), { tone: 'new', tag: t.tag, label: words('new', t.tag) });
  }
  return marks;
}

/** What the buyer confirms: each moving ticket, from its seat to the new one, in ticket order. */
export function summaryOf(state: ChangeState): { ticket: MovableTicket; to: PickedSeat }[] {
  return state.tickets.flatMap((ticket) => {
    const to = state.moves.get(ticket.line);
    return to ? [{ ticket, to }] : [];
  });
}

/** POST /reservations/{id}/modify's body. */
export function modifyBody(
  reservationId: string,
  lastTransactionId: string,
  state: ChangeState,
): {
  resId: string;
  lastTransactionId: string;
  tickets: {
    presentationId: number;
    sectionId: number;
    x: number;
    y: number;
    newSeat: { sectionId: number; x: number; y: number };
  }[];
} {
  return {
    resId: reservationId,
    lastTransactionId,
    tickets: summaryOf(state).map(({ ticket, to }) => ({
      presentationId: ticket.presentationId,
      sectionId: ticket.sectionId,
      x: ticket.x,
      y: ticket.y,
      newSeat: { sectionId: to.sectionId, x: to.x, y: to.y },
    })),
  };
}
