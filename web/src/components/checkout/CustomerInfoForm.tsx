import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/apiErrors';
import {
  FIELD_LENGTHS,
  INVOICE_FIELDS,
  PERSONAL_FIELDS,
  emptyCustomerInfo,
  fieldErrorsFromServer,
  fieldOption,
  invoiceEnabled,
  isTermRequired,
  normaliseCustomerInfo,
  validateCustomerInfo,
  type CheckoutConfig,
  type CustomerInfo,
  type FieldErrors,
  type TextField,
} from './customerInfo';
import './CustomerInfoForm.css';

export interface CustomerInfoFormProps {
  config: CheckoutConfig;
  /** Details to start from (a logged-in customer's, or what the buyer typed before). */
  initialValues?: Partial<CustomerInfo>;
  /**
   * Called with the normalised details once they pass the client rules. A rejection carrying a
   * server `formValidation` (with `params.fields`) is shown on the fields.
   */
  onSubmit: (customerInfo: CustomerInfo) => void | Promise<void>;
  /** A server answer to show on the fields, e.g. a 422 from POST /cart handled by the parent. */
  serverError?: unknown;
  submitLabel?: string;
  /** The separate mailing opt-in; hide it where a term already asks the same. */
  showMailingOptIn?: boolean;
}

const INPUT_TYPES: Partial<Record<TextField, string>> = {
  email: 'email',
  verifyEmailAddress: 'email',
  mobileNumber: 'tel',
  verifyMobileNumber: 'tel',
  dateOfBirth: 'date',
};

const AUTOCOMPLETE: Partial<Record<TextField, string>> = {
  firstName: 'given-name',
  lastName: 'family-name',
  email: 'email',
  mobileNumber: 'tel',
  address1: 'address-line1',
  address2: 'address-line2',
  city: 'address-level2',
  postalCode: 'postal-code',
  dateOfBirth: 'bday',
};

const NUMERIC_FIELDS = new Set<TextField>(['ssn', 'postalCode', 'invoiceSSN', 'invoicePostalCode']);
// Numbers and addresses of the web read left to right even on a Hebrew page.
const LTR_FIELDS = new Set<TextField>([
  'email',
  'verifyEmailAddress',
  'mobileNumber',
  'verifyMobileNumber',
  'ssn',
  'postalCode',
  'invoiceSSN',
  'invoicePostalCode',
]);

/** The customer-details step: the fields the site asks for, the terms and the mailing opt-in. */
export function CustomerInfoForm({
  config,
  initialValues,
  onSubmit,
  serverError,
  submitLabel,
  showMailingOptIn = true,
}: CustomerInfoFormProps) {
  const { t, i18n } = useTranslation();
  const idPrefix = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<CustomerInfo>(() => ({
    ...emptyCustomerInfo(config),
    ...initialValues,
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [shownServerError, setShownServerError] = useState<unknown>(undefined);
  const [focusRequest, setFocusRequest] = useState(0);

  // A new server answer replaces the field errors once (React's "adjust state on prop change").
  if (serverError !== shownServerError) {
    setShownServerError(serverError);
    const fromServer = fieldErrorsFromServer(serverError);
    if (fromServer) {
      setErrors(fromServer);
      setSubmitted(true);
      setFocusRequest((n) => n + 1);
    }
  }

  // Bumped after a failed check: move the focus to the first field in error.
  useEffect(() => {
    if (focusRequest === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const en = i18n.language !== 'he' && i18n.language !== 'ar';
  const id = (field: string) => `${idPrefix}-${field}`;
  const errorId = (field: TextField | 'terms') => `${idPrefix}-${field}-error`;

  function update(next: CustomerInfo) {
    setValues(next);
    // Once the buyer has tried to send, errors follow the typing.
    if (submitted) setErrors(validateCustomerInfo(next, config));
  }

  function setField(field: TextField, value: string) {
    update({ ...values, [field]: value });
  }

  /** The words for a field's broken rule (the branch has no field of its own here). */
  function message(field: TextField | 'terms'): string | null {
    const rule = errors[field];
    if (!rule) return null;
    const name = field === 'terms' ? '' : t(`checkout.fields.${field}`);
    switch (rule) {
      case 'required':
        // The server also says "required" for a date it cannot read.
        return field !== 'terms' && values[field].trim() !== ''
          ? t('validation.fieldNotValid', { field: name })
          : t('validation.required', { name });
      case 'alpha':
        return t('validation.alpha');
      case 'email':
        return t('validation.email');
      case 'numeric':
        return t('validation.numeric');
      case 'min':
      case 'max': {
        const lengths = field === 'terms' ? undefined : FIELD_LENGTHS[field];
        // The server names any wrong length of a postal code `min`; a long one reads "at most".
        const typed = field === 'terms' ? 0 : [...values[field].trim()].length;
        const side = lengths?.max !== undefined && typed > lengths.max ? 'max' : rule;
        const length = side === 'min' ? lengths?.min : lengths?.max;
        return length === undefined
          ? t('validation.fieldNotValid', { field: name })
          : t(`validation.${side}`, { length });
      }
      case 'confirmation':
        return field === 'verifyMobileNumber'
          ? t('validation.mobileMismatch')
          : t('validation.emailMismatch');
      case 'mobile':
        return t('errors.invalid_mobileNumber');
      case 'idNumber':
        return t('validation.idNumberInvalid');
      case 'terms':
        return t('validation.termsRequired');
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSubmitted(true);
    const found = validateCustomerInfo(values, config);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setFocusRequest((n) => n + 1);
      return;
    }
    setSending(true);
    setFailure(null);
    try {
      await onSubmit(normaliseCustomerInfo(values));
    } catch (error) {
      const fromServer = fieldErrorsFromServer(error);
      if (fromServer) {
        setErrors(fromServer);
        setFocusRequest((n) => n + 1);
      } else {
        setFailure(errorMessage(t, error));
      }
    } finally {
      setSending(false);
    }
  }

  function renderField(field: TextField) {
    const option = fieldOption(field, config, values.invoiceRequested);
    if (!option.isIncluded) return null;
    const error = message(field);
    const isPhone = field === 'mobileNumber' || field === 'verifyMobileNumber';
    const describedBy = [isPhone ? id(`${field}-hint`) : null, error ? errorId(field) : null]
      .filter(Boolean)
      .join(' ');
    return (
      <div className="checkout-field" key={field}>
        <label className="checkout-field__label" htmlFor={id(field)}>
          {t(`checkout.fields.${field}`)}
          {option.isRequired && (
            <span className="checkout-field__required" aria-hidden="true">
              {' *'}
            </span>
          )}
        </label>
        <input
          id={id(field)}
          className="checkout-field__input"
          name={field}
          type={INPUT_TYPES[field] ?? 'text'}
          inputMode={NUMERIC_FIELDS.has(field) ? 'numeric' : isPhone ? 'tel' : undefined}
          dir={LTR_FIELDS.has(field) ? 'ltr' : undefined}
          autoComplete={AUTOCOMPLETE[field] ?? (field.startsWith('verify') ? 'off' : undefined)}
          value={values[field]}
          onChange={(e) => setField(field, e.target.value)}
          required={option.isRequired}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
        />
        {isPhone && (
          <p className="checkout-field__hint" id={id(`${field}-hint`)}>
            {t('checkout.form.mobileHint')}
          </p>
        )}
        {error && (
          <p className="checkout-field__error" id={errorId(field)}>
            {error}
          </p>
        )}
      </div>
    );
  }

  const termsError = message('terms');
  const hasErrors = submitted && Object.keys(errors).length > 0;

  return (
    <form ref={formRef} className="checkout-form" noValidate onSubmit={handleSubmit}>
      <p className="checkout-form__hint">{t('checkout.form.requiredHint')}</p>

      <div className="checkout-form__grid">{PERSONAL_FIELDS.map(renderField)}</div>

      {invoiceEnabled(config) && (
        <fieldset className="checkout-form__group">
          <legend>{t('checkout.form.invoiceLegend')}</legend>
          <label className="checkout-check">
            <input
              type="checkbox"
              name="invoiceRequested"
              checked={values.invoiceRequested}
              onChange={(e) => update({ ...values, invoiceRequested: e.target.checked })}
            />
            <span>{t('checkout.fields.invoiceRequested')}</span>
          </label>
          {values.invoiceRequested && (
            <div className="checkout-form__grid">{INVOICE_FIELDS.map(renderField)}</div>
          )}
        </fieldset>
      )}

      {config.terms.length > 0 && (
        <fieldset
          className="checkout-form__group"
          aria-describedby={termsError ? errorId('terms') : undefined}
        >
          <legend>{t('checkout.form.termsLegend')}</legend>
          {config.terms.map((term) => {
            const required = isTermRequired(term, config);
            return (
              <label className="checkout-check" key={term.id}>
                <input
                  type="checkbox"
                  name={`term-${term.id}`}
                  checked={values.acceptedTerms.includes(term.id)}
                  required={required}
                  aria-invalid={required && termsError ? true : undefined}
                  aria-describedby={required && termsError ? errorId('terms') : undefined}
                  onChange={(e) =>
                    update({
                      ...values,
                      acceptedTerms: e.target.checked
                        ? [...values.acceptedTerms, term.id]
                        : values.acceptedTerms.filter((x) => x !== term.id),
                    })
                  }
                />
                <span>
                  {en ? term.textEn || term.text : term.text}
                  {required && (
                    <span className="checkout-field__required" aria-hidden="true">
                      {' *'}
                    </span>
                  )}
                </span>
              </label>
            );
          })}
          {termsError && (
            <p className="checkout-field__error" id={errorId('terms')}>
              {termsError}
            </p>
          )}
        </fieldset>
      )}

      {showMailingOptIn && (
        <label className="checkout-check">
          <input
            type="checkbox"
            name="mailingAllowed"
            checked={values.mailingAllowed}
            onChange={(e) => update({ ...values, mailingAllowed: e.target.checked })}
          />
          <span>{t('checkout.fields.mailingAllowed')}</span>
        </label>
      )}

      <div className="checkout-form__summary" role="alert">
        {hasErrors ? t('validation.allFieldsCorrect') : failure}
      </div>

      <button type="submit" className="button button--primary" disabled={sending}>
        {submitLabel ?? t('checkout.form.submit')}
      </button>
    </form>
  );
}
