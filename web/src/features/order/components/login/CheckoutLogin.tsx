import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../lib/api/client';
import type { CustomerLogin } from '../../../../lib/api/customer';
import { useRequestLoginCode, useValidateLoginCode } from '../../api/customer';
import { errorMessage } from '../../../../lib/apiErrors';
import type { Captcha } from '../../../../lib/captcha';
import { parseIsraeliMobile } from '../../../../components/checkout/customerInfo';
import './CheckoutLogin.css';
import { MobileInput } from '../../../../components/checkout/MobileInput';

const num = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** The buyer's words for a failed login call (spec 8's customer codes, with their params). */
function loginErrorMessage(t: TFunction, error: unknown) {
  if (error instanceof ApiError) {
    const p = error.params ?? {};
    switch (error.code) {
      case 'INVALID_SMS_CODE':
        if (p.reason === 'expired') return t('login.expiredCode');
        if (p.reason === 'none') return t('login.noCode');
        return num(p.attemptsLeft) === undefined
          ? t('errors.INVALID_SMS_CODE')
          : t('login.wrongCode', { count: num(p.attemptsLeft) });
      case 'loginValidation':
        return t('login.tooManyAttempts', { max: num(p.maxAttempts) ?? 5 });
      case 'smsResendTooSoon':
        return t('errors.smsResendTooSoon', { seconds: num(p.retryAfterSeconds) ?? 30 });
    }
  }
  return errorMessage(t, error);
}

/**
 * Checkout login by mobile number and SMS code (spec 4: logged out, number entered, code
 * validated, logged in). The login is bound to the buyer's session on the server.
 */
export function CheckoutLogin({
  reason,
  captcha,
  onLoggedIn,
  onCancel,
  initialMobile = '',
}: {
  /** The number the buyer already typed in the details, so they need not type it twice. */
  initialMobile?: string;
  /** Why the checkout asks: a member ticket, or paying with a saved card. */
  reason: 'member' | 'savedCard';
  captcha: Captcha;
  onLoggedIn: (login: CustomerLogin) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const mobileId = useId();
  const codeId = useId();
  const hintId = useId();
  const [mobile, setMobile] = useState(initialMobile);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const requestCode = useRequestLoginCode(captcha);
  const validateCode = useValidateLoginCode();
  const busy = requestCode.isPending || validateCode.isPending;
  const codeInput = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    heading.current?.focus();
  }, []);
  useEffect(() => {
    if (sentTo) codeInput.current?.focus();
  }, [sentTo]);

  const send = (number: string) => {
    setError(null);
    const parsed = parseIsraeliMobile(number);
    if (!parsed) {
      setError(t('errors.invalid_mobileNumber'));
      return;
    }
    requestCode.mutate(parsed, {
      onSuccess: () => {
        setSentTo(parsed);
        setCode('');
      },
      onError: (e) => setError(loginErrorMessage(t, e)),
    });
  };

  const verify = () => {
    if (!sentTo) return;
    setError(null);
    const digits = code.replace(/\s/g, '');
    if (!/^\d{6}$/.test(digits)) {
      setError(t('login.codeShape'));
      return;
    }
    validateCode.mutate(
      { mobileNumber: sentTo, code: digits },
      {
        onSuccess: (login) => onLoggedIn(login),
        onError: (e) => setError(loginErrorMessage(t, e)),
      },
    );
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (sentTo) verify();
    else send(mobile);
  };

  return (
    <section className="checkout-login" aria-labelledby={titleId}>
      <h3 id={titleId} className="checkout-login__title" ref={heading} tabIndex={-1}>
        {t('login.title')}
      </h3>
      <p className="checkout-login__why">
        {reason === 'member' ? t('login.needForMember') : t('login.needForSavedCard')}
      </p>
      <form className="checkout-login__form" onSubmit={submit} noValidate>
        {sentTo === null ? (
          <div className="checkout-login__field">
            <label htmlFor={mobileId}>{t('login.mobile')}</label>
            <MobileInput
              id={mobileId}
              value={mobile}
              onChange={setMobile}
              invalid={!!error}
              describedBy={hintId}
            />
            <p id={hintId} className="checkout-login__hint">
              {t('login.mobileHint')}
            </p>
          </div>
        ) : (
          <div className="checkout-login__field">
            <p className="checkout-login__sent" role="status">
              {t('login.sent', { mobile: sentTo })}
            </p>
            <label htmlFor={codeId}>{t('login.code')}</label>
            <input
              id={codeId}
              ref={codeInput}
              type="text"
              dir="ltr"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              value={code}
              aria-describedby={hintId}
              aria-invalid={error ? true : undefined}
              onChange={(e) => setCode(e.target.value)}
            />
            <p id={hintId} className="checkout-login__hint">
              {t('login.codeHint')}
            </p>
          </div>
        )}
        <p className="checkout-login__error" role="alert">
          {error}
        </p>
        <div className="checkout-login__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {sentTo === null ? t('login.send') : t('login.verify')}
          </button>
          {sentTo !== null && (
            <>
              <button
                type="button"
                className="button button--ghost"
                disabled={busy}
                onClick={() => send(sentTo)}
              >
                {t('login.resend')}
              </button>
              <button
                type="button"
                className="button button--ghost"
                disabled={busy}
                onClick={() => {
                  setSentTo(null);
                  setError(null);
                }}
              >
                {t('login.changeNumber')}
              </button>
            </>
          )}
          {onCancel && (
            <button type="button" className="button button--ghost" onClick={onCancel}>
              {t('login.cancel')}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
