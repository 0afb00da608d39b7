// The screenings already in the buyer's cart before this one (the ticket list's "add a screening"
// button, decision 0027): their held seats and tickets, kept in this tab's sessionStorage so the
// next screening's cart is posted with them: one cart, one payment, one reservation. Choosing a
// video-on-demand screening of venue type 101 or 102 empties them (spec section 4).
import type { CartBody } from '../../../lib/api/types';

export type CartPart = CartBody['cart']['presentations'][number];

export interface EarlierScreening {
  presentationId: number;
  featureName: string;
  featureNameEn: string;
  dateTime: string;
  part: CartPart;
}

const KEY = 'kupa.cart.earlier';
const VERSION = 1;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** Every earlier screening of the cart, in the order added. */
export function earlierScreenings(): EarlierScreening[] {
  try {
    const raw = storage()?.getItem(KEY);
    if (!raw) return [];
    const parsed = JSON.parse(raw) as { v?: number; screenings?: EarlierScreening[] };
    if (parsed.v !== VERSION || !Array.isArray(parsed.screenings)) return [];
    return parsed.screenings.filter(
      (s) => Number.isSafeInteger(s.presentationId) && Array.isArray(s.part?.seats),
    );
  } catch {
    return [];
  }
}

function save(screenings: readonly EarlierScreening[]): void {
  try {
    if (screenings.length === 0) storage()?.removeItem(KEY);
    else storage()?.setItem(KEY, JSON.stringify({ v: VERSION, screenings }));
  } catch {
    // A full or blocked storage: the cart keeps only this screening.
  }
}

/** The cart's screenings other than `presentationId`: what its cart is posted with. */
export function screeningsBesides(presentationId: number): EarlierScreening[] {
  return earlierScreenings().filter((s) => s.presentationId !== presentationId);
}

/** Keeps a screening in the cart (replacing what was kept of it before). */
export function keepScreening(screening: EarlierScreening): void {
  save([
    ...earlierScreenings().filter((s) => s.presentationId !== screening.presentationId),
    screening,
  ]);
}

/** Takes one screening out of the cart. */
export function dropScreening(presentationId: number): void {
  save(earlierScreenings().filter((s) => s.presentationId !== presentationId));
}

/** Empties the cart of earlier screenings: paid, started over, or a video-on-demand choice. */
export function forgetScreenings(): void {
  save([]);
}

/** Venue types 101 and 102 (video on demand) empty the cart of everything else. */
export function clearsCart(venueTypeId: number): boolean {
  return venueTypeId === 101 || venueTypeId === 102;
}
