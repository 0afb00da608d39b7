import { describe, expect, it } from 'vitest';
import {
  initialPaymentDialogState,
  isReturnAnswer,
  paymentDialogReducer as reduce,
  returnedPaymentDialogState,
  type PaymentDialogEvent,
  type PaymentDialogState,
  type PaymentPhase,
  type PaymentStatus,
} from './paymentDialog';

const ORIGIN = 'http://localhost:3000';
const ID = 'pay-1';
const URL = '/pay/pay-1?locale=he';

const at = (phase: PaymentPhase): PaymentDialogState => ({ origin: ORIGIN, phase });
const form = at({ kind: 'form', paymentId: ID, url: URL });

const message = (status: PaymentStatus, extra: object = {}): PaymentDialogEvent => ({
  type: 'gatewayMessage',
  origin: ORIGIN,
  data: { type: 'kupa-payment', paymentId: ID, status, ...extra },
});
const polled = (status: PaymentStatus, failureCode: string | null = null): PaymentDialogEvent => ({
  type: 'polled',
  status: { paymentId: ID, status, failureCode },
});
const run = (state: PaymentDialogState, ...events: PaymentDialogEvent[]) =>
  events.reduce(reduce, state).phase;

describe('payment dialog state machine', () => {
  it('loads the form, then shows it', () => {
    const start = initialPaymentDialogState(ORIGIN);
    expect(start.phase).toEqual({ kind: 'loadingForm' });
    expect(
      run(start, {
        type: 'formLoaded',
        form: { paymentIdentifier: ID, paymentFormURL: URL, paid: false },
      }),
    ).toEqual({ kind: 'form', paymentId: ID, url: URL });
  });

  it('is done at once when vouchers paid it all', () => {
    expect(
      run(initialPaymentDialogState(ORIGIN), {
        type: 'formLoaded',
        form: { paymentIdentifier: ID, paymentFormURL: '', paid: true },
      }),
    ).toEqual({ kind: 'done', paymentId: ID, status: 'captured' });
  });

  it('polls a saved card charged by its token that is still open (no page to show)', () => {
    const back = `/order/5?paymentId=${ID}`;
    const start = initialPaymentDialogState(ORIGIN);
    const open = run(start, {
      type: 'formLoaded',
      form: { paymentIdentifier: ID, paymentFormURL: back, paid: false, noPage: true },
    });
    expect(open).toEqual({ kind: 'redirectReturned', paymentId: ID });
    expect(run(at(open), polled('captured'))).toEqual({
      kind: 'done',
      paymentId: ID,
      status: 'captured',
    });
  });

  it("tells this site's return path from a page to show", () => {
    expect(isReturnAnswer(`/order/5?paymentId=${ID}`, '/order/5', ORIGIN)).toBe(true);
    expect(isReturnAnswer(`/order/5?lang=en&paymentId=${ID}`, '/order/5?lang=en', ORIGIN)).toBe(
      true,
    );
    expect(isReturnAnswer(URL, '/order/5', ORIGIN)).toBe(false);
    expect(isReturnAnswer('/order/5', '/order/5', ORIGIN)).toBe(false);
    expect(isReturnAnswer(`https://secure.cardcom.solutions/x?paymentId=${ID}`, '/x', ORIGIN)).toBe(
      false,
    );
  });

  it('restarts when the form comes too late, and fails on other form errors', () => {
    const start = initialPaymentDialogState(ORIGIN);
    expect(run(start, { type: 'formFailed', code: 'timeExpired' })).toEqual({
      kind: 'restarting',
      paymentId: null,
      reason: 'expired',
    });
    expect(run(start, { type: 'formFailed', code: 'errorNoResponse' })).toEqual({
      kind: 'failed',
      paymentId: null,
      code: 'errorNoResponse',
    });
    expect(run(start, { type: 'formFailed', code: 'priceMismatch' })).toMatchObject({
      kind: 'failed',
      code: 'errorResponse',
    });
  });

  it('goes through processing to captured on a card', () => {
    expect(run(form, { type: 'frameNavigated' })).toEqual({
      kind: 'processing',
      paymentId: ID,
      url: URL,
    });
    expect(
      run(form, { type: 'frameNavigated' }, polled('authorized'), message('captured')),
    ).toEqual({
      kind: 'done',
      paymentId: ID,
      status: 'captured',
    });
  });

  it('waits for the extra verification (3-D Secure), then back to the form on mistakes', () => {
    const challenged = run(form, polled('challenge'));
    expect(challenged).toEqual({
      kind: 'awaitingProvider',
      paymentId: ID,
      url: URL,
      step: 'challenge',
    });
    expect(run(at(challenged), polled('created'))).toEqual({
      kind: 'form',
      paymentId: ID,
      url: URL,
    });
    expect(run(form, polled('redirected'))).toMatchObject({
      kind: 'awaitingProvider',
      step: 'redirect',
    });
  });

  it('waits for the bank app on Blik, then fails with its code', () => {
    const waiting = run(form, message('awaitingBank'));
    expect(waiting).toEqual({ kind: 'awaitingBank', paymentId: ID, url: URL });
    expect(run(at(waiting), message('declined', { failureCode: 'blikError' }))).toEqual({
      kind: 'failed',
      paymentId: ID,
      code: 'blikError',
    });
  });

  it("keeps the provider's decline reason, from the gateway's message or the status call", () => {
    expect(
      run(form, message('declined', { failureCode: 'paymentError', declineReason: 'expiredCard' })),
    ).toEqual({ kind: 'failed', paymentId: ID, code: 'paymentError', reason: 'expiredCard' });
    expect(
      run(form, {
        type: 'polled',
        status: {
          paymentId: ID,
          status: 'declined',
          failureCode: 'paymentError',
          declineReason: 'insufficientFunds',
        },
      }),
    ).toEqual({ kind: 'failed', paymentId: ID, code: 'paymentError', reason: 'insufficientFunds' });
    // A reason the dialog has no words for is dropped: the code's words are said instead.
    expect(
      run(form, message('declined', { failureCode: 'paymentError', declineReason: 'gremlins' })),
    ).toEqual({ kind: 'failed', paymentId: ID, code: 'paymentError' });
  });

  it('fails with the gateway code, or paymentError for an unknown one, and lets the buyer retry', () => {
    expect(run(form, polled('failed', 'payUerror'))).toMatchObject({ code: 'payUerror' });
    expect(run(form, polled('declined', 'payU_3DS_error'))).toMatchObject({
      code: 'payU_3DS_error',
    });
    const failed = run(form, polled('declined', 'somethingNew'));
    expect(failed).toEqual({ kind: 'failed', paymentId: ID, code: 'paymentError' });
    expect(run(at(failed), { type: 'retry' })).toEqual({ kind: 'loadingForm' });
    // A late word from the failed payment does not disturb the new one.
    expect(run(at(failed), { type: 'retry' }, message('captured'))).toEqual({
      kind: 'loadingForm',
    });
  });

  it('restarts the order when the payment expires, is refunded or the order is cancelled', () => {
    expect(run(form, polled('expired', 'errorNoResponse'))).toEqual({
      kind: 'restarting',
      paymentId: ID,
      reason: 'expired',
    });
    expect(run(form, polled('refunded', 'holdsLost'))).toMatchObject({ reason: 'refunded' });
    expect(run(form, { type: 'orderCancelled' })).toEqual({
      kind: 'restarting',
      paymentId: ID,
      reason: 'cancelled',
    });
  });

  it('confirms a redirect return with the status call', () => {
    const back = returnedPaymentDialogState(ORIGIN, ID);
    expect(back.phase).toEqual({ kind: 'redirectReturned', paymentId: ID });
    expect(run(back, polled('captured'))).toMatchObject({ kind: 'done' });
    expect(run(back, polled('declined', 'paymentError'))).toMatchObject({ kind: 'failed' });
    expect(run(form, { type: 'redirectReturned', paymentId: ID })).toEqual({
      kind: 'redirectReturned',
      paymentId: ID,
    });
  });

  it('ignores messages from another origin, another payment, or of another shape', () => {
    const events: PaymentDialogEvent[] = [
      {
        type: 'gatewayMessage',
        origin: 'https://evil.example',
        data: { type: 'kupa-payment', paymentId: ID, status: 'captured' },
      },
      {
        type: 'gatewayMessage',
        origin: ORIGIN,
        data: { type: 'kupa-payment', paymentId: 'pay-2', status: 'captured' },
      },
      {
        type: 'gatewayMessage',
        origin: ORIGIN,
        data: { type: 'other', paymentId: ID, status: 'captured' },
      },
      {
        type: 'gatewayMessage',
        origin: ORIGIN,
        data: { type: 'kupa-payment', paymentId: ID, status: 'paid' },
      },
      { type: 'gatewayMessage', origin: ORIGIN, data: 'captured' },
      { type: 'polled', status: { paymentId: 'pay-2', status: 'captured', failureCode: null } },
    ];
    for (const event of events) expect(reduce(form, event)).toBe(form);
  });

  it('keeps its final states', () => {
    const done = at({ kind: 'done', paymentId: ID, status: 'captured' });
    for (const event of [
      message('declined'),
      polled('expired'),
      { type: 'orderCancelled' as const },
      { type: 'retry' as const },
    ]) {
      expect(reduce(done, event)).toBe(done);
    }
    const restarting = at({ kind: 'restarting', paymentId: ID, reason: 'expired' });
    expect(reduce(restarting, message('captured'))).toBe(restarting);
    // A captured word after a failure wins: the money was taken.
    const failed = at({ kind: 'failed', paymentId: ID, code: 'errorNoResponse' });
    expect(run(failed, polled('captured'))).toMatchObject({ kind: 'done' });
    expect(reduce(failed, polled('awaitingBank'))).toBe(failed);
  });
});
