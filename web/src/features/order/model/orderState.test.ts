import { describe, expect, it } from 'vitest';
import type { CartResponse, LockedSeat, PricedCart } from '../../../lib/api/types';
import type { Timed } from '../../../lib/countdownClock';
import { initialOrderState, orderReducer, type OrderEvent, type OrderState } from './orderState';
import type { TicketLine, TicketsChoice } from './ticketLines';

const seat: LockedSeat = { sectionId: 1, x: 1, y: 0, rowName: '1', seatName: '1', seatKinds: [] };
const line = (ticketId: number): TicketLine => ({
  key: '1:1:0',
  seat,
  ticketGroupId: 1,
  ticketId,
  code: null,
  seniorId: '',
  ref1: '',
});
const choice = (ticketId: number): TicketsChoice => ({
  lines: [line(ticketId)],
  memberNumber: '',
  groups: [],
});
const cart = { presentationId: 1, total: 4700 } as PricedCart;
const answer = (expiresAt: string, total = 4700): Timed<CartResponse> => ({
  cart: { ...cart, total },
  expiresAt,
  serverTime: '2026-07-14T09:00:00Z',
  step: 'customerInfo',
  receivedAt: 1000,
});

const run = (state: OrderState, ...events: OrderEvent[]) => events.reduce(orderReducer, state);
const fresh = (hasProducts: boolean) =>
  run(initialOrderState({ hasProducts }), { type: 'resumed' });

describe('an order’s state', () => {
  it('waits for the resume before showing a step, then shows the one the server is at', () => {
    const start = initialOrderState({ hasProducts: false });
    expect(start.resuming).toBe(true);
    const resumed = orderReducer(start, {
      type: 'resumed',
      step: 'payment',
      choice: choice(101),
      cart: answer('2026-07-14T09:10:00Z'),
    });
    expect(resumed).toMatchObject({ resuming: false, step: 'payment', cart: { total: 4700 } });
    expect(resumed.clock).toEqual({
      expiresAt: '2026-07-14T09:10:00Z',
      serverTime: '2026-07-14T09:00:00Z',
      receivedAt: 1000,
    });
    expect(resumed.draft.lines).toEqual(choice(101).lines);
  });

  it('goes from the tickets to the products when the complex sells any, else to the payment', () => {
    const priced: OrderEvent = {
      type: 'ticketsPriced',
      choice: choice(101),
      answer: answer('2026-07-14T09:10:00Z'),
    };
    expect(run(fresh(true), priced).step).toBe('products');
    expect(run(fresh(false), priced).step).toBe('payment');
  });

  it('keeps one cart and one clock: each answer replaces them, a payment without a timer keeps it', () => {
    const state = run(
      fresh(false),
      { type: 'ticketsPriced', choice: choice(101), answer: answer('2026-07-14T09:10:00Z') },
      { type: 'cartRepriced', answer: answer('2026-07-14T09:15:00Z', 2000) },
    );
    expect(state.cart?.total).toBe(2000);
    expect(state.clock?.expiresAt).toBe('2026-07-14T09:15:00Z');
    expect(orderReducer(state, { type: 'paymentStarted', clock: null })).toBe(state);
    const paying = orderReducer(state, {
      type: 'paymentStarted',
      clock: {
        expiresAt: '2026-07-14T09:20:00Z',
        serverTime: '2026-07-14T09:05:00Z',
        receivedAt: 2,
      },
    });
    expect(paying.clock?.expiresAt).toBe('2026-07-14T09:20:00Z');
  });

  it('starts the tickets step again from the tickets the cart has (unsent changes are dropped)', () => {
    const state = run(
      fresh(true),
      { type: 'ticketsPriced', choice: choice(101), answer: answer('2026-07-14T09:10:00Z') },
      { type: 'wentTo', step: 'tickets' },
      { type: 'ticketLinesChanged', lines: [line(102)] },
    );
    expect(state.draft.lines[0].ticketId).toBe(102);
    const back = run(state, { type: 'wentTo', step: 'seats' }, { type: 'wentTo', step: 'tickets' });
    expect(back.draft.lines[0].ticketId).toBe(101);
  });

  it('counts each product between none and twenty, and hands the products on with the cart', () => {
    let state = run(fresh(true), {
      type: 'ticketsPriced',
      choice: choice(101),
      answer: answer('2026-07-14T09:10:00Z'),
    });
    state = run(
      state,
      { type: 'productQuantitySet', productId: 9, quantity: 25 },
      { type: 'productQuantitySet', productId: 8, quantity: -1 },
    );
    expect(state.productsDraft).toEqual({ 9: 20, 8: 0 });
    expect(state.products).toEqual({});
    state = orderReducer(state, {
      type: 'productsPriced',
      products: { 9: 2 },
      answer: answer('2026-07-14T09:12:00Z'),
    });
    expect(state).toMatchObject({ step: 'payment', products: { 9: 2 } });
  });

  it('keeps the details the server accepted, and goes to the confirmation once paid', () => {
    const info = { firstName: 'דנה' } as OrderState['customerInfo'];
    const state = run(
      { ...fresh(false), returnedPayment: 'p-1' },
      { type: 'detailsSaved', customerInfo: info!, answer: answer('2026-07-14T09:10:00Z') },
      { type: 'paid', reservation: 'r-1' },
    );
    expect(state).toMatchObject({
      customerInfo: { firstName: 'דנה' },
      step: 'confirmation',
      reservation: 'r-1',
      returnedPayment: null,
    });
  });

  it('forgets everything chosen on a restart, back at the seats', () => {
    const state = run(
      fresh(true),
      { type: 'ticketsPriced', choice: choice(101), answer: answer('2026-07-14T09:10:00Z') },
      { type: 'productQuantitySet', productId: 9, quantity: 2 },
      { type: 'restarted' },
    );
    expect(state).toEqual({ ...initialOrderState({ hasProducts: true }), resuming: false });
  });
});
