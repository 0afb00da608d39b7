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
  it('starts zoomed in far enough that a seat of a big hall can be hit with a finger', async () => {
    const { startZoomIndex, MIN_CELL_PX } = await import('./seatModel');
    // A 40-seat-wide hall in a 340 px box is 8.5 px a seat: 3x makes it 25.5 px.
    expect(startZoomIndex(340, 40)).toBe(3);
    expect((340 / 40) * 3).toBeGreaterThanOrEqual(MIN_CELL_PX);
    // A small hall, or a laptop, sees the whole hall.
    expect(startZoomIndex(340, 12)).toBe(0);
    expect(startZoomIndex(1200, 40)).toBe(0);
    // jsdom measures nothing: no zoom.
    expect(startZoomIndex(0, 40)).toBe(0);
  });
});
