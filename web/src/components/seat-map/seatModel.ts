// Pure helpers of the seat map: how a seat is keyed, what state it is in, and where the arrow
// keys lead. A seat is identified by its section and grid coordinates (docs/api.md "Seats").
import type { TFunction } from 'i18next';
import type { SeatShort, SeatStatusShort, SeatplanV2 } from '../../lib/api/types';
import { seatKey } from '../../lib/seatAddress';

export type SeatState = 'available' | 'selected' | 'taken' | 'blocked';

export type SeatKind = 'premium' | 'wheelchair' | 'companion' | 'limitedView' | 'sofa';

/** The buyer's view of one status row: held by me is selected; held or sold is taken. */
export function stateOf(status: SeatStatusShort | undefined): SeatState {
  if (!status) return 'blocked';
  if (status.isSelected || status.s === 'heldByMe') return 'selected';
  if (status.s === 'heldByOther' || status.s === 'sold') return 'taken';
  if (status.isBlocked || !status.isAvailable) return 'blocked';
  return 'available';
}

export function kindsOf(seat: SeatShort): SeatKind[] {
  const kinds: SeatKind[] = [];
  if (seat.pr) kinds.push('premium');
  if (seat.hc) kinds.push('wheelchair');
  if (seat.co) kinds.push('companion');
  if (seat.lv) kinds.push('limitedView');
  if (seat.sf !== null && seat.sf !== undefined) kinds.push('sofa');
  return kinds;
}

export type Direction = 'left' | 'right' | 'up' | 'down';

/**
 * The seat the arrow key moves to. Left and right stay in the row (same y) and take the nearest
 * seat that way; up and down go to the nearest row that way and the seat closest in x. The map is
 * a drawing of the hall, so directions are the picture's, in either reading direction.
 */
export function neighbour(
  seats: readonly SeatShort[],
  from: SeatShort,
  direction: Direction,
): SeatShort | null {
  let best: SeatShort | null = null;
  let bestScore = Infinity;
  for (const seat of seats) {
    if (seat === from) continue;
    const dx = seat.x - from.x;
    const dy = seat.y - from.y;
    let score: number;
    switch (direction) {
      case 'left':
      case 'right':
        if (dy !== 0 || (direction === 'left' ? dx >= 0 : dx <= 0)) continue;
        score = Math.abs(dx);
        break;
      case 'up':
      case 'down':
        if (direction === 'up' ? dy >= 0 : dy <= 0) continue;
        // The nearest row first, then the closest seat in it.
        score = Math.abs(dy) * 10_000 + Math.abs(dx);
        break;
    }
    if (score < bestScore) {
      bestScore = score;
      best = seat;
    }
  }
  return best;
}

/**
 * Why a free seat is not for sale to this buyer now: the single-seat rule (taking it would leave
 * one empty seat alone beside it), or a section sold only at the box office. The server says it
 * with each blocked seat (`blockReason` of the seat status).
 */
export type BlockReason = NonNullable<SeatStatusShort['blockReason']>;

/** The reason of each free seat the server marks `isBlocked`, as the server gives it. */
export function blockReasons(statuses: readonly SeatStatusShort[]): Map<string, BlockReason> {
  const reasons = new Map<string, BlockReason>();
  for (const s of statuses) {
    if (s.isBlocked && s.s === 'available' && s.blockReason) reasons.set(seatKey(s), s.blockReason);
  }
  return reasons;
}

/** The accessible name of a seat: "Row 7, seat 12, wheelchair space, available". */
export function seatLabel(
  t: TFunction,
  seat: SeatShort,
  state: SeatState,
  reason?: BlockReason,
): string {
  return seatLabeler(t)(seat, state, reason);
}

/**
 * `seatLabel` for a whole hall: the words are looked up once, not once per seat (a map of 500
 * seats asked the catalogue some 1,500 times a render, a good part of the order page's work on a
 * slow phone). The seat's name is the catalogue's, its row and seat put in place of two marks.
 */
export function seatLabeler(
  t: TFunction,
): (seat: SeatShort, state: SeatState, reason?: BlockReason) => string {
  type Word =
    `seatMap.kind.${SeatKind}` | `seatMap.state.${SeatState}` | `seatMap.why.${BlockReason}Short`;
  const words = new Map<Word, string>();
  const word = (key: Word) => {
    let w = words.get(key);
    if (w === undefined) {
      w = t(key);
      words.set(key, w);
    }
    return w;
  };
  const name = t('seatMap.seatName', { row: '\u0001', seat: '\u0002' });
  return (seat, state, reason) =>
    [
      name.replace('\u0001', () => String(seat.r)).replace('\u0002', () => String(seat.n)),
      ...kindsOf(seat).map((kind) => word(`seatMap.kind.${kind}`)),
      word(`seatMap.state.${state}`),
      ...(state === 'blocked' && reason ? [word(`seatMap.why.${reason}Short`)] : []),
    ].join(', ');
}

/**
 * The seat that is in the tab order before the buyer moves: their first held seat, else the free
 * seat nearest the hall's best point, else the first seat.
 */
export function defaultFocus(
  plan: Pick<SeatplanV2, 'seats' | 'bestX' | 'bestY'>,
  states: ReadonlyMap<string, SeatState>,
): string | null {
  const selected = plan.seats.find((seat) => states.get(seatKey(seat)) === 'selected');
  if (selected) return seatKey(selected);
  let best: SeatShort | null = null;
  let bestDistance = Infinity;
  for (const seat of plan.seats) {
    if (states.get(seatKey(seat)) !== 'available') continue;
    const distance = (seat.x - plan.bestX) ** 2 + (seat.y - plan.bestY) ** 2;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = seat;
    }
  }
  const first = best ?? plan.seats[0];
  return first ? seatKey(first) : null;
}

/**
 * The seat map's zoom factors. It always opens at the first, the whole hall fitted to the width
 * (a buyer who opens zoomed in sees neither side block nor a hint that they exist), and the
 * buyer zooms from there.
 */
export const SEAT_MAP_ZOOM_STEPS = [1, 1.5, 2, 3, 4] as const;

/**
 * The row labels to draw at each side of the hall: for every row the row name of its leftmost and
 * of its rightmost seat (side blocks may name a row differently), each beside that seat. A row is
 * its group (`gi`, the row's line: a curved row's seats stand on several y) where the plan gives
 * one, else its y.
 */
export function rowLabels(
  seats: readonly (Pick<SeatShort, 'x' | 'y' | 'r'> & { gi?: number })[],
): { y: number; left: string; right: string; leftY: number; rightY: number }[] {
  const rows = new Map<
    number,
    { minX: number; maxX: number; left: string; right: string; leftY: number; rightY: number }
  >();
  for (const seat of seats) {
    if (!seat.r) continue;
    const key = seat.gi ?? seat.y;
    const row = rows.get(key);
    if (!row) {
      rows.set(key, {
        minX: seat.x,
        maxX: seat.x,
        left: seat.r,
        right: seat.r,
        leftY: seat.y,
        rightY: seat.y,
      });
      continue;
    }
    if (seat.x < row.minX) Object.assign(row, { minX: seat.x, left: seat.r, leftY: seat.y });
    if (seat.x > row.maxX) Object.assign(row, { maxX: seat.x, right: seat.r, rightY: seat.y });
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([y, row]) => ({
      y,
      left: row.left,
      right: row.right,
      leftY: row.leftY,
      rightY: row.rightY,
    }));
}

/** The drawing's grid cell in SVG units; a seat is drawn a little smaller so rows read as rows. */
export const SEAT_MAP_CELL = 10;
export const SEAT_MAP_SEAT = 8.4;
/** The band above the hall that holds the screen, and at each side the band naming the rows. */
export const SEAT_MAP_SCREEN_BAND = 22;
export const SEAT_MAP_LABEL_BAND = 12;

/**
 * Where the screen is drawn, in SVG units: from and to (x) and its middle. A plan drawn in the
 * staff area says where it stands (cells from `x`, `width` wide); others span the middle 70 %.
 */
export function screenSpan(plan: {
  width: number;
  screen: { x?: number | null; width?: number | null };
}): { from: number; to: number; middle: number } {
  const full = plan.width * SEAT_MAP_CELL;
  const { x, width } = plan.screen;
  const from = x !== null && x !== undefined && width ? x * SEAT_MAP_CELL : full * 0.15;
  const to = x !== null && x !== undefined && width ? (x + width) * SEAT_MAP_CELL : full * 0.85;
  return { from, to, middle: (from + to) / 2 };
}

/** A sofa's back, under its seats: from its first to its last seat on one row. */
export type SofaSpan = { x1: number; x2: number; y: number };

/** Each sofa's span, by the sofa's key (a seat with no sofa: `null`). */
export function sofaSpans<K>(
  seats: Iterable<{ sofa: K | null | undefined; x: number; y: number }>,
): Map<K, SofaSpan> {
  const spans = new Map<K, SofaSpan>();
  for (const seat of seats) {
    if (seat.sofa === null || seat.sofa === undefined) continue;
    const span = spans.get(seat.sofa);
    if (!span) spans.set(seat.sofa, { x1: seat.x, x2: seat.x, y: seat.y });
    else {
      span.x1 = Math.min(span.x1, seat.x);
      span.x2 = Math.max(span.x2, seat.x);
    }
  }
  return spans;
}
