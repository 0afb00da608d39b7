// The tickets step's model: one line per held seat, its ticket, and the codes applied to it.
// Pure functions, so the rules of spec section 4 ("Voucher or code ticket application") are
// tested without a screen.
import type { CartBody, LockedSeat, Ticket, TicketGroup } from '../../../lib/api/types';
import { screeningsBesides } from './earlierScreenings';
import { seatKey } from '../../../lib/seatAddress';

/** A voucher or code the buyer applied, with the ticket it unlocked. */
export interface AppliedCode {
  code: string;
  ticket: Ticket;
  label: string;
  labelEn: string;
  /** A system voucher's ticket (the ticket-by-code answer does not say so yet: never set). */
  systemVoucher?: boolean;
}

/** What kind of order the seats are in: an unpaid hold, or (always, on the web so far) paid. */
export interface OrderKind {
  isHold: boolean;
}

/** Orders the web app makes: paid ones (it offers no holds). */
export const PAID_ORDER: OrderKind = { isHold: false };

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

/** The ticket asks for a reference (a hotel guest's room); a prompt of blanks asks nothing. */
export function hasRefPrompt(ticket: Pick<Ticket, 'refPrompt'>): boolean {
  return ticket.refPrompt.trim() !== '';
}

/**
 * A ticket the list may pick for a seat on its own: nothing to ask, one seat, open to all, any
 * kind of seat.
 */
export function isPlainTicket(ticket: Ticket): boolean {
  return (
    !ticket.memberOnly &&
    !ticket.needsSeniorId &&
    !hasRefPrompt(ticket) &&
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
export function ticketFitsSeat(
  ticket: Pick<Ticket, 'seatKind'>,
  seat: Pick<LockedSeat, 'seatKinds'>,
): boolean {
  return ticket.seatKind == null || seat.seatKinds.includes(ticket.seatKind);
}

/** The tickets of the line's group the buyer may choose for its seat. */
export function ticketsForLine(line: TicketLine, groups: readonly TicketGroup[]): Ticket[] {
  const group = groups.find((g) => g.id === line.ticketGroupId);
  return (group?.tickets ?? []).filter((t) => ticketFitsSeat(t, line.seat));
}

/**
 * Spec 4: a ticket is put on seats by itself only if it covers one seat, asks for no reference,
 * and, in an unpaid hold, is not a system voucher (the server's `auto_assignable`; both run
 * rules/vectors/auto_assignable.json).
 */
export function isAutoAssignable(
  ticket: Pick<Ticket, 'multiplyFactor' | 'refPrompt'>,
  { isSystemVoucher = false, isHold = false }: { isSystemVoucher?: boolean; isHold?: boolean } = {},
): boolean {
  return ticket.multiplyFactor <= 1 && !hasRefPrompt(ticket) && !(isHold && isSystemVoucher);
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
    const key = seatKey(seat);
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
export function applyCode(
  lines: readonly TicketLine[],
  applied: AppliedCode,
  order: OrderKind = PAID_ORDER,
): TicketLine[] | null {
  const free = lines.filter(
    (l) =>
      l.ticketGroupId === applied.ticket.ticketGroupId &&
      !l.code &&
      ticketFitsSeat(applied.ticket, l.seat),
  );
  if (free.length === 0) return null;
  const targets = new Set(
    (isAutoAssignable(applied.ticket, {
      isSystemVoucher: applied.systemVoucher ?? false,
      isHold: order.isHold,
    })
      ? free
      : free.slice(0, 1)
    ).map((l) => l.key),
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
  if (hasRefPrompt(ticket) && line.ref1.trim() === '') return 'reference';
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
        // The screenings added to the cart before this one ("add a screening").
        ...screeningsBesides(presentationId).map((s) => s.part),
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
                ref1: ticket && hasRefPrompt(ticket) ? l.ref1.trim() : null,
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
 * Which lines are sub-tickets: the lines of a ticket for N seats (a couple on a sofa) are taken in
 * order, N at a time; the first of each N is the ticket (null), the others are seats it covers
 * (the index of the covering line). The server's `sub_tickets`; both run
 * rules/vectors/sub_tickets.json.
 */
export function subTickets(
  ticketIds: readonly number[],
  factorOf: (ticketId: number) => number,
): (number | null)[] {
  const seen = new Map<number, { count: number; main: number }>();
  return ticketIds.map((id, i) => {
    const factor = Math.max(1, factorOf(id));
    const entry = seen.get(id) ?? { count: 0, main: i };
    const position = entry.count % factor;
    entry.count += 1;
    if (position === 0) entry.main = i;
    seen.set(id, entry);
    return position === 0 ? null : entry.main;
  });
}

/**
 * What the lines' tickets come to before the cart is priced: the price and the service charge of
 * each ticket sold. A ticket for N seats is sold once for every N lines that chose it, as the
 * server counts it (the other lines are its sub-tickets, free).
 */
export function linesPrice(
  lines: readonly TicketLine[],
  groups: readonly TicketGroup[],
): { price: number; serviceCharge: number } {
  const sold = lines.flatMap((l) => lineTicket(l, groups) ?? []);
  const factor = new Map(sold.map((t) => [t.id, t.multiplyFactor]));
  const subs = subTickets(
    sold.map((t) => t.id),
    (id) => factor.get(id) ?? 1,
  );
  let price = 0;
  let serviceCharge = 0;
  sold.forEach((ticket, i) => {
    if (subs[i] !== null) return;
    price += ticket.price;
    serviceCharge += ticket.serviceCharge;
  });
  return { price, serviceCharge };
}
