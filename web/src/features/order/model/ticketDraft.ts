// The tickets the buyer is choosing, kept in this tab's sessionStorage per presentation as they
// change, so a reload or a language switch on the tickets step (which mounts the order again)
// does not put a child ticket back to regular. Only which ticket each seat has and the member
// number are kept: never a senior's ID number, a code or a voucher (the buyer types them again).
// Cleared with the order (orderSession.clearOrder) after a paid order.
import type { TicketGroup } from '../../../lib/api/types';
import { ticketsForLine, type TicketLine } from './ticketLines';

export interface TicketDraft {
  /** Seat key → the ticket chosen for it (null: none yet). */
  tickets: Record<string, number | null>;
  /** Seat key → the reference a ticket asked for (a hotel room). */
  refs: Record<string, string>;
  memberNumber: string;
}

const VERSION = 1;
const storageKey = (presentationId: number) => `kupa.tickets.${presentationId}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function draftOfLines(lines: readonly TicketLine[], memberNumber: string): TicketDraft {
  const tickets: Record<string, number | null> = {};
  const refs: Record<string, string> = {};
  for (const l of lines) {
    tickets[l.key] = l.ticketId;
    if (l.ref1 !== '') refs[l.key] = l.ref1;
  }
  return { tickets, refs, memberNumber };
}

export function saveTicketDraft(presentationId: number, draft: TicketDraft): void {
  try {
    storage()?.setItem(storageKey(presentationId), JSON.stringify({ v: VERSION, draft }));
  } catch {
    // Full or switched off: the choices are simply not kept.
  }
}

export function loadTicketDraft(presentationId: number): TicketDraft | null {
  try {
    const raw = storage()?.getItem(storageKey(presentationId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { v?: number; draft?: TicketDraft };
    const draft = parsed.draft;
    if (parsed.v !== VERSION || !draft || typeof draft.tickets !== 'object') return null;
    return {
      tickets: draft.tickets ?? {},
      refs: draft.refs ?? {},
      memberNumber: typeof draft.memberNumber === 'string' ? draft.memberNumber : '',
    };
  } catch {
    return null;
  }
}

export function clearTicketDraft(presentationId: number): void {
  try {
    storage()?.removeItem(storageKey(presentationId));
  } catch {
    // As above.
  }
}

/**
 * The lines with the kept choices put back, for the seats still held whose kept ticket the seat
 * may still take (a code's ticket is not kept: its seat keeps what the lines say).
 */
export function restoreDraft(
  lines: readonly TicketLine[],
  draft: TicketDraft,
  groups: readonly TicketGroup[],
): TicketLine[] {
  return lines.map((l) => {
    if (l.code || !(l.key in draft.tickets)) return l;
    const id = draft.tickets[l.key];
    const fits = id === null || ticketsForLine(l, groups).some((tk) => tk.id === id);
    const ticketId = fits ? id : l.ticketId;
    const ref1 = draft.refs[l.key] ?? l.ref1;
    return ticketId === l.ticketId && ref1 === l.ref1 ? l : { ...l, ticketId, ref1 };
  });
}
