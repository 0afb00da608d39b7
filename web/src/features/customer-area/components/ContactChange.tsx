import { useReducer } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';
import { useCaptcha } from '../../../lib/captcha';
import { useContactChange, type ContactKind } from '../api/customerArea';
import { localMobile } from '../model/profile';

/** The steps of one change, as one reducer (the house's model for a step's state). */
type State =
  | { step: 'idle'; done: string | null }
  | { step: 'enter'; value: string; error: string | null }
  | { step: 'code'; value: string; code: string; error: string | null };

type Action =
  | { type: 'open' }
  | { type: 'cancel' }
  | { type: 'value'; value: string }
  | { type: 'sent' }
  | { type: 'code'; code: string }
  | { type: 'failed'; error: string }
  | { type: 'changed'; value: string };

function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'open':
      return { step: 'enter', value: '', error: null };
    case 'cancel':
      return { step: 'idle', done: null };
    case 'value':
      return state.step === 'enter' ? { ...state, value: action.value, error: null } : state;
    case 'sent':
      return state.step === 'idle'
        ? state
        : { step: 'code', value: state.value, code: '', error: null };
    case 'code':
      return state.step === 'code' ? { ...state, code: action.code, error: null } : state;
    case 'failed':
      return state.step === 'idle' ? state : { ...state, error: action.error };
    case 'changed':
      return { step: 'idle', done: action.value };
  }
}

/**
 * Changing the email address or the mobile number: the new one gets a code (a mail, or an SMS),
 * and only the code brought back makes the change. The old address is told by mail.
 */
export function ContactChange({ kind }: { kind: ContactKind }) {
  const { t } = useTranslation();
  const captcha = useCaptcha();
  const { request, confirm } = useContactChange(kind);
  const [state, dispatch] = useReducer(reducer, { step: 'idle', done: null });
  const busy = request.isPending || confirm.isPending;
  const id = `contact-${kind}`;
  const shown = (v: string) => (kind === 'mobile' ? localMobile(v) || v : v);

  async function send() {
    if (state.step === 'idle') return;
    try {
      await request.mutateAsync({
        value: state.value.trim(),
        recaptchaToken: await captcha(kind === 'email' ? 'email_change' : 'mobile_change'),
      });
      dispatch({ type: 'sent' });
    } catch (e) {
      dispatch({ type: 'failed', error: errorMessage(t, e) });
    }
  }

  async function prove() {
    if (state.step !== 'code') return;
    try {
      const answer = await confirm.mutateAsync({
        value: state.value.trim(),
        code: state.code.trim(),
      });
      dispatch({
        type: 'changed',
        value: kind === 'email' ? answer.EmailAddress1 : localMobile(answer.MobileNumber1),
      });
    } catch (e) {
      // A mistyped mailed code is not a dead link: say so, not "request a new link".
      const wrong =
        e instanceof ApiError && e.code === 'CUSTOMER_TOKEN_ERROR' && e.params?.reason === 'wrong';
      dispatch({
        type: 'failed',
        error: wrong ? t('contactChange.wrongCode') : errorMessage(t, e),
      });
    }
  }

  if (state.step === 'idle') {
    return (
      <div className="contact-change">
        <button
          type="button"
          className="button button--ghost"
          onClick={() => dispatch({ type: 'open' })}
        >
          {t(kind === 'email' ? 'contactChange.changeEmail' : 'contactChange.changeMobile')}
        </button>
        {state.done && (
          <p className="contact-change__done" role="status">
            {t(kind === 'email' ? 'contactChange.emailChanged' : 'contactChange.mobileChanged', {
              value: state.done,
            })}
          </p>
        )}
      </div>
    );
  }

  return (
    <form
      className="contact-change contact-change--open"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void (state.step === 'enter' ? send() : prove());
      }}
    >
      <p id={`${id}-title`} className="contact-change__title">
        {t(kind === 'email' ? 'contactChange.changeEmail' : 'contactChange.changeMobile')}
      </p>
      {state.step === 'enter' ? (
        <div className="area__field">
          <label htmlFor={`${id}-value`}>
            {t(kind === 'email' ? 'contactChange.newEmail' : 'contactChange.newMobile')}
          </label>
          <input
            id={`${id}-value`}
            className="area__input contact-change__input"
            type={kind === 'email' ? 'email' : 'tel'}
            dir="ltr"
            autoComplete={kind === 'email' ? 'email' : 'tel'}
            inputMode={kind === 'email' ? 'email' : 'tel'}
            value={state.value}
            aria-invalid={state.error ? true : undefined}
            aria-describedby={state.error ? `${id}-error` : undefined}
            onChange={(e) => dispatch({ type: 'value', value: e.target.value })}
          />
        </div>
      ) : (
        <>
          <p className="area__hint" role="status">
            {t(kind === 'email' ? 'contactChange.emailSent' : 'contactChange.mobileSent', {
              value: shown(state.value.trim()),
            })}
          </p>
          <div className="area__field">
            <label htmlFor={`${id}-code`}>
              {t(kind === 'email' ? 'contactChange.codeFromMail' : 'contactChange.codeFromSms')}
            </label>
            <input
              id={`${id}-code`}
              className="area__input contact-change__input contact-change__input--code"
              dir="ltr"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              value={state.code}
              aria-invalid={state.error ? true : undefined}
              aria-describedby={state.error ? `${id}-error` : undefined}
              onChange={(e) => dispatch({ type: 'code', code: e.target.value })}
            />
          </div>
        </>
      )}
      <p id={`${id}-error`} className="contact-change__error" role="alert">
        {state.error}
      </p>
      <div className="contact-change__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {t(state.step === 'enter' ? 'contactChange.sendCode' : 'contactChange.confirm')}
        </button>
        {state.step === 'code' && (
          <button
            type="button"
            className="button button--ghost"
            disabled={busy}
            onClick={() => void send()}
          >
            {t('contactChange.resend')}
          </button>
        )}
        <button
          type="button"
          className="button button--ghost"
          disabled={busy}
          onClick={() => dispatch({ type: 'cancel' })}
        >
          {t('contactChange.cancel')}
        </button>
      </div>
    </form>
  );
}
