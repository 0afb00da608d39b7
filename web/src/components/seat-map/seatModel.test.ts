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
