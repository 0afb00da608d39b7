import { render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../../lib/i18n';
import { ConfigContext, normalizeConfig } from '../../../../lib/config';
import { makeConfig } from '../../../../test/fixtures';
import { ReturnedPayment } from './ReturnedPayment';
import { settleReturnedPayment, takeReturnedPayment } from '../../model/returnedPayment';

// Back from a gateway that took the whole window: the dialog says it is checking, asks the
// payment's status, and on capture commits the order.

function server(status: string) {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      paths.push(url.pathname);
      const reply = (body: unknown, code = 200) =>
        new Response(JSON.stringify(body), {
          status: code,
          headers: { 'content-type': 'application/json' },
        });
      switch (url.pathname) {
        case '/api/config':
          return reply(makeConfig());
        case '/api/payment/status/p-back':
          return reply({
            paymentId: 'p-back',
            status,
            method: 'payu',
            amount: 4700,
            currency: 'ILS',
            failureCode: null,
          });
        case '/api/payment/commit':
          return reply({ reservationIdentifier: 'R-1' });
        default:
          return reply({ error: { code: 'notFound', message: url.pathname } }, 404);
      }
    }),
  );
  return paths;
}

function renderReturned(onPaid: (id: string) => void, onRestart = vi.fn()) {
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <ConfigContext value={normalizeConfig(makeConfig())}>
        <ReturnedPayment
          presentationId={101}
          paymentId="p-back"
          onPaid={onPaid}
          onRestart={onRestart}
        />
      </ConfigContext>
    </QueryClientProvider>,
  );
}

describe('ReturnedPayment', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('checks the returned payment and, captured, commits the order', async () => {
    await i18n.changeLanguage('en');
    const paths = server('captured');
    const onPaid = vi.fn();
    renderReturned(onPaid);
    expect(await screen.findByText('Checking the payment result…')).toBeInTheDocument();
    await waitFor(() => expect(onPaid).toHaveBeenCalledWith('R-1'), { timeout: 5000 });
    expect(paths).toContain('/api/payment/status/p-back');
    expect(paths).toContain('/api/payment/commit');
  });

  it('does not commit a payment that failed', async () => {
    await i18n.changeLanguage('en');
    const paths = server('declined');
    const onPaid = vi.fn();
    renderReturned(onPaid);
    expect(
      await screen.findByText('The payment did not go through.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(onPaid).not.toHaveBeenCalled();
    expect(paths).not.toContain('/api/payment/commit');
  });
});

describe('takeReturnedPayment', () => {
  it('takes the payment out of the address and keeps the rest', () => {
    window.history.replaceState(null, '', '/order/101?lang=en&paymentId=p-back&status=captured');
    expect(takeReturnedPayment()).toBe('p-back');
    expect(window.location.pathname + window.location.search).toBe('/order/101?lang=en');
    // A first render thrown away asks again on the same page: the same payment.
    expect(takeReturnedPayment()).toBe('p-back');
    settleReturnedPayment();
    expect(takeReturnedPayment()).toBeUndefined();
  });
});
