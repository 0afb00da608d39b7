import { render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../../lib/i18n';
import { resetUuid } from '../../../../lib/api/client';
import type { CustomerInfo } from '../../../../components/checkout/customerInfo';
import { makeConfig, makePresentation } from '../../../../test/fixtures';
import type { PricedCart } from '../../api/payment';
import { OrderHarness } from '../../testing/OrderHarness';
import { orderAtPayment } from '../../testing/orderAt';
import { onePricedSeat } from '../../testing/pricedCart';
import { PaymentStep } from '../payment/PaymentStep';
import { goToHold } from './goToHold';

vi.mock('./goToHold', () => ({ goToHold: vi.fn() }));

const cart: PricedCart = onePricedSeat;

const details = {
  firstName: 'דנה',
  lastName: 'לוי',
  email: 'dana@example.com',
  mobileNumber: '0524318876',
} as CustomerInfo;

const member = (active: boolean) => ({
  customerInfo: {
    CustomerId: 1,
    FirstName: 'דנה',
    LastName: 'לוי',
    Members: [{ memberNumber: '100001', isExpired: !active, isNotStarted: false }],
  },
  mobileNumber: '0524318876',
  loggedInAt: '2026-07-14T16:50:00Z',
  expiresAt: '2099-07-14T18:50:00Z',
  serverTime: '2026-07-14T16:50:00Z',
});

type Call = { method: string; path: string; body: unknown };

function server(me: unknown, commit: { status: number; body: unknown }) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push({
        method: init?.method ?? 'GET',
        path: url.pathname,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      const reply = (body: unknown, status = 200) =>
        new Response(JSON.stringify(body), {
          status,
          headers: { 'content-type': 'application/json' },
        });
      if (url.pathname === '/api/config') return reply(makeConfig());
      if (url.pathname === '/api/customer/me')
        return me ? reply(me) : reply({ error: { code: 'loginError', message: 'x' } }, 401);
      if (url.pathname === '/api/payment/commit') return reply(commit.body, commit.status);
      return reply({ error: { code: 'notFound', message: 'no mock' } }, 404);
    }),
  );
  return calls;
}

function renderStep() {
  // An evening show well ahead, so there is time to pay later.
  const presentation = makePresentation({ dateTime: '2099-07-14T17:30:00Z' });
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <OrderHarness
        presentation={presentation}
        initial={orderAtPayment(cart, { customerInfo: details })}
        onEvent={() => {}}
        onRestart={() => {}}
      >
        <PaymentStep config={makeConfig()} />
      </OrderHarness>
    </QueryClientProvider>,
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('he');
  resetUuid();
});

describe('the hold choice at checkout', { timeout: 30_000 }, () => {
  it('is offered to a member with an active card and commits the cart as a hold', async () => {
    const calls = server(member(true), {
      status: 200,
      body: {
        reservationIdentifier: 'h1',
        reservationNumber: '1234-5678',
        ticketIdentifiers: [],
        error: null,
      },
    });
    renderStep();
    const offer = await screen.findByRole('region', { name: 'לשריין עכשיו, לשלם אחר כך' });
    expect(offer).toHaveTextContent('יש לשלם ולאסוף עד');
    await userEvent
      .setup()
      .click(within(offer).getByRole('button', { name: 'לשריין ולשלם אחר כך' }));
    await vi.waitFor(() => expect(goToHold).toHaveBeenCalledWith('h1'));
    const commit = calls.find((c) => c.path === '/api/payment/commit');
    expect(commit?.body).toMatchObject({
      cart: { presentations: [{ presentationId: 101 }], isHold: true },
    });
    vi.unstubAllGlobals();
  });

  it('says why a premium seat cannot be held and offers to pay now', async () => {
    server(member(true), {
      status: 422,
      body: {
        error: {
          code: 'holdPremiumSeat',
          message: 'x',
          params: { seats: [], offer: 'regularOrder' },
        },
      },
    });
    renderStep();
    const offer = await screen.findByRole('region', { name: 'לשריין עכשיו, לשלם אחר כך' });
    const user = userEvent.setup();
    await user.click(within(offer).getByRole('button', { name: 'לשריין ולשלם אחר כך' }));
    expect(await within(offer).findByRole('alert')).toHaveTextContent(
      'אי אפשר לשריין מושב פרימיום בלי לשלם',
    );
    await user.click(within(offer).getByRole('button', { name: 'לשלם עכשיו' }));
    expect(screen.getByRole('button', { name: /^לתשלום/ })).toHaveFocus();
    vi.unstubAllGlobals();
  });

  it('is not offered without an active membership', async () => {
    server(member(false), { status: 500, body: {} });
    renderStep();
    await screen.findByRole('region', { name: 'סיכום ההזמנה' });
    // The login has been read by then (the saved-cards check waits on it too).
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('region', { name: 'לשריין עכשיו, לשלם אחר כך' })).toBeNull();
    vi.unstubAllGlobals();
  });
});
