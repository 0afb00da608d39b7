// The tickets step as cinema sites show it: how many of each ticket ("2 regular, 1 child"), put
// on the held seats by these rules, with a per-seat change where a seat needs one. The lines
// (one ticket per seat, ticketLines.ts) stay the truth the cart is posted from; the quantities
// are read off them and every +/− is a change of some lines.
import type { Ticket, TicketGroup } from '../../../lib/api/types';
import { isPlainTicket, ticketFitsSeat, ticketsForLine, type TicketLine } from './ticketLines';

/** The ticket a seat gets by default and goes back to when another is taken off it. */
export function defaultTicket(group: TicketGroup | undefined): Ticket | undefined {
  return group?.tickets.find(isPlainTicket);
}

const seatsPer = (ticket: Pick<Ticket, 'multiplyFactor'>) => Math.max(1, ticket.multiplyFactor);

/** The lines a quantity can change: those of the group that no code covers. */
const open = (lines: readonly TicketLine[], groupId: number) =>
  lines.filter((l) => l.ticketGroupId === groupId && !l.code);

/** The tickets some open seat of the group may take, in the group's order. */
export function choosableTickets(
  lines: readonly TicketLine[],
  groups: readonly TicketGroup[],
  groupId: number,
): Ticket[] {
  const mine = open(lines, groupId);
  const group = groups.find((g) => g.id === groupId);
  return (group?.tickets ?? []).filter((tk) =>
    mine.some((l) => ticketsForLine(l, groups).some((x) => x.id === tk.id)),
  );
}

/** How many of the ticket the open seats have (a ticket for N seats counts once per N seats). */
export function quantityOf(lines: readonly TicketLine[], ticket: Ticket): number {
  const seats = open(lines, ticket.ticketGroupId).filter((l) => l.ticketId === ticket.id).length;
  return Math.floor(seats / seatsPer(ticket));
}

/** The open seats of the group that have no ticket yet. */
export function unassignedCount(lines: readonly TicketLine[], groupId: number): number {
  return open(lines, groupId).filter((l) => l.ticketId === null).length;
}

/**
 * The seats that may give way to one more `ticket`, best first: a seat with no ticket, then one
 * with the default ticket, then any other; within each, a seat that serves no special kind before
 * one that does (a wheelchair place stays for the wheelchair ticket), and a later seat before an
 * earlier one (the first seats keep the default).
 */
function candidates(
  lines: readonly TicketLine[],
  groups: readonly TicketGroup[],
  ticket: Ticket,
): TicketLine[] {
  const group = groups.find((g) => g.id === ticket.ticketGroupId);
  const fallback = defaultTicket(group);
  const factorOf = (id: number | null) =>
    seatsPer(group?.tickets.find((tk) => tk.id === id) ?? { multiplyFactor: 1 });
  const rank = (l: TicketLine) => {
    const holding = l.ticketId === null ? 0 : l.ticketId === fallback?.id ? 1 : 2;
    // A seat of a ticket for several seats breaks its pair: last.
    const paired = factorOf(l.ticketId) > 1 ? 1 : 0;
    const special = ticket.seatKind == null && l.seat.seatKinds.length > 0 ? 1 : 0;
    return paired * 100 + holding * 10 + special;
  };
  return open(lines, ticket.ticketGroupId)
    .map((line, index) => ({ line, index }))
    .filter(({ line }) => line.ticketId !== ticket.id && ticketFitsSeat(ticket, line.seat))
    .sort((a, b) => rank(a.line) - rank(b.line) || b.index - a.index)
    .map(({ line }) => line);
}

/** One more of `ticket` on the seats (on as many seats as it covers), or null when none fit. */
export function addTicket(
  lines: readonly TicketLine[],
  groups: readonly TicketGroup[],
  ticket: Ticket,
): TicketLine[] | null {
  const take = candidates(lines, groups, ticket).slice(0, seatsPer(ticket));
  if (take.length < seatsPer(ticket)) return null;
  const keys = new Set(take.map((l) => l.key));
  return lines.map((l) => (keys.has(l.key) ? { ...l, ticketId: ticket.id } : l));
}

/**
 * One `ticket` fewer: its last seats go back to the default ticket, or to no ticket when it is the
 * default (or the default does not fit the seat). Null when there is none to take off.
 */
export function removeTicket(
  lines: readonly TicketLine[],
  groups: readonly TicketGroup[],
  ticket: Ticket,
): TicketLine[] | null {
  const having = open(lines, ticket.ticketGroupId).filter((l) => l.ticketId === ticket.id);
  if (having.length < seatsPer(ticket)) return null;
  const keys = new Set(having.slice(-seatsPer(ticket)).map((l) => l.key));
  const fallback = defaultTicket(groups.find((g) => g.id === ticket.ticketGroupId));
  return lines.map((l) => {
    if (!keys.has(l.key)) return l;
    const back =
      fallback && fallback.id !== ticket.id && ticketFitsSeat(fallback, l.seat)
        ? fallback.id
        : null;
    return { ...l, ticketId: back };
  });
}

/** Whether one more of the ticket would fit (the + button). */
export function canAdd(
  lines: readonly TicketLine[],
  groups: readonly TicketGroup[],
  ticket: Ticket,
): boolean {
  return candidates(lines, groups, ticket).length >= seatsPer(ticket);
}
