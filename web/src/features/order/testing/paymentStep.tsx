// For the payment step's tests: the step rendered in its order, the buyer's details typed as a
// buyer would, a server recorded call by call, and the payment form's answer.
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type userEvent from '@testing-library/user-event';
import type { SiteConfig } from '../../../lib/api/types';
import { makeConfig, makePresentation } from '../../../test/fixtures';
import { mockApi } from '../../../test/renderApp';
import type { PricedCart } from '../api/payment';
import { PaymentStep } from '../components/payment/PaymentStep';
import type { OrderEvent } from '../model/orderState';
import { OrderHarness } from './OrderHarness';
import { orderAtPayment } from './orderAt';

/** The payment step of an order priced at `cart`, in a fresh query cache. */
export function renderPaymentStep({
  cart,
  config = makeConfig(),
  onEvent,
  onRestart,
}: {
  cart: PricedCart;
  config?: SiteConfig;
  onEvent?: (event: OrderEvent) => void;
  onRestart?: () => void;
}) {
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <OrderHarness
        presentation={makePresentation()}
        initial={orderAtPayment(cart)}
        onEvent={onEvent}
        onRestart={onRestart}
      >
        <PaymentStep config={config} />
      </OrderHarness>
    </QueryClientProvider>,
  );
}

/** The buyer's details typed in Hebrew, the terms accepted, and on to the payment. */
export async function fillDetails(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText(/^שם פרטי/), 'דנה');
  await user.type(screen.getByLabelText(/^שם משפחה/), 'לוי');
  await user.type(screen.getByLabelText(/^אימייל/), 'dana@example.com');
  await user.type(screen.getByLabelText(/^אימות אימייל/), 'dana@example.com');
  await user.type(screen.getByLabelText(/^טלפון נייד/), '052-4318876');
  await user.click(screen.getByRole('checkbox', { name: /קראתי ואני מסכים/ }));
  await user.click(screen.getByRole('button', { name: 'המשך לתשלום' }));
}

/** The answer of POST /payment/form: to be paid at a form, or (`paid`) already paid. */
export function paymentForm(
  paymentIdentifier: string,
  { amount, paid }: { amount: number; paid: boolean },
) {
  return {
    paymentIdentifier,
    paymentFormURL: paid ? '' : `/pay/${paymentIdentifier}?locale=he`,
    amount,
    currency: 'ILS',
    expiresAt: '2026-07-14T17:05:00Z',
    serverTime: '2026-07-14T16:50:00Z',
    paid,
  };
}

export type Call = { method: string; url: URL; body: unknown };

/** The server as `handler` answers it (no answer: a 404); returns the calls as they come. */
export function recordApi(handler: (call: Call) => { status?: number; body: unknown } | undefined) {
  const calls: Call[] = [];
  const fetchMock = mockApi(makeConfig(), () => undefined);
  fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call = {
      method: init?.method ?? 'GET',
      url,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const answer = handler(call);
    return new Response(
      JSON.stringify(answer?.body ?? { error: { code: 'notFound', message: 'no mock' } }),
      {
        status: answer ? (answer.status ?? 200) : 404,
        headers: { 'content-type': 'application/json' },
      },
    );
  });
  return calls;
}
