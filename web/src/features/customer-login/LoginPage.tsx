// The customer area's login page (/customer-area/login): the methods the site config enables,
// mobile + SMS code first by default. After a login: ?returnTo (same site only) or /customer-area.
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { customerKeys } from '../../lib/api/customer';
import { useCaptcha } from '../../lib/captcha';
import { useConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/documentTitle';
import { usePageLanguage, withLang } from '../../lib/lang';
import { type LoginMethod, enabledMethods, loginApi, rememberReturnTo, safeReturnTo } from './api';
import { loginError } from './messages';
import './customerLogin.css';

/** Runs a login call; on success refreshes who is logged in and goes on. */
function useLoginFlow() {
  const { t } = useTranslation();
  const { lang, requested } = usePageLanguage();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async <T,>(call: () => Promise<T>, then?: (r: T) => string | null) => {
    setBusy(true);
    setError(null);
    try {
      const r = await call();
      const to = then ? then(r) : safeReturnTo(params.get('returnTo'));
      if (to) {
        await queryClient.invalidateQueries({ queryKey: customerKeys.me });
        void navigate(withLang(to, requested));
      }
      return r;
    } catch (e) {
      setError(loginError(t, e, lang));
      return null;
    } finally {
      setBusy(false);
    }
  };
  return { run, error, busy, setError };
}

function Field(props: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  type?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'tel' | 'email' | 'text';
  hint?: string;
}) {
  return (
    <div className="cl-field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type={props.type ?? 'text'}
        dir={
          props.type === 'email' || props.inputMode === 'tel' || props.inputMode === 'numeric'
            ? 'ltr'
            : undefined
        }
        value={props.value}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        required
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.hint && (
        <p className="cl-hint" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

function Form(props: {
  onSubmit: () => void;
  submit: string;
  busy: boolean;
  error: string | null;
  info?: string | null;
  children: ReactNode;
  label: string;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onSubmit();
  };
  return (
    <form className="cl-form" onSubmit={submit} aria-label={props.label} noValidate>
      {props.children}
      {props.error && (
        <p className="cl-error" role="alert">
          {props.error}
        </p>
      )}
      {props.info && (
        <p className="cl-info" role="status">
          {props.info}
        </p>
      )}
      <button type="submit" className="cl-submit" disabled={props.busy}>
        {props.submit}
      </button>
    </form>
  );
}

export function PhoneLogin() {
  const { t } = useTranslation();
  const captcha = useCaptcha();
  const flow = useLoginFlow();
  const [mobile, setMobile] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  if (!sent) {
    return (
      <Form
        label={t('customerLogin.byPhone')}
        submit={t('customerLogin.sendCode')}
        busy={flow.busy}
        error={flow.error}
        onSubmit={() =>
          void flow.run(
            async () => loginApi.areaSendCode(mobile, await captcha('mobile_login')),
            () => {
              setSent(true);
              return null;
            },
          )
        }
      >
        <Field
          id="cl-mobile"
          label={t('customerLogin.mobile')}
          value={mobile}
          onChange={setMobile}
          inputMode="tel"
          autoComplete="tel"
          hint={t('customerLogin.mobileHint')}
        />
      </Form>
    );
  }
  return (
    <Form
      label={t('customerLogin.byPhone')}
      submit={t('customerLogin.login')}
      busy={flow.busy}
      error={flow.error}
      info={t('customerLogin.codeSent', { mobile })}
      onSubmit={() => void flow.run(() => loginApi.areaValidate(code.trim()))}
    >
      <Field
        id="cl-sms"
        label={t('customerLogin.smsCode')}
        value={code}
        onChange={setCode}
        inputMode="numeric"
        autoComplete="one-time-code"
      />
      <button type="button" className="cl-link" onClick={() => setSent(false)}>
        {t('customerLogin.otherNumber')}
      </button>
    </Form>
  );
}

export function EmailLogin() {
  const { t } = useTranslation();
  const captcha = useCaptcha();
  const flow = useLoginFlow();
  const [params] = useSearchParams();
  const [mode, setMode] = useState<'login' | 'register' | 'forgot'>(
    params.get('forgot') ? 'forgot' : params.get('register') ? 'register' : 'login',
  );
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [first, setFirst] = useState('');
  const [last, setLast] = useState('');
  const [info, setInfo] = useState<string | null>(null);
  const switchTo = (m: typeof mode) => {
    setMode(m);
    setInfo(null);
    flow.setError(null);
  };
  const links = (
    <p className="cl-links">
      {mode !== 'login' && (
        <button type="button" className="cl-link" onClick={() => switchTo('login')}>
          {t('customerLogin.haveAccount')}
        </button>
      )}
      {mode !== 'register' && (
        <button type="button" className="cl-link" onClick={() => switchTo('register')}>
          {t('customerLogin.register')}
        </button>
      )}
      {mode !== 'forgot' && (
        <button type="button" className="cl-link" onClick={() => switchTo('forgot')}>
          {t('customerLogin.forgot')}
        </button>
      )}
    </p>
  );
  const emailField = (
    <Field
      id="cl-email"
      label={t('customerLogin.email')}
      value={email}
      onChange={setEmail}
      type="email"
      autoComplete="email"
    />
  );
  // A new password (registering, with its rule) or the one the customer has.
  const passwordField = (autoComplete: 'new-password' | 'current-password', hint?: string) => (
    <Field
      id="cl-password"
      label={t('customerLogin.password')}
      value={password}
      onChange={setPassword}
      type="password"
      autoComplete={autoComplete}
      hint={hint}
    />
  );
  if (mode === 'register') {
    return (
      <Form
        label={t('customerLogin.register')}
        submit={t('customerLogin.register')}
        busy={flow.busy}
        error={flow.error}
        info={info}
        onSubmit={() =>
          void flow.run(
            async () =>
              loginApi.register({
                firstName: first,
                lastName: last,
                email,
                password,
                mobileNumber: '',
                mailingAllowed: false,
                recaptchaToken: await captcha('register'),
              }),
            () => {
              // The mailed link logs the new customer in, maybe in another tab: it goes on
              // where this page was to go (a voucher checkout waiting for its buyer).
              rememberReturnTo(params.get('returnTo'));
              setInfo(t('customerLogin.registered', { email }));
              return null;
            },
          )
        }
      >
        <Field
          id="cl-first"
          label={t('customerLogin.firstName')}
          value={first}
          onChange={setFirst}
          autoComplete="given-name"
        />
        <Field
          id="cl-last"
          label={t('customerLogin.lastName')}
          value={last}
          onChange={setLast}
          autoComplete="family-name"
        />
        {emailField}
        {passwordField('new-password', t('customerLogin.passwordRule'))}
        {links}
      </Form>
    );
  }
  if (mode === 'forgot') {
    return (
      <Form
        label={t('customerLogin.forgot')}
        submit={t('customerLogin.sendLink')}
        busy={flow.busy}
        error={flow.error}
        info={info}
        onSubmit={() =>
          void flow.run(
            async () => loginApi.forgot(email, await captcha('password_reset')),
            () => {
              setInfo(t('customerLogin.resetSent', { email }));
              return null;
            },
          )
        }
      >
        {emailField}
        {links}
      </Form>
    );
  }
  return (
    <Form
      label={t('customerLogin.byEmailAndPassword')}
      submit={t('customerLogin.login')}
      busy={flow.busy}
      error={flow.error}
      onSubmit={() =>
        void flow.run(async () => loginApi.password(email, password, await captcha('login')))
      }
    >
      {emailField}
      {passwordField('current-password')}
      {links}
    </Form>
  );
}

export function MemberLogin() {
  const { t } = useTranslation();
  const captcha = useCaptcha();
  const flow = useLoginFlow();
  const [member, setMember] = useState('');
  const [ssn, setSsn] = useState('');
  return (
    <Form
      label={t('customerLogin.byMemberNumberAndSsn')}
      submit={t('customerLogin.login')}
      busy={flow.busy}
      error={flow.error}
      onSubmit={() =>
        void flow.run(async () => loginApi.member(member, ssn, await captcha('member_login')))
      }
    >
      <Field
        id="cl-member"
        label={t('customerLogin.memberNumber')}
        value={member}
        onChange={setMember}
        inputMode="numeric"
      />
      <Field
        id="cl-ssn"
        label={t('customerLogin.ssn')}
        value={ssn}
        onChange={setSsn}
        inputMode="numeric"
        hint={t('customerLogin.ssnHint')}
      />
    </Form>
  );
}

export function ReservationLogin() {
  const { t } = useTranslation();
  const returnTo = useSearchParams()[0].get('returnTo');
  const captcha = useCaptcha();
  const flow = useLoginFlow();
  const [number, setNumber] = useState('');
  const [contact, setContact] = useState('');
  return (
    <Form
      label={t('customerLogin.byReservationNumber')}
      submit={t('customerLogin.findOrder')}
      busy={flow.busy}
      error={flow.error}
      onSubmit={() =>
        void flow.run(
          async () => loginApi.reservation(number, contact, await captcha('reservation_login')),
          // A logged-in customer's claim adds the order to their account: back to where they
          // came from (the customer area); a guest goes on to the reservation itself.
          (r) =>
            r.claimed && returnTo
              ? safeReturnTo(returnTo)
              : `/reservation/${encodeURIComponent(r.reservationIdentifier)}`,
        )
      }
    >
      <Field
        id="cl-res"
        label={t('customerLogin.reservationNumber')}
        value={number}
        onChange={setNumber}
        inputMode="numeric"
        hint={t('customerLogin.reservationHint')}
      />
      <Field
        id="cl-contact"
        label={t('customerLogin.contact')}
        value={contact}
        onChange={setContact}
        inputMode="email"
        hint={t('customerLogin.contactHint')}
      />
    </Form>
  );
}

export function MailedLogin() {
  const { t } = useTranslation();
  const captcha = useCaptcha();
  const flow = useLoginFlow();
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<'link' | 'code' | null>(null);
  const ask = (kind: 'link' | 'code') =>
    void flow.run(
      async () => loginApi.mailLogin(email, kind, await captcha('mail_login')),
      () => {
        setSent(kind);
        return null;
      },
    );
  if (sent === 'code') {
    return (
      <Form
        label={t('customerLogin.byMailedLink')}
        submit={t('customerLogin.login')}
        busy={flow.busy}
        error={flow.error}
        info={t('customerLogin.mailCodeSent', { email })}
        onSubmit={() => void flow.run(() => loginApi.mailCode(email, code.trim()))}
      >
        <Field
          id="cl-mailcode"
          label={t('customerLogin.mailCode')}
          value={code}
          onChange={setCode}
          inputMode="numeric"
          autoComplete="one-time-code"
        />
      </Form>
    );
  }
  return (
    <Form
      label={t('customerLogin.byMailedLink')}
      submit={t('customerLogin.sendLink')}
      busy={flow.busy}
      error={flow.error}
      info={sent === 'link' ? t('customerLogin.linkSent', { email }) : null}
      onSubmit={() => ask('link')}
    >
      <Field
        id="cl-mail"
        label={t('customerLogin.email')}
        value={email}
        onChange={setEmail}
        type="email"
        autoComplete="email"
      />
      <button type="button" className="cl-link" onClick={() => ask('code')} disabled={flow.busy}>
        {t('customerLogin.sendCodeInstead')}
      </button>
    </Form>
  );
}

const FORMS: Record<LoginMethod, () => ReactNode> = {
  byPhone: () => <PhoneLogin />,
  byEmailAndPassword: () => <EmailLogin />,
  byMemberNumberAndSsn: () => <MemberLogin />,
  byReservationNumber: () => <ReservationLogin />,
  byMailedLink: () => <MailedLogin />,
};

export default function LoginPage() {
  const { t } = useTranslation();
  const { raw } = useConfig();
  const [params] = useSearchParams();
  const methods = enabledMethods(raw as Record<string, unknown> | null);
  const asked = params.get('method');
  const initial =
    asked === 'email'
      ? 'byEmailAndPassword'
      : asked === 'reservation'
        ? 'byReservationNumber'
        : methods[0];
  const [method, setMethod] = useState<LoginMethod>(
    methods.includes(initial) ? initial : methods[0],
  );
  useDocumentTitle(t('customerLogin.title'));
  return (
    <main className="cl-page">
      <h1>{t('customerLogin.title')}</h1>
      <div role="tablist" aria-label={t('customerLogin.methods')} className="cl-tabs">
        {methods.map((m) => (
          <button
            key={m}
            type="button"
            role="tab"
            id={`cl-tab-${m}`}
            aria-selected={m === method}
            aria-controls="cl-panel"
            className="cl-tab"
            onClick={() => setMethod(m)}
          >
            {t(`customerLogin.${m}`)}
          </button>
        ))}
      </div>
      <section
        role="tabpanel"
        id="cl-panel"
        aria-labelledby={`cl-tab-${method}`}
        className="cl-panel"
        key={method}
      >
        {FORMS[method]()}
      </section>
    </main>
  );
}
