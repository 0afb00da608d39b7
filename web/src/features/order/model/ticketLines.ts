// The tickets step's model: one line per held seat, its ticket, and the codes applied to it.
// Pure functions, so the rules of spec section 4 ("Voucher or code ticket application") are
// tested without a screen.
import type { CartBody, LockedSeat, Ticket, TicketGroup } from '../../../lib/api/types';

/** A voucher or code the buyer applied, with the ticket it unlocked. */
export interface AppliedCode {
  code: string;
  ticket: Ticket;
  label: string;
  labelEn: string;
}

export interface TicketLine {
  /** `sectionId:x:y`, as the seat step keys held seats. */
  key: string;
  seat: LockedSeat;
  ticketGroupId: number;
  /** The ticket chosen from the list. While a code covers the seat it is remembered, not used. */
  ticketId: number | null;
  /** The code covering this seat, if any: its ticket replaces the chosen one until removed. */
  code: AppliedCode | null;
  /** Israeli ID of a senior citizen ticket. */
  seniorId: string;
  /** The reference of a ticket with a reference prompt (hotel guest: room). */
  ref1: string;
}

/** What the tickets step hands on, and gets back when the buyer returns to it. */
export interface TicketsChoice {
  lines: TicketLine[];
  memberNumber: string;
  groups: TicketGroup[];
}

export const lineKey = (seat: Pick<LockedSeat, 'sectionId' | 'x' | 'y'>) =>
  `${seat.sectionId}:${seat.x}:${seat.y}`;

/**
 * A ticket the list may pick for a seat on its own: nothing to ask, one seat, open to all, any
 * kind of seat.
 */
export function isPlainTicket(ticket: Ticket): boolean {
  return (
    !ticket.memberOnly &&
    !ticket.needsSeniorId &&
    ticket.refPrompt === '' &&
    ticket.multiplyFactor <= 1 &&
    ticket.requiresTicketId == null &&
    ticket.seatKind == null
  );
}

/**
 * Whether the ticket may be sold on the held seat: a ticket tied to a kind of seat (wheelchair,
 * companion, limited view…) only on a seat the server says serves that kind (my-holds'
 * `seatKinds`, which already counts the session's other holds: a seat beside a held wheelchair
 * place serves a companion). The server refuses any other (`ticketSeatKind`).
 */
export function ticketFitsSeat(ticket: Pick<Ticket, 'seatKind'>, seat: LockedSeat): boolean {
  return ticket.seatKind == null || seat.seatKinds.includes(ticket.seatKind);
}

/** The tickets of the line's group the buyer may choose for its seat. */
export function ticketsForLine(line: TicketLine, groups: readonly TicketGroup[]): Ticket[] {
  const group = groups.find((g) => g.id === line.ticketGroupId);
  return (group?.tickets ?? []).filter((t) => ticketFitsSeat(t, line.seat));
}

/** Spec 4: a code's ticket fills every seat only if it covers one seat and asks for nothing. */
export function isAutoAssignable(ticket: Ticket): boolean {
  return ticket.multiplyFactor <= 1 && ticket.refPrompt === '';
}

/**
 * One line per held seat, keeping what the buyer already chose for seats still held. A new seat
 * gets its group's first plain ticket (the regular one). A choice the seat no longer serves (the
 * wheelchair place beside a companion ticket was released) is dropped: the line asks for a
 * ticket again rather than post a cart the server refuses.
 */
export function syncLines(
  previous: readonly TicketLine[],
  held: readonly LockedSeat[],
  groupOf: (seat: LockedSeat) => number | undefined,
  groups: readonly TicketGroup[],
): TicketLine[] {
  return held.flatMap((seat) => {
    const key = lineKey(seat);
    const kept = previous.find((l) => l.key === key);
    if (kept) return [fitToSeat({ ...kept, seat }, groups)];
    const ticketGroupId = groupOf(seat);
    if (ticketGroupId === undefined) return [];
    const group = groups.find((g) => g.id === ticketGroupId);
    const plain = group?.tickets.find(isPlainTicket);
    return [
      {
        key,
        seat,
        ticketGroupId,
        ticketId: plain?.id ?? null,
        code: null,
        seniorId: '',
        ref1: '',
      },
    ];
  });
}

/** The line without the code or the chosen ticket its seat does not serve (any more). */
function fitToSeat(line: TicketLine, groups: readonly TicketGroup[]): TicketLine {
  const code = line.code && ticketFitsSeat(line.code.ticket, line.seat) ? line.code : null;
  const chosen = groups
    .find((g) => g.id === line.ticketGroupId)
    ?.tickets.find((t) => t.id === line.ticketId);
  const ticketId = chosen && !ticketFitsSeat(chosen, line.seat) ? null : line.ticketId;
  return code === line.code && ticketId === line.ticketId ? line : { ...line, code, ticketId };
}

/**
 * The ticket that will be sold for the line: the code's, else the chosen one; none when the seat
 * does not serve its kind.
 */
export function lineTicket(line: TicketLine, groups: readonly TicketGroup[]): Ticket | undefined {
  if (line.code) return ticketFitsSeat(line.code.ticket, line.seat) ? line.code.ticket : undefined;
  return ticketsForLine(line, groups).find((t) => t.id === line.ticketId);
}

/**
 * Applies a code's ticket to the seats of its group that have no code yet and serve its kind of
 * seat, if it is tied to one (one seat only when the ticket cannot be auto-assigned). The chosen
 * tickets stay remembered underneath. Returns null when no seat can take it.
 */
export function applyCode(lines: readonly TicketLine[], applied: AppliedCode): TicketLine[] | null {
  const free = lines.filter(
    (l) =>
      l.ticketGroupId === applied.ticket.ticketGroupId &&
      !l.code &&
      ticketFitsSeat(applied.ticket, l.seat),
  );
  if (free.length === 0) return null;
  const targets = new Set(
    (isAutoAssignable(applied.ticket) ? free : free.slice(0, 1)).map((l) => l.key),
  );
  return lines.map((l) => (targets.has(l.key) ? { ...l, code: applied } : l));
}

/** Takes a code off every seat it covers; each seat gets back the ticket it had before. */
export function removeCode(lines: readonly TicketLine[], code: string): TicketLine[] {
  return lines.map((l) => (l.code?.code === code ? { ...l, code: null } : l));
}

/** The distinct codes applied, in the order of the seats. */
export function appliedCodes(lines: readonly TicketLine[]): AppliedCode[] {
  const seen = new Map<string, AppliedCode>();
  for (const l of lines) if (l.code && !seen.has(l.code.code)) seen.set(l.code.code, l.code);
  return [...seen.values()];
}

export type LineProblem = 'noTicket' | 'seniorId' | 'reference';

/** What the buyer still has to fill in for a line, before the server checks the order. */
export function lineProblem(line: TicketLine, groups: readonly TicketGroup[]): LineProblem | null {
  const ticket = lineTicket(line, groups);
  if (!ticket) return 'noTicket';
  if (ticket.needsSeniorId && !/^\d{1,9}$/.test(line.seniorId.trim())) return 'seniorId';
  if (ticket.refPrompt !== '' && line.ref1.trim() === '') return 'reference';
  return null;
}

/** The senior IDs the buyer typed, by seat key, for the later posts of the same cart. */
export function seniorIdsOf(
  lines: readonly TicketLine[],
  groups: readonly TicketGroup[],
): Record<string, string> {
  const ids: Record<string, string> = {};
  for (const l of lines) {
    if (lineTicket(l, groups)?.needsSeniorId && l.seniorId.trim() !== '') {
      ids[l.key] = l.seniorId.trim();
    }
  }
  return ids;
}

/** The POST /cart body for the lines (and products), moving the checkout to `step`. */
export function cartBody(
  presentationId: number,
  lines: readonly TicketLine[],
  groups: readonly TicketGroup[],
  options: {
    step: 'tickets' | 'products' | 'customerInfo';
    locale: string;
    memberNumber?: string;
    products?: Readonly<Record<number, number>>;
  },
): CartBody {
  return {
    step: options.step,
    locale: options.locale,
    cart: {
      presentations: [
        {
          presentationId,
          seats: lines.map((l) => {
            const ticket = lineTicket(l, groups);
            return {
              VenueSectionId: l.seat.sectionId,
              XCoordinate: l.seat.x,
              YCoordinate: l.seat.y,
              ticket: {
                ticketId: ticket?.id ?? 0,
                code: l.code?.code ?? null,
                seniorId: ticket?.needsSeniorId ? l.seniorId.trim() : null,
                ref1: ticket && ticket.refPrompt !== '' ? l.ref1.trim() : null,
                memberNumber: ticket?.memberOnly ? options.memberNumber?.trim() || null : null,
              },
            };
          }),
        },
      ],
      products: Object.entries(options.products ?? {})
        .filter(([, quantity]) => quantity > 0)
        .map(([id, quantity]) => ({ id: Number(id), quantity })),
    },
  };
}

/**
 * What the lines' tickets come to before the cart is priced: the price and the service charge of
 * each ticket sold. A ticket for N seats (a couple on a sofa) is sold once for every N lines that
 * chose it, as the server counts it (the other lines are its sub-tickets, free).
 */
export function linesPrice(
  lines: readonly TicketLine[],
  groups: readonly TicketGroup[],
): { price: number; serviceCharge: number } {
  const chosen = new Map<number, number>();
  let price = 0;
  let serviceCharge = 0;
  for (const l of lines) {
    const ticket = lineTicket(l, groups);
    if (!ticket) continue;
    const before = chosen.get(ticket.id) ?? 0;
    chosen.set(ticket.id, before + 1);
    if (before % Math.max(1, ticket.multiplyFactor) !== 0) continue;
    price += ticket.price;
    serviceCharge += ticket.serviceCharge;
  }
  return { price, serviceCharge };
}
