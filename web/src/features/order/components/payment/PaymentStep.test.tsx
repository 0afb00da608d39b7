import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../../lib/i18n';
import { resetUuid } from '../../../../lib/api/client';
import type { OrderEvent } from '../../model/orderState';
import { fillDetails, paymentForm, recordApi, renderPaymentStep } from '../../testing/paymentStep';
import type { PricedCart } from '../../api/payment';
import { onePricedSeat } from '../../testing/pricedCart';

// The one regular seat of the shared fixture, with two popcorns.
const cart: PricedCart = {
  ...onePricedSeat,
  products: [
    { id: 9, name: 'פופקורן', nameEn: 'Popcorn', quantity: 2, unitPrice: 1500, amount: 3000 },
  ],
  productsTotal: 3000,
  total: 7700,
  priceBreakdown: { ...onePricedSeat.priceBreakdown, products: 3000, total: 7700 },
  amountDue: 7700,
};

const cartAnswer = (c: PricedCart) => ({
  body: {
    cart: c,
    expiresAt: '2026-07-14T17:00:00Z',
    serverTime: '2026-07-14T16:50:00Z',
    step: 'customerInfo',
  },
});

function renderStep(
  overrides: { onPaid?: () => void; onRestart?: () => void; cart?: PricedCart } = {},
) {
  const onPaid = overrides.onPaid ?? vi.fn();
  const onRestart = overrides.onRestart ?? vi.fn();
  // The page's order around the step: a paid order is an event the page hears.
  const onEvent = (event: OrderEvent) => {
    if (event.type === 'paid') onPaid({ reservationIdentifier: event.reservation });
  };
  renderPaymentStep({ cart: overrides.cart ?? cart, onEvent, onRestart });
  return { onPaid, onRestart };
}

beforeEach(async () => {
  await i18n.changeLanguage('he');
  resetUuid();
});

/** A summary line (list item, or term and amount) by the words it starts with. */
function summaryLine(summary: HTMLElement, label: string | RegExp): HTMLElement {
  const found = within(summary).getByText(label);
  return found.closest('li, div') as HTMLElement;
}

describe('payment step', () => {
  it('shows each ticket at its full price, then the breakdown and the amount due', () => {
    recordApi(() => undefined);
    renderStep();
    const summary = screen.getByRole('region', { name: 'סיכום ההזמנה' });
    // The ticket: ₪42 + ₪5 service charge, shown as ₪47 that includes it.
    const ticket = summaryLine(summary, 'אולם, שורה 4, מושב 7 · רגיל');
    expect(ticket).toHaveTextContent(/47\.00/);
    expect(ticket).toHaveTextContent(/כולל דמי טיפול .*5\.00/);
    expect(summaryLine(summary, 'פופקורן × 2')).toHaveTextContent(/30\.00/);
    // The server's breakdown: tickets (of which the service charge), products, total.
    const tickets = summaryLine(summary, 'כרטיסים');
    expect(tickets).toHaveTextContent(/47\.00/);
    expect(tickets).toHaveTextContent(/מתוכם דמי טיפול .*5\.00/);
    expect(summaryLine(summary, 'תוספות')).toHaveTextContent(/30\.00/);
    expect(summaryLine(summary, 'סה״כ')).toHaveTextContent(/77\.00/);
    expect(within(summary).queryByText(/להזמנה/)).toBeNull();
    expect(summaryLine(summary, 'לתשלום')).toHaveTextContent(/77\.00/);
  });

  it('shows a per-order service charge on a line of its own, in English', async () => {
    await i18n.changeLanguage('en');
    recordApi(() => undefined);
    renderStep({
      cart: {
        ...cart,
        tickets: cart.tickets.map((tk) => ({ ...tk, serviceCharge: 0 })),
        serviceCharge: 420,
        total: 7620,
        amountDue: 7620,
        priceBreakdown: {
          tickets: 4200,
          ticketsServiceCharge: 0,
          orderServiceCharge: 420,
          products: 3000,
          total: 7620,
        },
      },
    });
    const summary = screen.getByRole('region', { name: 'Order summary' });
    const ticket = summaryLine(summary, 'אולם, row 4, seat 7 · Regular');
    expect(ticket).toHaveTextContent('₪42.00');
    expect(ticket).not.toHaveTextContent('incl.');
    expect(summaryLine(summary, 'Tickets')).toHaveTextContent(/^Tickets₪42\.00$/);
    expect(summaryLine(summary, 'Service charge per order')).toHaveTextContent('₪4.20');
    expect(summaryLine(summary, 'Extras')).toHaveTextContent('₪30.00');
    expect(summaryLine(summary, 'Total')).toHaveTextContent('₪76.20');
  });

  it('sends the details with the same cart, then opens the payment dialog and commits', async () => {
    const user = userEvent.setup();
    const calls = recordApi(({ method, url }) => {
      if (method === 'POST' && url.pathname === '/api/cart') return cartAnswer(cart);
      if (url.pathname === '/api/payment/form/he') {
        return { body: paymentForm('p1', { amount: 7700, paid: false }) };
      }
      if (url.pathname === '/api/payment/commit') {
        return {
          body: {
            reservationIdentifier: 'r-1',
            reservationNumber: '1001',
            ticketIdentifiers: ['k1'],
            error: null,
          },
        };
      }
      return undefined;
    });
    const { onPaid } = renderStep();
    await fillDetails(user);

    const post = calls.find((c) => c.url.pathname === '/api/cart');
    expect(post?.body).toMatchObject({
      step: 'customerInfo',
      locale: 'he',
      cart: {
        presentations: [
          {
            presentationId: 101,
            seats: [
              { VenueSectionId: 5, XCoordinate: 7, YCoordinate: 4, ticket: { ticketId: 31 } },
            ],
          },
        ],
        products: [{ id: 9, quantity: 2 }],
        customerInfo: { firstName: 'דנה', lastName: 'לוי', email: 'dana@example.com' },
      },
    });

    await user.click(await screen.findByRole('button', { name: /לתשלום/ }));
    const frame = await screen.findByTitle('טופס תשלום מאובטח');
    expect(frame).toHaveAttribute('src', '/pay/p1?locale=he');
    const form = calls.find((c) => c.url.pathname === '/api/payment/form/he');
    expect(form?.url.searchParams.get('presentationId')).toBe('101');
    expect(form?.url.searchParams.get('total')).toBe('7700');
    expect(form?.url.searchParams.get('method')).toBe('card');
    expect(form?.url.searchParams.get('numberOfPayments')).toBe('1');
    expect(form?.url.searchParams.get('returnPath')).toBe('/order/101');

    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'kupa-payment', paymentId: 'p1', status: 'captured' },
        origin: window.location.origin,
      }),
    );
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith({ reservationIdentifier: 'r-1' }));
    const commit = calls.find((c) => c.url.pathname === '/api/payment/commit');
    expect(commit?.body).toEqual({
      cart: { presentations: [{ presentationId: 101 }] },
      recaptchaToken: '',
    });
  });

  it("puts the server's formValidation on the field", async () => {
    const user = userEvent.setup();
    recordApi(({ url }) =>
      url.pathname === '/api/cart'
        ? {
            status: 422,
            body: {
              error: {
                code: 'formValidation',
                message: 'bad',
                params: { fields: { email: 'email' } },
              },
            },
          }
        : undefined,
    );
    renderStep();
    await fillDetails(user);
    const email = screen.getByLabelText(/^אימייל/);
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'));
    expect(email).toHaveAccessibleDescription('חייב להיות כתובת אימייל!');
    expect(screen.queryByTitle('טופס תשלום מאובטח')).not.toBeInTheDocument();
  });

  it('checks a voucher, applies it through the cart, and says when none is left', async () => {
    const user = userEvent.setup();
    const withVoucher: PricedCart = {
      ...cart,
      voucherPayments: [{ reference: 'GIFT100', amount: 5000 }],
      amountDue: 2700,
    };
    const calls = recordApi(({ method, url, body }) => {
      if (method === 'POST' && url.pathname === '/api/cart') {
        const vouchers = (body as { cart: { voucherPayments: unknown[] } }).cart.voucherPayments;
        return cartAnswer(vouchers.length > 0 ? withVoucher : cart);
      }
      if (url.pathname === '/api/payment/voucher') {
        return url.searchParams.get('reference') === 'EMPTY'
          ? { status: 409, body: { error: { code: 'voucherBalance', message: 'none' } } }
          : {
              body: {
                payment: { reference: 'GIFT100', balance: 5000, amount: 5000, currency: 'ILS' },
              },
            };
      }
      return undefined;
    });
    renderStep();
    await fillDetails(user);

    const code = await screen.findByLabelText('קוד השובר');
    await user.type(code, 'EMPTY');
    await user.click(screen.getByRole('button', { name: 'בדיקת יתרה' }));
    expect(await screen.findByText('לא נותרה יתרה למימוש הטבה')).toBeInTheDocument();

    await user.clear(code);
    await user.type(code, 'GIFT100');
    await user.click(screen.getByRole('button', { name: 'בדיקת יתרה' }));
    const voucherCall = calls.filter((c) => c.url.pathname === '/api/payment/voucher').at(-1);
    expect(voucherCall?.url.searchParams.get('presentationId')).toBe('101');
    await user.click(await screen.findByRole('button', { name: 'מימוש השובר' }));

    const summary = screen.getByRole('region', { name: 'סיכום ההזמנה' });
    await waitFor(() => expect(summary).toHaveTextContent('שובר GIFT100'));
    expect(summary).toHaveTextContent('27.00');
    const lastCart = calls.filter((c) => c.url.pathname === '/api/cart').at(-1);
    expect(lastCart?.body).toMatchObject({
      cart: { voucherPayments: [{ reference: 'GIFT100' }], customerInfo: { firstName: 'דנה' } },
    });
  });

  it('says the seats were lost and the payment refunded, and offers to start again', async () => {
    const user = userEvent.setup();
    const paid: PricedCart = {
      ...cart,
      voucherPayments: [{ reference: 'GIFT', amount: 7700 }],
      amountDue: 0,
    };
    recordApi(({ url }) => {
      if (url.pathname === '/api/cart') return cartAnswer(paid);
      if (url.pathname === '/api/payment/form/he') {
        return { body: paymentForm('p2', { amount: 0, paid: true }) };
      }
      if (url.pathname === '/api/payment/commit') {
        return {
          status: 409,
          body: {
            error: {
              code: 'lastCommit',
              message: 'lost',
              params: { reason: 'holdsLost', refunded: true },
            },
          },
        };
      }
      return undefined;
    });
    const { onRestart } = renderStep();
    await fillDetails(user);
    await user.click(await screen.findByRole('button', { name: 'השלמת ההזמנה' }));
    expect(await screen.findByText(/המושבים שוחררו לפני שהתשלום הושלם/)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'להתחיל את ההזמנה מחדש' }));
    expect(onRestart).toHaveBeenCalled();
  });

  it('says so when the order was already paid', async () => {
    const user = userEvent.setup();
    const paid: PricedCart = { ...cart, amountDue: 0 };
    recordApi(({ url }) => {
      if (url.pathname === '/api/cart') return cartAnswer(paid);
      if (url.pathname === '/api/payment/form/he') {
        return { body: paymentForm('p3', { amount: 0, paid: true }) };
      }
      if (url.pathname === '/api/payment/commit') {
        return { status: 409, body: { error: { code: 'ORDER_ALREADY_PAID', message: 'paid' } } };
      }
      return undefined;
    });
    renderStep();
    await fillDetails(user);
    await user.click(await screen.findByRole('button', { name: 'השלמת ההזמנה' }));
    expect(
      await screen.findByText('ההזמנה כבר שולמה. בדקו את תיבת האימייל או פנו לשירות הלקוחות'),
    ).toBeInTheDocument();
  });

  it("names the hall's sections in English from the seat plan", async () => {
    await i18n.changeLanguage('en');
    recordApi(({ url }) =>
      url.pathname === '/api/seats/seatplanV2'
        ? { body: { seatplan: { sections: [{ id: 5, name: 'אולם', nameEn: 'Stalls' }] } } }
        : undefined,
    );
    renderStep();
    const summary = screen.getByRole('region', { name: 'Order summary' });
    await waitFor(() => expect(summary).toHaveTextContent('Stalls, row 4, seat 7 · Regular'));
    expect(summary).not.toHaveTextContent('אולם');
  });

  it('reads in English', async () => {
    await i18n.changeLanguage('en');
    recordApi(() => undefined);
    renderStep();
    const summary = screen.getByRole('region', { name: 'Order summary' });
    expect(summary).toHaveTextContent('אולם, row 4, seat 7 · Regular');
    expect(summary).toHaveTextContent('Amount due');
    expect(screen.getByRole('heading', { name: 'Your details' })).toBeInTheDocument();
  });
});
