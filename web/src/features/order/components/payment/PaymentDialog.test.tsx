import { act, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../../lib/i18n';
import { PaymentDialog } from './PaymentDialog';
import type { PaymentFormResponse, PaymentStatusResponse } from '../../model/paymentDialog';

const form = (id: string): PaymentFormResponse => ({
  paymentIdentifier: id,
  paymentFormURL: `/pay/${id}?locale=he`,
  amount: 9400,
  currency: 'ILS',
  expiresAt: '2026-11-22T14:21:37Z',
  paid: false,
  serverTime: '2026-11-22T14:06:37Z',
});

const status = (over: Partial<PaymentStatusResponse>): PaymentStatusResponse => ({
  paymentId: 'p1',
  status: 'created',
  failureCode: null,
  method: 'card',
  amount: 9400,
  currency: 'ILS',
  ...over,
});

function post(data: unknown, origin = window.location.origin) {
  act(() => {
    fireEvent(window, new MessageEvent('message', { data, origin }));
  });
}

beforeEach(async () => {
  await i18n.changeLanguage('he');
});

describe('payment dialog', () => {
  it("shows the gateway's form and finishes on its captured message", async () => {
    const onCaptured = vi.fn();
    render(
      <PaymentDialog
        loadForm={() => Promise.resolve(form('p1'))}
        fetchStatus={() => new Promise(() => {})}
        onCaptured={onCaptured}
        onRestart={vi.fn()}
      />,
    );
    expect(screen.getByRole('dialog', { name: 'תשלום' })).toBeInTheDocument();
    const frame = await screen.findByTitle('טופס תשלום מאובטח');
    expect(frame).toHaveAttribute('src', '/pay/p1?locale=he');

    post({ type: 'kupa-payment', paymentId: 'p1', status: 'captured' }, 'https://evil.example');
    post({ type: 'kupa-payment', paymentId: 'p2', status: 'captured' });
    expect(onCaptured).not.toHaveBeenCalled();

    post({ type: 'kupa-payment', paymentId: 'p1', status: 'awaitingBank' });
    expect(screen.getByRole('status')).toHaveTextContent('אשרו את התשלום באפליקציית הבנק שלכם.');
    post({ type: 'kupa-payment', paymentId: 'p1', status: 'captured' });
    expect(onCaptured).toHaveBeenCalledWith('p1');
  });

  it('polls the status, shows a failure in Hebrew and tries again with a new payment', async () => {
    const user = userEvent.setup();
    const loadForm = vi.fn().mockResolvedValueOnce(form('p1')).mockResolvedValueOnce(form('p2'));
    const fetchStatus = vi.fn(async (id: string) =>
      status({ paymentId: id, status: 'declined', failureCode: 'payU_3DS_error' }),
    );
    render(
      <PaymentDialog
        loadForm={loadForm}
        fetchStatus={fetchStatus}
        pollIntervalMs={10}
        onCaptured={vi.fn()}
        onRestart={vi.fn()}
      />,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('אימות הכרטיס (3-D Secure) נכשל');
    expect(fetchStatus).toHaveBeenCalledWith('p1', expect.any(AbortSignal));

    fetchStatus.mockImplementation(() => new Promise(() => {}));
    await user.click(screen.getByRole('button', { name: 'לנסות שוב' }));
    expect(await screen.findByTitle('טופס תשלום מאובטח')).toHaveAttribute(
      'src',
      '/pay/p2?locale=he',
    );
    expect(loadForm).toHaveBeenCalledTimes(2);
  });

  it("says why the card was declined and what to do, in the buyer's language", async () => {
    render(
      <PaymentDialog
        loadForm={() => Promise.resolve(form('p1'))}
        fetchStatus={() => new Promise(() => {})}
        onCaptured={vi.fn()}
        onRestart={vi.fn()}
      />,
    );
    await screen.findByTitle('טופס תשלום מאובטח');
    post({
      type: 'kupa-payment',
      paymentId: 'p1',
      status: 'declined',
      failureCode: 'paymentError',
      declineReason: 'insufficientFunds',
    });
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('אין בו די יתרה');
    expect(alert).toHaveTextContent('שלמו בכרטיס אחר');
    await act(() => i18n.changeLanguage('en'));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'The card was declined: not enough funds or credit left on it.',
    );
  });

  it('offers to start the order again when the payment expired', async () => {
    const user = userEvent.setup();
    const onRestart = vi.fn();
    render(
      <PaymentDialog
        loadForm={() => Promise.resolve(form('p1'))}
        fetchStatus={() => new Promise(() => {})}
        onCaptured={vi.fn()}
        onRestart={onRestart}
      />,
    );
    await screen.findByTitle('טופס תשלום מאובטח');
    post({
      type: 'kupa-payment',
      paymentId: 'p1',
      status: 'expired',
      failureCode: 'errorNoResponse',
    });
    expect(screen.getByRole('alert')).toHaveTextContent('זמן התשלום הסתיים והמושבים שוחררו.');
    await user.click(screen.getByRole('button', { name: 'להתחיל את ההזמנה מחדש' }));
    expect(onRestart).toHaveBeenCalledWith('expired');
  });
});
