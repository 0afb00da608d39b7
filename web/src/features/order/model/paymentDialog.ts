// The payment dialog as a pure state machine. Two sources report on a payment: the gateway page
// inside the dialog's iframe (`postMessage({type: "kupa-payment", paymentId, status})`) and
// polling GET /api/payment/status/{paymentId}. Both become the same status events; anything
// from another origin or about another payment is ignored.
import type { components } from '../../../lib/api/schema';

export type PaymentStatus = components['schemas']['PaymentStatusValue'];
export type PaymentFormResponse = components['schemas']['PaymentFormResponse'];
export type PaymentStatusResponse = components['schemas']['PaymentStatusResponse'];
/** Why a provider declined a payment, when it said (the server's `declineReason`). */
export type DeclineReason = components['schemas']['DeclineReason'];

const DECLINE_REASONS: readonly DeclineReason[] = [
  'declined',
  'insufficientFunds',
  'expiredCard',
  'cardBlocked',
  'callIssuer',
  'threeDSecureFailed',
  'cardNotEligible',
  'rejectedInBankApp',
  'cancelledByBuyer',
] satisfies readonly DeclineReason[];

function declineReasonOf(value: unknown): DeclineReason | undefined {
  return DECLINE_REASONS.find((r) => r === value);
}

/** Failure codes the dialog has words for (spec section 8's payment codes). */
export const PAYMENT_FAILURE_CODES = [
  'paymentError',
  'blikError',
  'payUerror',
  'payU_3DS_error',
  'errorNoResponse',
  'errorResponse',
] as const;
export type PaymentFailureCode = (typeof PAYMENT_FAILURE_CODES)[number];

export type RestartReason = 'expired' | 'cancelled' | 'refunded';

export type PaymentPhase =
  | { kind: 'loadingForm' }
  | { kind: 'form'; paymentId: string; url: string }
  | { kind: 'processing'; paymentId: string; url: string }
  /** 3-D Secure ("extra verification") or a provider's own page (PayU, PayPal) in the frame. */
  | { kind: 'awaitingProvider'; paymentId: string; url: string; step: 'challenge' | 'redirect' }
  /** Blik: the buyer confirms in the bank app; the frame shows the gateway's waiting page. */
  | { kind: 'awaitingBank'; paymentId: string; url: string }
  /** Back from a whole-window redirect: the URL says how it went, the status call confirms. */
  | { kind: 'redirectReturned'; paymentId: string }
  | { kind: 'done'; paymentId: string; status: 'captured' }
  /** `reason`: the provider's reason for a decline, when it gave one. */
  | { kind: 'failed'; paymentId: string | null; code: PaymentFailureCode; reason?: DeclineReason }
  | { kind: 'restarting'; paymentId: string | null; reason: RestartReason };

export interface PaymentDialogState {
  /** The only origin whose messages count: this site's (the gateway pages are served by it). */
  origin: string;
  phase: PaymentPhase;
}

export type PaymentDialogEvent =
  /** GET /payment/form answered. `paid`: vouchers covered it all, nothing to pay. */
  | {
      type: 'formLoaded';
      form: Pick<PaymentFormResponse, 'paymentIdentifier' | 'paymentFormURL' | 'paid'> & {
        /** No page to show (a saved card charged by its token): an open payment is polled. */
        noPage?: boolean;
      };
    }
  /** GET /payment/form failed: its error code (e.g. `timeExpired`, `priceMismatch`). */
  | { type: 'formFailed'; code: string }
  /** The frame navigated after its first page: the buyer sent a form. */
  | { type: 'frameNavigated' }
  /** A `message` event on window: its origin and data, unchecked. */
  | { type: 'gatewayMessage'; origin: string; data: unknown }
  /** GET /payment/status answered. */
  | {
      type: 'polled';
      status: Pick<PaymentStatusResponse, 'paymentId' | 'status' | 'failureCode' | 'declineReason'>;
    }
  /** The page came back from a redirect with `?paymentId=…` in its address. */
  | { type: 'redirectReturned'; paymentId: string }
  /** The order went away (its timer ran out, or it was cancelled) while the dialog was open. */
  | { type: 'orderCancelled'; reason?: RestartReason }
  /** The buyer asks to try again after a failure: a new payment form is fetched. */
  | { type: 'retry' };

export function initialPaymentDialogState(origin: string): PaymentDialogState {
  return { origin, phase: { kind: 'loadingForm' } };
}

/** The state the dialog starts in after a whole-window redirect came back. */
export function returnedPaymentDialogState(origin: string, paymentId: string): PaymentDialogState {
  return { origin, phase: { kind: 'redirectReturned', paymentId } };
}

const STATUSES: readonly PaymentStatus[] = [
  'created',
  'challenge',
  'awaitingBank',
  'redirected',
  'authorized',
  'captured',
  'declined',
  'failed',
  'refunded',
  'expired',
];

export function isPaymentFailureCode(code: unknown): code is PaymentFailureCode {
  return PAYMENT_FAILURE_CODES.includes(code as PaymentFailureCode);
}

/** The payment a phase is about, if it knows one. */
export function phasePaymentId(phase: PaymentPhase): string | null {
  return 'paymentId' in phase ? phase.paymentId : null;
}

/** Phases in which the dialog still waits to hear how the payment ends (and so polls). */
export function isPolling(phase: PaymentPhase): boolean {
  return (
    phase.kind === 'form' ||
    phase.kind === 'processing' ||
    phase.kind === 'awaitingProvider' ||
    phase.kind === 'awaitingBank' ||
    phase.kind === 'redirectReturned'
  );
}

/** The gateway's `kupa-payment` message, or null when the data is anything else. */
export function parseGatewayMessage(data: unknown): {
  paymentId: string;
  status: PaymentStatus;
  failureCode: string | null;
  declineReason?: DeclineReason;
} | null {
  if (!data || typeof data !== 'object') return null;
  const m = data as {
    type?: unknown;
    paymentId?: unknown;
    status?: unknown;
    failureCode?: unknown;
    declineReason?: unknown;
  };
  if (m.type !== 'kupa-payment' || typeof m.paymentId !== 'string') return null;
  if (!STATUSES.includes(m.status as PaymentStatus)) return null;
  return {
    paymentId: m.paymentId,
    status: m.status as PaymentStatus,
    failureCode: typeof m.failureCode === 'string' ? m.failureCode : null,
    declineReason: declineReasonOf(m.declineReason),
  };
}

function onStatus(
  phase: PaymentPhase,
  paymentId: string,
  status: PaymentStatus,
  failureCode: string | null | undefined,
  declineReason?: unknown,
): PaymentPhase {
  // Only the payment this dialog is showing counts; a stale one (replaced after "try again",
  // or another tab's) says nothing about it.
  if (phasePaymentId(phase) !== paymentId) return phase;
  // A failed payment can still turn out captured (a late answer); nothing else moves it on,
  // and done and restarting are final.
  if (phase.kind === 'failed') {
    return status === 'captured' ? { kind: 'done', paymentId, status } : phase;
  }
  if (!isPolling(phase)) return phase;

  const url = 'url' in phase ? phase.url : null;
  switch (status) {
    case 'captured':
      return { kind: 'done', paymentId, status };
    case 'declined':
    case 'failed': {
      const code = isPaymentFailureCode(failureCode) ? failureCode : 'paymentError';
      const reason = declineReasonOf(declineReason);
      return reason
        ? { kind: 'failed', paymentId, code, reason }
        : { kind: 'failed', paymentId, code };
    }
    case 'expired':
      return { kind: 'restarting', paymentId, reason: 'expired' };
    case 'refunded':
      return { kind: 'restarting', paymentId, reason: 'refunded' };
    case 'authorized':
      // Paid at the provider; the order is being finalised.
      return url === null ? phase : { kind: 'processing', paymentId, url };
    case 'challenge':
      return url === null ? phase : { kind: 'awaitingProvider', paymentId, url, step: 'challenge' };
    case 'redirected':
      return url === null ? phase : { kind: 'awaitingProvider', paymentId, url, step: 'redirect' };
    case 'awaitingBank':
      return url === null ? phase : { kind: 'awaitingBank', paymentId, url };
    case 'created':
      // Nothing happened yet (or the form came back with mistakes): the form is the frame's.
      return url === null ? phase : { kind: 'form', paymentId, url };
  }
}

export function paymentDialogReducer(
  state: PaymentDialogState,
  event: PaymentDialogEvent,
): PaymentDialogState {
  const phase = next(state, event);
  return phase === state.phase ? state : { ...state, phase };
}

function next(state: PaymentDialogState, event: PaymentDialogEvent): PaymentPhase {
  const { phase } = state;
  switch (event.type) {
    case 'formLoaded': {
      if (phase.kind !== 'loadingForm') return phase;
      const { paymentIdentifier: paymentId, paymentFormURL: url, paid, noPage } = event.form;
      if (paid) return { kind: 'done', paymentId, status: 'captured' };
      return noPage ? { kind: 'redirectReturned', paymentId } : { kind: 'form', paymentId, url };
    }
    case 'formFailed':
      if (phase.kind !== 'loadingForm') return phase;
      if (event.code === 'timeExpired') {
        return { kind: 'restarting', paymentId: null, reason: 'expired' };
      }
      return {
        kind: 'failed',
        paymentId: null,
        code: isPaymentFailureCode(event.code)
          ? event.code
          : event.code === 'connectionLost'
            ? 'errorNoResponse'
            : 'errorResponse',
      };
    case 'frameNavigated':
      return phase.kind === 'form'
        ? { kind: 'processing', paymentId: phase.paymentId, url: phase.url }
        : phase;
    case 'gatewayMessage': {
      if (event.origin !== state.origin) return phase;
      const message = parseGatewayMessage(event.data);
      if (!message) return phase;
      return onStatus(
        phase,
        message.paymentId,
        message.status,
        message.failureCode,
        message.declineReason,
      );
    }
    case 'polled':
      return onStatus(
        phase,
        event.status.paymentId,
        event.status.status,
        event.status.failureCode,
        event.status.declineReason,
      );
    case 'redirectReturned':
      return phase.kind === 'done' || phase.kind === 'restarting'
        ? phase
        : { kind: 'redirectReturned', paymentId: event.paymentId };
    case 'orderCancelled':
      if (phase.kind === 'done' || phase.kind === 'restarting') return phase;
      return {
        kind: 'restarting',
        paymentId: phasePaymentId(phase),
        reason: event.reason ?? 'cancelled',
      };
    case 'retry':
      return phase.kind === 'failed' ? { kind: 'loadingForm' } : phase;
  }
}

/**
 * Whether a payment form's answer is this site's own return path rather than a page to show: a
 * saved card charged by its token (decision 0066) answers the return path with `paymentId`, and
 * when the provider did not answer the payment is still open (its status read settles it).
 */
export function isReturnAnswer(
  paymentFormURL: string,
  returnPath: string,
  origin: string,
): boolean {
  const answer = new URL(paymentFormURL, origin);
  const back = new URL(returnPath, origin);
  return (
    answer.origin === origin &&
    answer.pathname === back.pathname &&
    answer.searchParams.has('paymentId')
  );
}
