import { describe, expect, it } from 'vitest';
import type { EnrollSelection } from '../../../lib/api/enroll';
import { demoSeason } from '../testing/season';
import {
  blockedBecause,
  cartSeats,
  enrollReducer,
  heldButNotChosen,
  initialState,
  isFirstStep,
  memberSeat,
  missingSeats,
  priceOf,
  stepsOf,
  type EnrollState,
  type HeldAnswer,
} from './flow';

const seat = (presentationId: number, x: number, y = 3): EnrollSelection => ({
  expiresAt: '2026-11-26T10:10:00Z',
  presentationId,
  sectionId: 61,
  x,
  y,
  rowName: String(y),
  seatName: String(x),
});

const season = demoSeason();
/** The server's answer holding these seats, received at browser time 1. */
const held = (...selections: EnrollSelection[]): HeldAnswer => ({
  selections,
  serverTime: '2026-11-26T10:00:00Z',
  receivedAt: 1,
});
const reduce = enrollReducer(season);
const run = (state: EnrollState, ...actions: Parameters<typeof reduce>[1][]) =>
  actions.reduce(reduce, state);
const memberSeatHeld = [seat(901, 5), seat(902, 5), seat(903, 5)];

describe('the enrolment steps', () => {
  it('starts at the member seat, with the required presentations and the default ticket chosen', () => {
    const state = initialState(season);
    expect(state.step).toBe('memberSeat');
    expect(state.chosen).toEqual([901, 902]);
    expect(state.ticket).toEqual({ groupId: 10, ticketId: 1001 });
    expect(stepsOf(season)).toEqual(['memberSeat', 'tickets', 'presentations', 'seats', 'details']);
    expect(isFirstStep(season, state)).toBe(true);
  });

  it('skips the member seat when the season says so', () => {
    const skip = demoSeason({ IsSkipMemberSeat: true });
    expect(stepsOf(skip)[0]).toBe('tickets');
    expect(initialState(skip).step).toBe('tickets');
  });

  it('goes on from the member seat only once one seat is held in every presentation', () => {
    const start = initialState(season);
    expect(blockedBecause(season, start)).toBe('memberSeat');
    expect(run(start, { type: 'next' }).step).toBe('memberSeat');
    // A seat held in two of the three is not a member seat.
    const partial = run(start, { type: 'held', answer: held(seat(901, 5), seat(902, 5)) });
    expect(memberSeat(season, partial)).toBeNull();
    const whole = run(start, { type: 'held', answer: held(...memberSeatHeld) });
    expect(memberSeat(season, whole)).toEqual(seat(901, 5));
    expect(run(whole, { type: 'next' }).step).toBe('tickets');
  });

  it("runs the clock to the first of the holds to end, and to the priced cart's hold", () => {
    const start = initialState(season);
    expect(start.clock).toBeNull();
    const later = { ...seat(902, 5), expiresAt: '2026-11-26T10:12:00Z' };
    const state = run(start, { type: 'held', answer: held(later, seat(901, 5)) });
    expect(state.clock).toEqual({
      expiresAt: '2026-11-26T10:10:00Z',
      serverTime: '2026-11-26T10:00:00Z',
      receivedAt: 1,
    });
    // Nothing held any more: no clock.
    expect(run(state, { type: 'held', answer: held() }).clock).toBeNull();
    const cart = {
      expiresAt: '2026-11-26T10:15:00Z',
      serverTime: '2026-11-26T10:01:00Z',
      receivedAt: 2,
    };
    expect(run(state, { type: 'clock', clock: cart }).clock).toEqual(cart);
  });

  it('keeps the required presentations chosen and toggles the optional one', () => {
    const start = initialState(season, held(...memberSeatHeld));
    // The member seat is held in the optional one too, until the buyer goes on without it.
    expect(heldButNotChosen(start)).toEqual([seat(903, 5)]);
    expect(run(start, { type: 'toggle', presentationId: 901 }).chosen).toEqual([901, 902]);
    const added = run(start, { type: 'toggle', presentationId: 903 });
    expect(added.chosen).toEqual([901, 902, 903]);
    expect(heldButNotChosen(added)).toEqual([]);
    expect(run(added, { type: 'toggle', presentationId: 903 }).chosen).toEqual([901, 902]);
    // A presentation not of the season is nothing to toggle.
    expect(run(added, { type: 'toggle', presentationId: 999 }).chosen).toEqual([901, 902, 903]);
  });

  it('asks a seat in every chosen presentation before the details, showing the first missing', () => {
    // The member seat was taken in 902 meanwhile: the server says the session holds none there.
    const state = run(
      initialState(season, held(...memberSeatHeld)),
      { type: 'next' },
      { type: 'toggle', presentationId: 903 },
      { type: 'next' },
      { type: 'held', answer: held(seat(901, 5), seat(903, 5)) },
      { type: 'next' },
    );
    expect(state.step).toBe('seats');
    expect(missingSeats(state)).toEqual([902]);
    expect(state.shown).toBe(902);
    expect(blockedBecause(season, state)).toBe('seats');
    expect(run(state, { type: 'next' }).step).toBe('seats');
    const moved = run(state, {
      type: 'held',
      answer: held(seat(901, 5), seat(902, 7), seat(903, 5)),
    });
    expect(run(moved, { type: 'next' }).step).toBe('details');
  });

  it('shows only a chosen presentation, and steps back one step at a time', () => {
    const atSeats = run(
      initialState(season, held(...memberSeatHeld)),
      { type: 'next' },
      { type: 'next' },
      { type: 'next' },
    );
    expect(atSeats.step).toBe('seats');
    expect(run(atSeats, { type: 'show', presentationId: 903 }).shown).toBe(atSeats.shown);
    expect(run(atSeats, { type: 'show', presentationId: 902 }).shown).toBe(902);
    const back = run(atSeats, { type: 'previous' });
    expect(back.step).toBe('presentations');
    expect(run(back, { type: 'previous' }, { type: 'previous' }, { type: 'previous' }).step).toBe(
      'memberSeat',
    );
  });

  it('puts the chosen ticket on the one seat of each chosen presentation in the cart', () => {
    const state = run(initialState(season, held(seat(901, 5), seat(902, 7), seat(903, 5))), {
      type: 'ticket',
      ticket: { groupId: 10, ticketId: 1002 },
    });
    expect(cartSeats(state)).toEqual([
      { presentationId: 901, sectionId: 61, x: 5, y: 3, ticketId: 1002 },
      { presentationId: 902, sectionId: 61, x: 7, y: 3, ticketId: 1002 },
    ]);
  });

  it("prices by the season: the price in force, the pass's part and the money", () => {
    expect(priceOf(season, { groupId: 10, ticketId: 1001 }, [901, 902, 903])).toEqual({
      price: 9000,
      fromPass: 4500,
      money: 4500,
    });
    expect(priceOf(season, { groupId: 10, ticketId: 1002 }, [901])).toEqual({
      price: 2900,
      fromPass: 1500,
      money: 1400,
    });
  });
});
