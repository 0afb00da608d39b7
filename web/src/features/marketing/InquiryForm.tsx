import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api/client';
import { errorMessage } from '../../lib/apiErrors';
import { useCaptcha } from '../../lib/captcha';
import { todayInCinema } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { postInquiry, useComplexes } from './api';
import {
  FORM_FIELDS,
  emptyValues,
  inquiryBody,
  inquiryProblems,
  problemMessage,
  problemsFromServer,
  type InquiryField,
  type InquiryKind,
  type InquiryProblems,
} from './model/inquiry';

const INPUT: Partial<Record<InquiryField, { type: string; autoComplete?: string; dir?: 'ltr' }>> = {
  fullName: { type: 'text', autoComplete: 'name' },
  email: { type: 'email', autoComplete: 'email', dir: 'ltr' },
  mobileNumber: { type: 'tel', autoComplete: 'tel', dir: 'ltr' },
  partyDate: { type: 'date' },
  guests: { type: 'number' },
  childAge: { type: 'number' },
  position: { type: 'text' },
};

/**
 * One of the marketing pages' forms: the spec's messages beside each field, checked before
 * sending and again by the server (whose verdict lands on the same fields), then a thank-you.
 */
export function InquiryForm({ kind }: { kind: InquiryKind }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const idPrefix = useId();
  const captcha = useCaptcha();
  const complexes = useComplexes();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState(emptyValues);
  const [problems, setProblems] = useState<InquiryProblems>({});
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentId, setSentId] = useState<number | null>(null);

  const id = (field: string) => `${idPrefix}-${field}`;

  function focusFirstProblem() {
    requestAnimationFrame(() =>
      formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
    );
  }

  function change(field: InquiryField, value: string) {
    const next = { ...values, [field]: value };
    setValues(next);
    if (tried) setProblems(inquiryProblems(kind, next, todayInCinema()));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    setFailure(null);
    const found = inquiryProblems(kind, values, todayInCinema());
    setProblems(found);
    if (Object.keys(found).length > 0) {
      focusFirstProblem();
      return;
    }
    setBusy(true);
    try {
      const answer = await postInquiry({
        ...inquiryBody(kind, values),
        locale: lang,
        recaptchaToken: await captcha(`inquiry_${kind}`),
      });
      setSentId(answer.inquiryId);
    } catch (error) {
      const fromServer =
        error instanceof ApiError && error.code === 'formValidation'
          ? problemsFromServer(error.params)
          : {};
      if (Object.keys(fromServer).length > 0) {
        setProblems(fromServer);
        focusFirstProblem();
      } else {
        setFailure(errorMessage(t, error));
      }
    } finally {
      setBusy(false);
    }
  }

  if (sentId !== null) {
    return (
      <div className="mk-sent" role="status">
        <h2>{t('marketing.sentTitle')}</h2>
        <p>{t(`marketing.sent.${kind}`, { id: sentId })}</p>
      </div>
    );
  }

  const hasProblems = Object.keys(problems).length > 0;
  return (
    <form ref={formRef} className="mk-form" noValidate onSubmit={(e) => void submit(e)}>
      <p className="mk-form__note">{t('marketing.requiredNote')}</p>
      {FORM_FIELDS[kind].map(({ field, required }) => {
        const rule = problems[field];
        const message = rule ? problemMessage(t, field, rule, values[field]) : null;
        const common = {
          id: id(field),
          name: field,
          value: values[field],
          required,
          'aria-invalid': rule ? ('true' as const) : ('false' as const),
          'aria-describedby': message ? id(`${field}-error`) : undefined,
        };
        let control;
        if (field === 'message') {
          control = (
            <textarea
              {...common}
              rows={5}
              maxLength={2000}
              onChange={(e) => change(field, e.target.value)}
            />
          );
        } else if (field === 'locationId') {
          control = (
            <select {...common} onChange={(e) => change(field, e.target.value)}>
              <option value="">
                {t(required ? 'marketing.chooseComplex' : 'marketing.anyComplex')}
              </option>
              {(complexes.data?.complexes ?? []).map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {localizedName(lang, c.name, c.nameEn)}
                </option>
              ))}
            </select>
          );
        } else {
          const input = INPUT[field] ?? { type: 'text' };
          control = (
            <input
              {...common}
              type={input.type}
              autoComplete={input.autoComplete}
              dir={input.dir}
              inputMode={input.type === 'number' ? 'numeric' : undefined}
              min={field === 'partyDate' ? todayInCinema() : undefined}
              onChange={(e) => change(field, e.target.value)}
            />
          );
        }
        return (
          <div className="mk-field" key={field}>
            <label htmlFor={id(field)} className="mk-field__label">
              {t(`marketing.fields.${field}`)}
              {required && <span aria-hidden="true"> *</span>}
            </label>
            {control}
            {message && (
              <p id={id(`${field}-error`)} className="mk-field__error">
                {message}
              </p>
            )}
          </div>
        );
      })}
      {hasProblems && (
        <p className="mk-form__error" role="alert">
          {t('validation.allFieldsCorrect')}
        </p>
      )}
      {failure && (
        <p className="mk-form__error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? t('marketing.sending') : t(`marketing.submit.${kind}`)}
      </button>
    </form>
  );
}
