import { describe, expect, it } from 'vitest';
import type { SeatShort } from '../../lib/api/types';
import { neighbour, sofaSpans, stateOf } from './seatModel';

const at = (x: number, y: number) => ({ x, y, si: 1 }) as SeatShort;

describe('seat model', () => {
  it('reads the server states as the buyer sees them', () => {
    const base = { x: 0, y: 0, si: 1, isAvailable: false, isBlocked: false, isSelected: false };
    expect(stateOf({ ...base, s: 'available', isAvailable: true })).toBe('available');
    expect(stateOf({ ...base, s: 'heldByMe', isSelected: true })).toBe('selected');
    expect(stateOf({ ...base, s: 'heldByOther' })).toBe('taken');
    expect(stateOf({ ...base, s: 'sold' })).toBe('taken');
    expect(stateOf({ ...base, s: 'available', isAvailable: true, isBlocked: true })).toBe(
      'blocked',
    );
  });

  it('skips the aisle in a row and lands on the nearest seat of the next row', () => {
    const seats = [at(0, 0), at(1, 0), at(4, 0), at(2, 2), at(5, 2)];
    expect(neighbour(seats, seats[1], 'right')).toBe(seats[2]);
    expect(neighbour(seats, seats[2], 'right')).toBeNull();
    expect(neighbour(seats, seats[2], 'down')).toBe(seats[4]);
    expect(neighbour(seats, seats[3], 'up')).toBe(seats[1]);
  });
});

describe('the seat map on a phone', () => {
  it('names each row at both sides, after its outermost seats', async () => {
    const { rowLabels } = await import('./seatModel');
    const seat = (x: number, y: number, r: string) => ({ x, y, r });
    expect(
      rowLabels([seat(3, 1, 'B'), seat(0, 0, 'A'), seat(9, 0, 'A2'), seat(5, 0, 'A')]),
    ).toEqual([
      { y: 0, left: 'A', right: 'A2', leftY: 0, rightY: 0 },
      { y: 1, left: 'B', right: 'B', leftY: 1, rightY: 1 },
    ]);
  });

  it('names a curved row once, beside its end seats, by its group', async () => {
    const { rowLabels } = await import('./seatModel');
    const seat = (x: number, y: number) => ({ x, y, r: '1', gi: 4 });
    expect(rowLabels([seat(2, 3), seat(3, 4), seat(4, 3)])).toEqual([
      { y: 4, left: '1', right: '1', leftY: 3, rightY: 3 },
    ]);
  });

  it('draws the screen where the plan says, else across the middle', async () => {
    const { screenSpan } = await import('./seatModel');
    expect(screenSpan({ width: 20, screen: { x: 2, width: 6 } })).toEqual({
      from: 20,
      to: 80,
      middle: 50,
    });
    expect(screenSpan({ width: 20, screen: {} })).toEqual({ from: 30, to: 170, middle: 100 });
  });

  it("takes each blocked seat's reason from the server", async () => {
    const { blockReasons } = await import('./seatModel');
    const base = { y: 0, isSelected: false, s: 'available', isAvailable: true };
    const statuses = [
      { ...base, x: 0, si: 1, isBlocked: false },
      { ...base, x: 1, si: 1, isBlocked: true, blockReason: 'singleSeat' as const },
      { ...base, x: 0, si: 2, isBlocked: true, blockReason: 'boxOffice' as const },
      // A blocked seat the server gave no reason for has none on the map.
      { ...base, x: 1, si: 2, isBlocked: true },
      // A sold seat is sold, whatever else.
      { ...base, x: 2, si: 2, s: 'sold', isBlocked: true, blockReason: 'boxOffice' as const },
    ];
    const reasons = blockReasons(statuses);
    expect(reasons.get('1:1:0')).toBe('singleSeat');
    expect(reasons.get('2:0:0')).toBe('boxOffice');
    expect(reasons.has('1:0:0')).toBe(false);
    expect(reasons.has('2:1:0')).toBe(false);
    expect(reasons.has('2:2:0')).toBe(false);
  });
});

describe("a seat's accessible name", () => {
  it('is the same from the hall-wide labeler as word by word, in he and en', async () => {
    const { default: i18n, changeLanguage } = await import('../../lib/i18n');
    const { seatLabeler } = await import('./seatModel');
    const seat = {
      x: 3,
      y: 1,
      si: 1,
      r: '7',
      n: '$&12',
      pr: true,
      hc: true,
    } as unknown as SeatShort;
    for (const lang of ['he', 'en']) {
      await changeLanguage(lang);
      const t = i18n.getFixedT(lang);
      const label = seatLabeler(t);
      const byWord = (state: 'available' | 'blocked', reason?: 'singleSeat') =>
        [
          t('seatMap.seatName', { row: seat.r, seat: seat.n }),
          t('seatMap.kind.premium'),
          t('seatMap.kind.wheelchair'),
          t(`seatMap.state.${state}`),
          ...(reason ? [t(`seatMap.why.${reason}Short`)] : []),
        ].join(', ');
      expect(label(seat, 'available')).toBe(byWord('available'));
      expect(label(seat, 'blocked', 'singleSeat')).toBe(byWord('blocked', 'singleSeat'));
      // The names are the seat's own, even where they look like a pattern.
      expect(label(seat, 'available')).toContain('$&12');
    }
  });
});

describe('sofaSpans', () => {
  it('spans each sofa from its first to its last seat, and leaves seats without one out', () => {
    const spans = sofaSpans([
      { sofa: 7, x: 5, y: 2 },
      { sofa: 7, x: 4, y: 2 },
      { sofa: null, x: 6, y: 2 },
      { sofa: 8, x: 9, y: 3 },
      { sofa: 7, x: 6, y: 2 },
    ]);
    expect([...spans.entries()]).toEqual([
      [7, { x1: 4, x2: 6, y: 2 }],
      [8, { x1: 9, x2: 9, y: 3 }],
    ]);
  });
});
