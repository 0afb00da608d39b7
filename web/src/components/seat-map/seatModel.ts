// Pure helpers of the seat map: how a seat is keyed, what state it is in, and where the arrow
// keys lead. A seat is identified by its section and grid coordinates (docs/api.md "Seats").
import type { TFunction } from 'i18next';
import type { SeatShort, SeatStatusShort, SeatplanV2 } from '../../lib/api/types';

export type SeatState = 'available' | 'selected' | 'taken' | 'blocked';

export type SeatKind = 'premium' | 'wheelchair' | 'companion' | 'limitedView' | 'sofa';

export function seatKey(seat: { si: number; x: number; y: number }): string {
  return `${seat.si}:${seat.x}:${seat.y}`;
}

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

/** The accessible name of a seat: "Row 7, seat 12, wheelchair space, available". */
export function seatLabel(t: TFunction, seat: SeatShort, state: SeatState): string {
  return [
    t('seatMap.seatName', { row: seat.r, seat: seat.n }),
    ...kindsOf(seat).map((kind) => t(`seatMap.kind.${kind}`)),
    t(`seatMap.state.${state}`),
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

/** The seat map's zoom factors, the whole hall first. */
export const SEAT_MAP_ZOOM_STEPS = [1, 1.5, 2, 3, 4] as const;

/** The smallest seat a finger can hit: a big hall on a phone starts zoomed in to this. */
export const MIN_CELL_PX = 22;

/** The first zoom step at which a seat is at least MIN_CELL_PX wide in a box `boxWidth` wide. */
export function startZoomIndex(boxWidth: number, planWidth: number): number {
  if (boxWidth <= 0 || planWidth <= 0) return 0;
  const cell = boxWidth / planWidth;
  const index = SEAT_MAP_ZOOM_STEPS.findIndex((z) => cell * z >= MIN_CELL_PX);
  return index === -1 ? SEAT_MAP_ZOOM_STEPS.length - 1 : index;
}
