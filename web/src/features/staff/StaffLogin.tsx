// The staff login: email and password, and the authenticator code when the account has one.
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api/client';
import { staffKeys, staffLogin } from './api';

export function StaffLogin() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await staffLogin({
        email,
        password,
        totpCode: needsCode ? code : undefined,
      });
      queryClient.setQueryData(staffKeys.me, answer);
    } catch (err) {
      if (err instanceof ApiError && err.params?.totpRequired === true) {
        if (needsCode) setError(t('staff.login.wrongCode'));
        setNeedsCode(true);
      } else if (err instanceof ApiError && err.code === 'tooManyLoginAttempts') {
        setError(t('staff.login.tooMany'));
      } else if (err instanceof ApiError && err.code === 'LOGIN_FAILED') {
        setError(t('staff.login.failed'));
      } else {
        setError(t('staff.loadError'));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="staff staff--login">
      <form className="staff-login" onSubmit={(e) => void submit(e)}>
        <h1>{t('staff.login.title')}</h1>
        <p className="staff-login__hint">{t('staff.login.hint')}</p>
        <label>
          {t('staff.login.email')}
          <input
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <label>
          {t('staff.login.password')}
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        {needsCode && (
          <label>
            {t('staff.login.code')}
            <input
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
            />
          </label>
        )}
        {error && (
          <p className="staff-login__error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="staff-button" disabled={busy}>
          {t('staff.login.submit')}
        </button>
      </form>
    </main>
  );
}
