// What the buyer chose in this tab, kept in sessionStorage per presentation so that a reload of
// /order/{id} resumes where the server says the checkout is. The server keeps the holds, the
// step and its timer (GET /seats/my-holds), not the ticket choices: those are kept here and the
// cart is posted again. Nothing secret is kept: no card data, no SMS code, no voucher reference
// (a voucher is money to whoever holds its number; the buyer applies it again), and of the
// buyer's details no ID number and no date of birth (personal data, spec section 3): the buyer
// types those again.
import type { CustomerInfo } from '../../../components/checkout/customerInfo';
import type { MyHoldsResponse } from '../../../lib/api/types';
import type { Step } from './steps';
import { clearTicketDraft } from './ticketDraft';
import { type TicketsChoice } from './ticketLines';
import { seatKey } from '../../../lib/seatAddress';

export interface SavedOrder {
  /** The step the page showed last. */
  step: Step;
  choice: TicketsChoice | null;
  products: Record<number, number>;
  /** The details the server accepted; null when they held personal data that is not kept. */
  customerInfo: CustomerInfo | null;
}

/** The details' fields that are personal data and never stored in the browser. */
export const UNKEPT_FIELDS = ['ssn', 'invoiceSSN', 'dateOfBirth'] as const;

/** The details without their personal data (ID numbers, date of birth). */
export function keepableDetails<T extends Partial<CustomerInfo>>(info: T): T {
  const kept = { ...info };
  for (const field of UNKEPT_FIELDS) delete kept[field];
  return kept;
}

const holdsPersonalData = (info: Partial<CustomerInfo>) =>
  UNKEPT_FIELDS.some((field) => Boolean(info[field]));

// 2: held seats carry the kinds of seat they serve (`seatKinds`); a choice saved without them
// is not resumed.
const VERSION = 2;
const storageKey = (presentationId: number) => `kupa.order.${presentationId}`;
const detailsKey = (presentationId: number) => `kupa.details.${presentationId}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage may be switched off; the page still works, it just does not resume.
    return null;
  }
}

export function loadOrder(presentationId: number): SavedOrder | null {
  const raw = storage()?.getItem(storageKey(presentationId));
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as { v?: number; order?: SavedOrder };
    if (parsed.v !== VERSION || !parsed.order || typeof parsed.order.step !== 'string') return null;
    const { step, choice, products, customerInfo } = parsed.order;
    if (choice && (!Array.isArray(choice.lines) || !Array.isArray(choice.groups))) return null;
    return {
      step,
      choice: choice ?? null,
      products: products ?? {},
      customerInfo: customerInfo ?? null,
    };
  } catch {
    return null;
  }
}

export function saveOrder(presentationId: number, order: SavedOrder): void {
  // Accepted details with an ID number or a birth date are not kept whole: after a reload the
  // form comes back filled from the draft (loadDetails) and asks for those again.
  const info = order.customerInfo;
  const kept = { ...order, customerInfo: info && !holdsPersonalData(info) ? info : null };
  try {
    storage()?.setItem(storageKey(presentationId), JSON.stringify({ v: VERSION, order: kept }));
  } catch {
    // Full or switched off: nothing to resume from, nothing breaks.
  }
}

export function clearOrder(presentationId: number): void {
  clearTicketDraft(presentationId);
  try {
    storage()?.removeItem(storageKey(presentationId));
  } catch {
    // As above.
  }
}

/**
 * The details form as the buyer is filling it in, kept through a reload or a language switch
 * (its own key: it outlives a restart of the order, and goes once the order is paid).
 */
export function saveDetails(presentationId: number, info: Partial<CustomerInfo>): void {
  try {
    storage()?.setItem(detailsKey(presentationId), JSON.stringify(keepableDetails(info)));
  } catch {
    // As above.
  }
}

export function loadDetails(presentationId: number): Partial<CustomerInfo> | null {
  const raw = storage()?.getItem(detailsKey(presentationId));
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object'
      ? keepableDetails(parsed as Partial<CustomerInfo>)
      : null;
  } catch {
    return null;
  }
}

export function clearDetails(presentationId: number): void {
  try {
    storage()?.removeItem(detailsKey(presentationId));
  } catch {
    // As above.
  }
}

/** Where a reloaded page starts, and at which step the cart must be posted again to get there. */
export interface ResumePlan {
  step: Step;
  /** Post the saved cart at this step (the same step the server is at: the timer does not restart). */
  repost: 'products' | 'customerInfo' | null;
  /** The saved choices still apply (else they are forgotten). */
  keep: boolean;
}

const FRESH: ResumePlan = { step: 'seats', repost: null, keep: false };

/**
 * Where to resume, from the server's holds and step and what this tab kept. No holds: a fresh
 * start at the seats. Holds but no saved choice (another tab, storage cleared): the seat map,
 * which shows them. Seats changed since the choice was saved: the tickets step, which keeps the
 * choices of the seats still held.
 */
export function resumePlan(
  holds: Pick<MyHoldsResponse, 'seats' | 'step' | 'expiresAt'>,
  saved: SavedOrder | null,
  hasProducts: boolean,
): ResumePlan {
  if (holds.seats.length === 0 || !holds.step || !holds.expiresAt) return FRESH;
  if (!saved?.choice || saved.choice.lines.length === 0) {
    // A buyer on the tickets step before its first post (their choices are kept as a draft,
    // ticketDraft.ts) comes back to it.
    const step = saved?.step === 'tickets' && holds.step === 'seats' ? 'tickets' : 'seats';
    return { step, repost: null, keep: saved !== null };
  }
  const held = new Set(holds.seats.map(seatKey));
  const chosen = new Set(saved.choice.lines.map((l) => l.key));
  const sameSeats = held.size === chosen.size && [...held].every((k) => chosen.has(k));
  switch (holds.step) {
    case 'seats':
      // Moving to the tickets step posts nothing: only this tab knows the buyer was there.
      return { step: saved.step === 'tickets' ? 'tickets' : 'seats', repost: null, keep: true };
    case 'tickets':
      return { step: 'tickets', repost: null, keep: true };
    case 'products':
      if (!sameSeats) return { step: 'tickets', repost: null, keep: true };
      return hasProducts
        ? { step: 'products', repost: 'products', keep: true }
        : { step: 'tickets', repost: null, keep: true };
    case 'customerInfo':
    case 'payment':
      if (!sameSeats) return { step: 'tickets', repost: null, keep: true };
      return { step: 'payment', repost: 'customerInfo', keep: true };
    default:
      return { step: 'seats', repost: null, keep: true };
  }
}
