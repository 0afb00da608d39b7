import { afterEach, describe, expect, it } from 'vitest';
import { cartBodyFrom, type PricedCart } from '../api/payment';
import { cartBody } from './ticketLines';
import {
  clearsCart,
  dropScreening,
  earlierScreenings,
  forgetScreenings,
  keepScreening,
  screeningsBesides,
} from './earlierScreenings';

const part = (presentationId: number, x: number) => ({
  presentationId,
  seats: [{ VenueSectionId: 5, XCoordinate: x, YCoordinate: 4, ticket: { ticketId: 31 } }],
});
const screening = (presentationId: number, x: number) => ({
  presentationId,
  featureName: 'סרט',
  featureNameEn: 'Film',
  dateTime: '2026-07-14T17:30:00Z',
  part: part(presentationId, x),
});

afterEach(() => forgetScreenings());

describe('the screenings already in the cart', () => {
  it('keeps each screening once, in the order added, and drops or forgets them', () => {
    keepScreening(screening(1, 7));
    keepScreening(screening(2, 8));
    keepScreening(screening(1, 9));
    expect(earlierScreenings().map((s) => s.presentationId)).toEqual([2, 1]);
    expect(earlierScreenings()[1].part.seats[0].XCoordinate).toBe(9);
    expect(screeningsBesides(2).map((s) => s.presentationId)).toEqual([1]);
    dropScreening(2);
    expect(earlierScreenings().map((s) => s.presentationId)).toEqual([1]);
    forgetScreenings();
    expect(earlierScreenings()).toEqual([]);
    expect(window.sessionStorage.getItem('kupa.cart.earlier')).toBeNull();
  });

  it("posts a screening's cart with the earlier ones first", () => {
    keepScreening(screening(1, 7));
    const body = cartBody(2, [], [], { step: 'tickets', locale: 'he' });
    expect(body.cart.presentations.map((p) => p.presentationId)).toEqual([1, 2]);
    expect(body.cart.presentations[0]).toEqual(part(1, 7));
    // Its own screening is never posted twice.
    expect(cartBody(1, [], [], { step: 'tickets', locale: 'he' }).cart.presentations).toHaveLength(
      1,
    );
  });

  it('re-posts a priced cart of several presentations each with its own tickets', () => {
    const ticket = (presentationId: number, x: number) => ({
      presentationId,
      sectionId: 5,
      x,
      y: 4,
      sectionName: '',
      rowName: '4',
      seatName: `${x}`,
      ticketId: 31,
      ticketName: '',
      ticketNameEn: '',
      price: 1000,
      serviceCharge: 0,
      isMultiplyFactorSubTicket: false,
    });
    const cart = {
      presentationId: 1,
      presentationIds: [1, 2],
      tickets: [ticket(1, 7), ticket(2, 8), ticket(2, 9)],
      products: [],
    } as unknown as PricedCart;
    const body = cartBodyFrom(cart, { locale: 'he' });
    expect(
      body.cart.presentations.map((p) => [p.presentationId, p.seats.map((s) => s.XCoordinate)]),
    ).toEqual([
      [1, [7]],
      [2, [8, 9]],
    ]);
  });

  it('video on demand of venue types 101 and 102 empties the cart', () => {
    expect([100, 101, 102, 103].map(clearsCart)).toEqual([false, true, true, false]);
  });
});
