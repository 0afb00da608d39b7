// The pages the mailed links open: confirm the address, log in by link, choose a new password.
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { customerKeys } from '../../lib/api/customer';
import { useDocumentTitle } from '../../lib/documentTitle';
import { usePageLanguage, withLang } from '../../lib/lang';
import { loginApi, takeReturnTo } from './api';
import { loginError } from './messages';
import './customerLogin.css';

function useFinish() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { requested } = usePageLanguage();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: customerKeys.me });
    void navigate(withLang(takeReturnTo(), requested), { replace: true });
  };
}

function LinkPage({ call, title }: { call: (token: string) => Promise<unknown>; title: string }) {
  const { t } = useTranslation();
  const { lang, requested } = usePageLanguage();
  const [params] = useSearchParams();
  const finish = useFinish();
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  useDocumentTitle(title);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    call(params.get('token') ?? '').then(finish, (e: unknown) => setError(loginError(t, e, lang)));
  }, [call, finish, params, t, lang]);
  return (
    <main className="cl-page">
      <h1>{title}</h1>
      {error ? (
        <>
          <p className="cl-error" role="alert">
            {error}
          </p>
          <a className="cl-link" href={withLang('/customer-area/login', requested)}>
            {t('customerLogin.backToLogin')}
          </a>
        </>
      ) : (
        <p role="status">{t('customerLogin.checkingLink')}</p>
      )}
    </main>
  );
}

export function TokenLoginPage() {
  const { t } = useTranslation();
  return <LinkPage call={loginApi.tokenLogin} title={t('customerLogin.tokenTitle')} />;
}

export function VerifyEmailPage() {
  const { t } = useTranslation();
  return <LinkPage call={loginApi.verifyEmail} title={t('customerLogin.verifyTitle')} />;
}

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { lang, requested } = usePageLanguage();
  const [params] = useSearchParams();
  const finish = useFinish();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDocumentTitle(t('customerLogin.resetTitle'));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await loginApi.resetConfirm(params.get('token') ?? '', password);
      await finish();
    } catch (err) {
      setError(loginError(t, err, lang));
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="cl-page">
      <h1>{t('customerLogin.resetTitle')}</h1>
      <form
        className="cl-form"
        onSubmit={(e) => void submit(e)}
        aria-label={t('customerLogin.resetTitle')}
      >
        <div className="cl-field">
          <label htmlFor="cl-new-password">{t('customerLogin.newPassword')}</label>
          <input
            id="cl-new-password"
            type="password"
            autoComplete="new-password"
            required
            value={password}
            aria-describedby="cl-new-password-hint"
            onChange={(e) => setPassword(e.target.value)}
          />
          <p className="cl-hint" id="cl-new-password-hint">
            {t('customerLogin.passwordRule')}
          </p>
        </div>
        {error && (
          <p className="cl-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="cl-submit" disabled={busy}>
          {t('customerLogin.savePassword')}
        </button>
        <a className="cl-link" href={withLang('/customer-area/login', requested)}>
          {t('customerLogin.backToLogin')}
        </a>
      </form>
    </main>
  );
}

export default TokenLoginPage;
