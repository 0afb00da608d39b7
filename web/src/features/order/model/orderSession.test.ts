import { afterEach, describe, expect, it } from 'vitest';
import type { LockedSeat, TicketGroup } from '../../../lib/api/types';
import { clearOrder, loadOrder, resumePlan, saveOrder, type SavedOrder } from './orderSession';
import { syncLines } from './ticketLines';

const groups = [
  { id: 1, name: 'g', nameEn: 'g', isByCodeEnabled: false, voucherTickets: [], tickets: [] },
] as unknown as TicketGroup[];
const seat = (x: number): LockedSeat => ({
  ...{ sectionId: 5, x, y: 4, rowName: '4', seatName: `${x}` },
  seatKinds: [],
});
const lines = syncLines([], [seat(7), seat(8)], () => 1, groups);
const saved = (step: SavedOrder['step']): SavedOrder => ({
  step,
  choice: { lines, memberNumber: '', groups },
  products: { 9: 1 },
  customerInfo: null,
});
const holds = (step: string | null, seats = [seat(7), seat(8)]) => ({
  seats,
  step,
  expiresAt: step ? '2026-07-14T17:00:00Z' : null,
});

afterEach(() => sessionStorage.clear());

describe('resuming an order after a reload', () => {
  it('starts fresh at the seats when the server holds nothing', () => {
    expect(resumePlan(holds(null, []), saved('payment'), true)).toEqual({
      step: 'seats',
      repost: null,
      keep: false,
    });
    expect(resumePlan(holds('customerInfo', []), saved('payment'), true).keep).toBe(false);
  });

  it("goes to the server's step and posts the cart again at that same step", () => {
    expect(resumePlan(holds('customerInfo'), saved('payment'), true)).toEqual({
      step: 'payment',
      repost: 'customerInfo',
      keep: true,
    });
    // A payment already started: the details step's post does not move the checkout back.
    expect(resumePlan(holds('payment'), saved('payment'), false).step).toBe('payment');
    expect(resumePlan(holds('products'), saved('products'), true)).toEqual({
      step: 'products',
      repost: 'products',
      keep: true,
    });
    expect(resumePlan(holds('tickets'), saved('tickets'), true)).toMatchObject({
      step: 'tickets',
      repost: null,
    });
  });

  it('shows the seat map when only the server knows the holds (no choice in this tab)', () => {
    expect(resumePlan(holds('customerInfo'), null, true)).toMatchObject({ step: 'seats' });
  });

  it('asks for tickets again when the held seats are not the ones chosen', () => {
    const other = holds('customerInfo', [seat(7), seat(9)]);
    expect(resumePlan(other, saved('payment'), true)).toMatchObject({
      step: 'tickets',
      repost: null,
    });
  });

  it('keeps the choices per presentation in the session storage, and forgets them', () => {
    const order = { ...saved('payment'), customerInfo: { firstName: 'דנה' } } as SavedOrder;
    saveOrder(77, order);
    expect(loadOrder(77)).toEqual(order);
    expect(loadOrder(78)).toBeNull();
    clearOrder(77);
    expect(loadOrder(77)).toBeNull();
    sessionStorage.setItem('kupa.order.77', '{not json');
    expect(loadOrder(77)).toBeNull();
  });

  it('does not resume a choice saved before held seats said which kinds of seat they serve', () => {
    const { choice } = saved('payment');
    const lines = choice!.lines.map(({ seat: { seatKinds: _, ...seat }, ...line }) => ({
      ...line,
      seat,
    }));
    const order = { ...saved('payment'), choice: { ...choice, lines } };
    sessionStorage.setItem('kupa.order.77', JSON.stringify({ v: 1, order }));
    expect(loadOrder(77)).toBeNull();
  });
});
