import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api/client';
import {
  confirmationOf,
  missingSeatsOf,
  seatProgress,
  seatRefusal,
  seatsBlocked,
  seatsStepOf,
} from './seats';
import { heldSeat, thursday, thursdaySeats } from './testing/seated';

describe('the seats step of a seated membership', () => {
  it('is done only when one seat is held in every screening of the season', () => {
    const none = seatProgress(thursdaySeats, []);
    expect(none).toEqual({ seat: null, missing: [911, 912, 913] });
    expect(seatsBlocked(thursdaySeats, none)).toBe('noSeat');

    const all = seatProgress(thursdaySeats, [heldSeat(913, 2), heldSeat(911, 2), heldSeat(912, 2)]);
    expect(all.seat).toEqual(heldSeat(911, 2));
    expect(all.missing).toEqual([]);
    expect(seatsBlocked(thursdaySeats, all)).toBeNull();
  });

  it('is not done when a screening lost its hold, or holds another seat', () => {
    const partial = seatProgress(thursdaySeats, [heldSeat(911, 2), heldSeat(912, 2)]);
    expect(partial).toEqual({ seat: null, missing: [913] });
    expect(seatsBlocked(thursdaySeats, partial)).toBe('notEvery');

    const mixed = seatProgress(thursdaySeats, [
      heldSeat(911, 2),
      heldSeat(912, 3),
      heldSeat(913, 2),
    ]);
    expect(mixed.seat).toBeNull();
    expect(seatsBlocked(thursdaySeats, mixed)).toBe('notEvery');
  });

  it('asks before a wheelchair space or a limited-view seat, as the order does', () => {
    expect(confirmationOf({ hc: true, lv: false })).toBe('wheelchair');
    expect(confirmationOf({ hc: false, lv: true })).toBe('limitedView');
    expect(confirmationOf({ hc: false, lv: false })).toBeNull();
  });

  it("names the lock's refusals in its own words, and leaves the others to the catalogue", () => {
    expect(seatRefusal(new ApiError(409, 'lock_seat_error', 'x'))).toBe('lock_seat_error');
    expect(
      seatRefusal(new ApiError(422, 'formValidation', 'x', { reason: 'oneSeatPerPresentation' })),
    ).toBe('sofa');
    expect(seatRefusal(new ApiError(404, 'notFound', 'x'))).toBe('notFound');
    expect(seatRefusal(new ApiError(422, 'formValidation', 'x', { fields: ['x'] }))).toBeNull();
    expect(seatRefusal(new ApiError(500, 'internal', 'x'))).toBeNull();
    expect(seatRefusal(new Error('offline'))).toBeNull();
  });

  it("reads the cart's refusal of a seat no longer held, and which seats step it sends back to", () => {
    const refusal = new ApiError(422, 'formValidation', 'x', {
      reason: 'membershipSeats',
      membershipId: 4,
      missing: [913],
    });
    expect(missingSeatsOf(refusal)).toEqual({ membershipId: 4 });
    expect(
      missingSeatsOf(new ApiError(422, 'formValidation', 'x', { reason: 'topUp' })),
    ).toBeNull();
    expect(missingSeatsOf(new ApiError(409, 'lock_seat_error', 'x'))).toBeNull();
    const other = { ...thursday(), MembershipId: 5 };
    expect(seatsStepOf([other, thursday()], 4)).toBe(1);
    expect(seatsStepOf([other, thursday()], 99)).toBe(0);
  });
});
