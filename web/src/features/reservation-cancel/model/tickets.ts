// Pure: the reservation's tickets as the dialog offers them. A ticket with a multiply factor
// (its sub tickets follow it) is one choice, never split.

export interface SeatLine {
  line: number;
  isSubTicket: boolean;
  cancelledAt?: string | null;
}

export interface TicketChoice<S extends SeatLine> {
  /** The main line: what the request names. */
  line: number;
  seats: S[];
  cancelled: boolean;
}

export function ticketChoices<S extends SeatLine>(seats: readonly S[]): TicketChoice<S>[] {
  const out: TicketChoice<S>[] = [];
  for (const seat of seats) {
    const last = out[out.length - 1];
    if (seat.isSubTicket && last) {
      last.seats.push(seat);
      last.cancelled = last.cancelled && Boolean(seat.cancelledAt);
    } else {
      out.push({ line: seat.line, seats: [seat], cancelled: Boolean(seat.cancelledAt) });
    }
  }
  return out;
}

/**
 * What to send for the chosen lines: null (the whole reservation) when every ticket still live is
 * chosen, otherwise the chosen main lines in order.
 */
export function linesToSend<S extends SeatLine>(
  choices: readonly TicketChoice<S>[],
  chosen: ReadonlySet<number>,
): number[] | null {
  const live = choices.filter((c) => !c.cancelled);
  const picked = live.filter((c) => chosen.has(c.line)).map((c) => c.line);
  return picked.length === live.length ? null : picked;
}
