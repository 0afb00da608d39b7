// The reference-prompt admin's SMS resend (decision 0032): a customer on the phone says the
// tickets never came; the agent types the reservation number and sends them again, to the number
// the order was made with (the server never takes another).
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api/client';
import { resendTickets } from './api';

/**
 * The answers this call gives, with their words from the errors catalogue. (Not through
 * lib/apiErrors: importing it from the staff chunk makes the bundler split the Hebrew catalogue
 * out of the buyers' entry into a chunk of its own, one more request before the first paint.)
 */
const ANSWERS = [
  'notFound',
  'CUSTOMER_NO_MOBILE',
  'tooManyRequests',
  'SMS_FAILED',
  'forbidden',
  'loginError',
] as const;

function answerOf(error: unknown): (typeof ANSWERS)[number] | null {
  if (!(error instanceof ApiError)) return null;
  return ANSWERS.find((code) => code === error.code) ?? null;
}

type State =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'sent'; reservation: string }
  | { kind: 'failed'; message: string };

export function ResendTickets() {
  const { t } = useTranslation();
  const [reservation, setReservation] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const asked = reservation.trim();
    if (!asked) return;
    setState({ kind: 'sending' });
    try {
      await resendTickets(asked);
      setState({ kind: 'sent', reservation: asked });
    } catch (error) {
      const code = answerOf(error);
      setState({ kind: 'failed', message: code ? t(`errors.${code}`) : t('staff.loadError') });
    }
  };
  return (
    <form className="staff-resend" onSubmit={(e) => void submit(e)} aria-labelledby="staff-resend">
      <h3 id="staff-resend">{t('staffResend.title')}</h3>
      <p className="staff-resend__hint">{t('staffResend.hint')}</p>
      <label htmlFor="staff-resend-number">{t('staffResend.reservation')}</label>
      <div className="staff-resend__row">
        <input
          id="staff-resend-number"
          value={reservation}
          onChange={(e) => setReservation(e.target.value)}
          autoComplete="off"
          inputMode="text"
          maxLength={64}
          required
        />
        <button type="submit" className="staff-button" disabled={state.kind === 'sending'}>
          {t('staffResend.send')}
        </button>
      </div>
      <p
        role={state.kind === 'failed' ? 'alert' : 'status'}
        className={state.kind === 'failed' ? 'staff-resend__error' : 'staff-resend__done'}
      >
        {state.kind === 'sent' && t('staffResend.sent', { reservation: state.reservation })}
        {state.kind === 'failed' && state.message}
      </p>
    </form>
  );
}
