import type { TFunction } from 'i18next';
import { useEffect, useId, useReducer, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../lib/api/client';
import { fetchPaymentStatus } from '../../../../lib/api/payment';
import {
  initialPaymentDialogState,
  isPolling,
  paymentDialogReducer,
  phasePaymentId,
  returnedPaymentDialogState,
  type PaymentFormResponse,
  type PaymentPhase,
  type PaymentStatusResponse,
  type RestartReason,
} from '../../model/paymentDialog';
import './PaymentDialog.css';

export interface PaymentDialogProps {
  /** Starts a payment: GET /payment/form with the order's total, method and installments. */
  loadForm: (signal: AbortSignal) => Promise<PaymentFormResponse & { noPage?: boolean }>;
  /** Asks where a payment stands; GET /payment/status by default. */
  fetchStatus?: (paymentId: string, signal: AbortSignal) => Promise<PaymentStatusResponse>;
  /** Set when the page came back from a whole-window redirect with `?paymentId=`. */
  returnedPaymentId?: string;
  /** The payment is captured: commit the order and go to the confirmation. */
  onCaptured: (paymentId: string) => void;
  /** The order is gone (expired, cancelled, or refunded): start it again. */
  onRestart: (reason: RestartReason) => void;
  /** The buyer closes the dialog before paying (offered while nothing is under way). */
  onClose?: () => void;
  pollIntervalMs?: number;
  /** The origin whose messages count; this site's by default. */
  origin?: string;
}

const FRAME_PHASES = new Set<PaymentPhase['kind']>([
  'form',
  'processing',
  'awaitingProvider',
  'awaitingBank',
]);

/** The payment step: the gateway's page in a frame, and what is happening around it. */
export function PaymentDialog({
  loadForm,
  fetchStatus = fetchPaymentStatus,
  returnedPaymentId,
  onCaptured,
  onRestart,
  onClose,
  pollIntervalMs = 2000,
  origin = window.location.origin,
}: PaymentDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [{ phase }, dispatch] = useReducer(paymentDialogReducer, undefined, () =>
    returnedPaymentId
      ? returnedPaymentDialogState(origin, returnedPaymentId)
      : initialPaymentDialogState(origin),
  );
  const paymentId = phasePaymentId(phase);
  const polling = isPolling(phase);

  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  // Start a payment whenever the dialog has none (at first, and after "try again").
  const loading = phase.kind === 'loadingForm';
  useEffect(() => {
    if (!loading) return;
    const controller = new AbortController();
    loadForm(controller.signal).then(
      (form) => dispatch({ type: 'formLoaded', form }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        dispatch({
          type: 'formFailed',
          code: error instanceof ApiError ? error.code : 'errorResponse',
        });
      },
    );
    return () => controller.abort();
  }, [loading, loadForm]);

  useEffect(() => {
    const listener = (event: MessageEvent) =>
      dispatch({ type: 'gatewayMessage', origin: event.origin, data: event.data });
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);

  // Poll one request at a time, every interval, while the payment is open.
  useEffect(() => {
    if (!polling || paymentId === null) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      fetchStatus(paymentId, controller.signal)
        .then((status) => dispatch({ type: 'polled', status }))
        // A lost poll is retried by the next one; the gateway's time-out ends the payment.
        .catch(() => undefined)
        .finally(() => {
          if (!controller.signal.aborted) timer = setTimeout(tick, pollIntervalMs);
        });
    };
    timer = setTimeout(tick, pollIntervalMs);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [polling, paymentId, fetchStatus, pollIntervalMs]);

  const captured = phase.kind === 'done' ? phase.paymentId : null;
  useEffect(() => {
    if (captured !== null) onCaptured(captured);
  }, [captured, onCaptured]);

  // The frame's first load is the form; any later one means the buyer sent something.
  const frameLoads = useRef(0);
  useEffect(() => {
    frameLoads.current = 0;
  }, [paymentId]);
  const onFrameLoad = () => {
    frameLoads.current += 1;
    if (frameLoads.current > 1) dispatch({ type: 'frameNavigated' });
  };

  const closable = onClose && (phase.kind === 'form' || phase.kind === 'failed');
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && closable) onClose();
  };

  return (
    <div className="payment-dialog__backdrop">
      <div
        className="payment-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
      >
        <div className="payment-dialog__header">
          <h2 className="payment-dialog__title" id={titleId} ref={headingRef} tabIndex={-1}>
            {t('checkout.payment.title')}
          </h2>
          {closable && (
            <button type="button" className="button button--ghost" onClick={onClose}>
              {t('checkout.payment.close')}
            </button>
          )}
        </div>

        <p className="payment-dialog__status" role="status">
          {statusText(phase, t)}
        </p>

        {FRAME_PHASES.has(phase.kind) && 'url' in phase && (
          <iframe
            key={phase.paymentId}
            className="payment-dialog__frame"
            title={t('checkout.payment.frameTitle')}
            src={phase.url}
            onLoad={onFrameLoad}
          />
        )}

        {phase.kind === 'failed' && (
          <div className="payment-dialog__outcome">
            <p className="payment-dialog__error" role="alert">
              {phase.reason
                ? t(`checkout.payment.declined.${phase.reason}`)
                : t(`errors.${phase.code}`)}
            </p>
            <button
              type="button"
              className="button button--primary"
              onClick={() => dispatch({ type: 'retry' })}
            >
              {t('checkout.payment.tryAgain')}
            </button>
          </div>
        )}

        {phase.kind === 'restarting' && (
          <div className="payment-dialog__outcome">
            <p className="payment-dialog__error" role="alert">
              {t(`checkout.payment.restart.${phase.reason}`)}
            </p>
            <button
              type="button"
              className="button button--primary"
              onClick={() => onRestart(phase.reason)}
            >
              {t('checkout.payment.startOver')}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}

function statusText(phase: PaymentPhase, t: TFunction): string {
  switch (phase.kind) {
    case 'loadingForm':
      return t('checkout.payment.loadingForm');
    case 'form':
      return t('checkout.payment.form');
    case 'processing':
      return t('checkout.payment.processing');
    case 'awaitingProvider':
      return phase.step === 'challenge'
        ? t('checkout.payment.awaitingChallenge')
        : t('checkout.payment.awaitingRedirect');
    case 'awaitingBank':
      return t('checkout.payment.awaitingBank');
    case 'redirectReturned':
      return t('checkout.payment.redirectReturned');
    case 'done':
      return t('checkout.payment.done');
    case 'failed':
      return t('checkout.payment.failed');
    case 'restarting':
      return '';
  }
}
