import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TicketGroup } from '../../../lib/api/types';
import { loadOrder, saveOrder } from '../model/orderSession';
import type { PricedCart } from '../api/payment';
import { pricedTicket } from '../testing/pricedCart';
import { syncLines } from '../model/ticketLines';
import { makePresentation, makeTicket } from '../../../test/fixtures';
import { renderApp } from '../../../test/renderApp';

const presentation = makePresentation({ id: 77, dateTime: '2026-07-14T17:30:00Z' });

const api = (url: URL) =>
  url.pathname === '/api/presentations/77'
    ? { body: { presentation, serverTime: '2026-07-14T09:00:00Z', error: null } }
    : undefined;

describe('order page', () => {
  it('shows which screening the buyer chose, the steps, and the seat step first', async () => {
    await renderApp('/order/77?lang=en', { api });
    // The order page's code loads first: slow on a busy machine.
    expect(
      await screen.findByRole('heading', { name: 'The Big Movie' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Hadar Cinema')).toBeInTheDocument();
    expect(screen.getByText('Hall 3')).toBeInTheDocument();
    expect(
      screen.getByText(
        (_, el) => el?.tagName === 'TIME' && el.textContent === 'Tuesday, 14/07/2026, 20:30',
      ),
    ).toBeInTheDocument();
    // The steps come once the server said whether there is an order to resume.
    const steps = await screen.findByRole('navigation', { name: 'Order steps' });
    // No products at this complex: the extras step is left out.
    expect(steps).toHaveTextContent(/^1Seats2Tickets3Details and payment4Confirmation$/);
    expect(within(steps).getByText('Seats').closest('li')).toHaveAttribute('aria-current', 'step');
  });

  it('shows Hebrew names in Hebrew', async () => {
    await renderApp('/order/77', { api });
    expect(
      await screen.findByRole('heading', { name: 'הסרט הגדול' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('אולם 3')).toBeInTheDocument();
  });

  it('explains an unknown presentation with the error catalogue', async () => {
    await renderApp('/order/78?lang=en', {
      api: () => ({ status: 404, body: { error: { code: 'noEvent', message: 'nope' } } }),
    });
    expect(
      await screen.findByRole('heading', { name: 'This screening was not found' }),
    ).toBeInTheDocument();
    // A way onward, keeping the language.
    expect(screen.getByRole('link', { name: "See what's on" })).toHaveAttribute(
      'href',
      '/?lang=en',
    );
  });
});

describe('order page after a reload', () => {
  afterEach(() => sessionStorage.clear());

  const regular = makeTicket(31, {
    name: 'רגיל',
    nameEn: 'Regular',
    price: 4200,
    serviceCharge: 500,
  });
  const groups = [
    {
      id: 1,
      name: 'g',
      nameEn: 'g',
      isByCodeEnabled: false,
      voucherTickets: [],
      tickets: [regular],
    },
  ] as TicketGroup[];
  const held = [
    { sectionId: 5, x: 7, y: 4, rowName: '4', seatName: '7', seatKinds: [] },
    { sectionId: 5, x: 8, y: 4, rowName: '4', seatName: '8', seatKinds: [] },
  ];
  const priced: PricedCart = {
    presentationId: 77,
    presentationIds: [77],
    memberBalanceTotal: 0,
    seats: [],
    currency: 'ILS',
    tickets: held.map((h) =>
      pricedTicket({
        presentationId: 77,
        rowName: h.rowName,
        seatName: h.seatName,
        x: h.x,
        y: h.y,
      }),
    ),
    products: [],
    ticketsTotal: 8400,
    productsTotal: 0,
    serviceCharge: 1000,
    serviceChargeName: 'דמי טיפול',
    total: 9400,
    priceBreakdown: {
      tickets: 9400,
      ticketsServiceCharge: 1000,
      orderServiceCharge: 0,
      products: 0,
      total: 9400,
    },
    amountDue: 9400,
    voucherPayments: [],
    orderType: 'tickets',
    systemVouchers: [],
    donations: [],
    memberships: [],
  };
  const details = {
    firstName: 'דנה',
    lastName: 'לוי',
    email: 'dana@example.com',
    verifyEmailAddress: 'dana@example.com',
    mobileNumber: '0524318876',
  };

  const serverAt = (step: string | null, seats: typeof held) => (url: URL) => {
    if (url.pathname === '/api/presentations/77') return api(url);
    if (url.pathname === '/api/seats/my-holds') {
      return {
        body: {
          seats,
          step,
          expiresAt: step ? '2026-07-14T09:07:00Z' : null,
          serverTime: '2026-07-14T09:00:00Z',
        },
      };
    }
    if (url.pathname === '/api/cart') {
      return {
        body: {
          cart: priced,
          expiresAt: '2026-07-14T09:07:00Z',
          serverTime: '2026-07-14T09:00:00Z',
          step: 'customerInfo',
        },
      };
    }
    return undefined;
  };

  it("resumes at the payment step with the same seats, total and details, on the server's timer", async () => {
    saveOrder(77, {
      step: 'payment',
      choice: { lines: syncLines([], held, () => 1, groups), memberNumber: '', groups },
      products: {},
      customerInfo: details as never,
    });
    const { fetchMock } = await renderApp('/order/77', { api: serverAt('customerInfo', held) });

    const summary = await screen.findByRole('region', { name: 'סיכום ההזמנה' });
    const steps = screen.getByRole('navigation', { name: 'שלבי ההזמנה' });
    expect(within(steps).getByText('פרטים ותשלום').closest('li')).toHaveAttribute(
      'aria-current',
      'step',
    );
    expect(summary).toHaveTextContent('אולם, שורה 4, מושב 7 · רגיל');
    expect(summary).toHaveTextContent('אולם, שורה 4, מושב 8 · רגיל');
    expect(summary).toHaveTextContent('94.00');
    // The details were sent before the reload: shown as saved, not asked again.
    expect(screen.getByText('הפרטים נשמרו: דנה לוי')).toBeInTheDocument();
    // Seven minutes left on the server's clock, not a new step's full time.
    expect(screen.getByRole('timer')).toHaveTextContent(/(7:00|6:5\d)/);

    const posts = fetchMock.mock.calls.filter(([input]) => String(input).includes('/api/cart'));
    expect(posts).toHaveLength(1);
    const body = JSON.parse(String(((posts[0] as unknown[])[1] as RequestInit).body));
    expect(body).toMatchObject({
      step: 'customerInfo',
      cart: {
        presentations: [
          {
            presentationId: 77,
            seats: [
              { VenueSectionId: 5, XCoordinate: 7, YCoordinate: 4, ticket: { ticketId: 31 } },
              { VenueSectionId: 5, XCoordinate: 8, YCoordinate: 4, ticket: { ticketId: 31 } },
            ],
          },
        ],
        customerInfo: { firstName: 'דנה', email: 'dana@example.com' },
      },
    });
  });

  it('starts fresh at the seats, and forgets the choices, when the holds are gone', async () => {
    saveOrder(77, {
      step: 'payment',
      choice: { lines: syncLines([], held, () => 1, groups), memberNumber: '', groups },
      products: {},
      customerInfo: null,
    });
    const { fetchMock } = await renderApp('/order/77', { api: serverAt(null, []) });
    const steps = await screen.findByRole('navigation', { name: 'שלבי ההזמנה' });
    expect(within(steps).getByText('מושבים').closest('li')).toHaveAttribute('aria-current', 'step');
    await waitFor(() => expect(loadOrder(77)?.choice ?? null).toBeNull());
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('/api/cart'))).toBe(false);
  });
});
