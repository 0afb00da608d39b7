import { describe, expect, it } from 'vitest';
import type { SeatShort } from '../../lib/api/types';
import { neighbour, stateOf } from './seatModel';

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
      { y: 0, left: 'A', right: 'A2' },
      { y: 1, left: 'B', right: 'B' },
    ]);
  });

  it('tells the single-seat rule from a section sold at the box office', async () => {
    const { blockReasons } = await import('./seatModel');
    const base = { y: 0, isSelected: false, s: 'available', isAvailable: true };
    const statuses = [
      { ...base, x: 0, si: 1, isBlocked: false },
      { ...base, x: 1, si: 1, isBlocked: true },
      { ...base, x: 0, si: 2, isBlocked: true },
      { ...base, x: 1, si: 2, isBlocked: true },
    ];
    const reasons = blockReasons(statuses, 3);
    expect(reasons.get('1:1:0')).toBe('singleSeat');
    expect(reasons.get('2:0:0')).toBe('boxOffice');
    expect(reasons.has('1:0:0')).toBe(false);
    // Under another policy a blocked seat of an open section has no reason we can name.
    expect(blockReasons(statuses, 1).has('1:1:0')).toBe(false);
  });
});
