import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useForm, useWatch, type FieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/apiErrors';
import {
  INVOICE_FIELDS,
  PERSONAL_FIELDS,
  customerInfoSchema,
  emptyCustomerInfo,
  fieldErrorsFromServer,
  fieldOption,
  invoiceEnabled,
  isTermRequired,
  ruleWords,
  type CheckoutConfig,
  type CustomerInfo,
  type ErrorField,
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
  /** Every change the buyer makes, e.g. to keep a draft through a reload. */
  onValuesChange?: (values: Partial<CustomerInfo>) => void;
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
  onValuesChange,
}: CustomerInfoFormProps) {
  const { t, i18n } = useTranslation();
  const idPrefix = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // The spec's rules as a zod schema whose messages are the spec's words in the buyer's language.
  const schema = useMemo(() => customerInfoSchema(config, ruleWords(t)), [config, t]);
  const {
    register,
    handleSubmit,
    getValues,
    setValue,
    subscribe,
    setError,
    trigger,
    control,
    formState: { errors: formErrors, isSubmitted, isSubmitting },
  } = useForm<CustomerInfo, unknown, CustomerInfo>({
    resolver: zodResolver(schema),
    defaultValues: {
      ...emptyCustomerInfo(config),
      ...initialValues,
      // No invoice can be asked for where the site offers none (its fields would not show).
      invoiceRequested: invoiceEnabled(config) && (initialValues?.invoiceRequested ?? false),
    },
    mode: 'onSubmit',
    // After the first try every field is checked again on each change (recheck), not one.
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  // The issues sit on the server's field names (`terms`, `location`), not all of them inputs.
  const errors = formErrors as Partial<Record<ErrorField, FieldError>>;
  const [failure, setFailure] = useState<string | null>(null);
  // Set after a failed check: the next render's first field in error takes the focus.
  const focusWanted = useRef(false);
  const fromParent = useMemo(() => fieldErrorsFromServer(serverError), [serverError]);
  const checking = isSubmitted || fromParent !== null;

  /** A server formValidation on the fields, in the words the form would use. */
  const showServerErrors = useCallback(
    (fields: FieldErrors) => {
      const words = ruleWords(t);
      for (const [field, rule] of Object.entries(fields)) {
        const name = field as ErrorField;
        setError(name as keyof CustomerInfo, {
          type: rule,
          message: words(name, rule, getValues()),
        });
      }
      focusWanted.current = true;
    },
    [t, setError, getValues],
  );

  useEffect(() => {
    if (!onValuesChange) return;
    return subscribe({
      formState: { values: true },
      callback: ({ values }) => onValuesChange(values),
    });
  }, [subscribe, onValuesChange]);

  // A server answer handed in by the parent goes on the fields once.
  useEffect(() => {
    if (fromParent) showServerErrors(fromParent);
  }, [fromParent, showServerErrors]);

  // Before the browser paints the errors, so the focus lands with them.
  useLayoutEffect(() => {
    if (!focusWanted.current) return;
    const first = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (!first) return;
    focusWanted.current = false;
    first.focus();
  });

  // Once the buyer has tried to send, errors follow the typing (and the language).
  const recheck = () => {
    if (checking) void trigger();
  };
  const judgedBy = useRef(schema);
  useEffect(() => {
    // Only a new schema (another language or config) asks again by itself.
    if (judgedBy.current === schema) return;
    judgedBy.current = schema;
    if (checking) void trigger();
  }, [schema, checking, trigger]);

  const en = i18n.language !== 'he' && i18n.language !== 'ar';
  const id = (field: string) => `${idPrefix}-${field}`;
  const errorId = (field: TextField | 'terms') => `${idPrefix}-${field}-error`;
  const message = (field: TextField | 'terms') => errors[field]?.message ?? null;
  const invoiceRequested = useWatch({ control, name: 'invoiceRequested' });
  const acceptedTerms = useWatch({ control, name: 'acceptedTerms' });
  const mailingAllowed = useWatch({ control, name: 'mailingAllowed' });

  /** The details passed the schema: sent; a server formValidation comes back on the fields. */
  async function send(details: CustomerInfo) {
    setFailure(null);
    try {
      await onSubmit(details);
    } catch (error) {
      const fromServer = fieldErrorsFromServer(error);
      if (fromServer) showServerErrors(fromServer);
      else setFailure(errorMessage(t, error));
    }
  }

  function renderField(field: TextField) {
    const option = fieldOption(field, config, invoiceRequested);
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
          type={INPUT_TYPES[field] ?? 'text'}
          inputMode={NUMERIC_FIELDS.has(field) ? 'numeric' : isPhone ? 'tel' : undefined}
          dir={LTR_FIELDS.has(field) ? 'ltr' : undefined}
          autoComplete={AUTOCOMPLETE[field] ?? (field.startsWith('verify') ? 'off' : undefined)}
          {...register(field, { onChange: recheck })}
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
  const hasErrors = checking && Object.keys(errors).length > 0;

  return (
    <form
      ref={formRef}
      className="checkout-form"
      noValidate
      onSubmit={(event) =>
        void handleSubmit(send, () => {
          focusWanted.current = true;
        })(event)
      }
    >
      <p className="checkout-form__hint">{t('checkout.form.requiredHint')}</p>

      <div className="checkout-form__grid">{PERSONAL_FIELDS.map(renderField)}</div>

      {invoiceEnabled(config) && (
        <fieldset className="checkout-form__group">
          <legend>{t('checkout.form.invoiceLegend')}</legend>
          <label className="checkout-check">
            <input type="checkbox" {...register('invoiceRequested', { onChange: recheck })} />
            <span>{t('checkout.fields.invoiceRequested')}</span>
          </label>
          {invoiceRequested && (
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
            // The marketing consent is one box: the term's, which is the mailing opt-in too.
            const consent = term.isMailingConsent === true;
            return (
              <div className="checkout-term" key={term.id}>
                <label className="checkout-check">
                  <input
                    type="checkbox"
                    name={`term-${term.id}`}
                    checked={consent ? mailingAllowed : acceptedTerms.includes(term.id)}
                    required={required}
                    aria-invalid={required && termsError ? true : undefined}
                    aria-describedby={required && termsError ? errorId('terms') : undefined}
                    onChange={(e) => {
                      setValue(
                        'acceptedTerms',
                        e.target.checked
                          ? [...acceptedTerms.filter((x) => x !== term.id), term.id]
                          : acceptedTerms.filter((x) => x !== term.id),
                        { shouldDirty: true },
                      );
                      if (consent) {
                        setValue('mailingAllowed', e.target.checked, { shouldDirty: true });
                      }
                      recheck();
                    }}
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
                {required && (
                  // The terms being accepted, to read in a new tab without leaving the order.
                  <p className="checkout-term__links">
                    <a href={`/terms?lang=${i18n.language}`} target="_blank" rel="noopener">
                      {t('checkout.form.readTerms')}
                      <span className="visually-hidden"> {t('checkout.form.newTab')}</span>
                    </a>
                    {' · '}
                    <a href={`/privacy?lang=${i18n.language}`} target="_blank" rel="noopener">
                      {t('checkout.form.readPrivacy')}
                      <span className="visually-hidden"> {t('checkout.form.newTab')}</span>
                    </a>
                  </p>
                )}
              </div>
            );
          })}
          {termsError && (
            <p className="checkout-field__error" id={errorId('terms')}>
              {termsError}
            </p>
          )}
        </fieldset>
      )}

      {showMailingOptIn && !config.terms.some((term) => term.isMailingConsent === true) && (
        <label className="checkout-check">
          <input type="checkbox" {...register('mailingAllowed', { onChange: recheck })} />
          <span>{t('checkout.fields.mailingAllowed')}</span>
        </label>
      )}

      <div className="checkout-form__summary" role="alert">
        {hasErrors ? t('validation.allFieldsCorrect') : failure}
      </div>

      <button type="submit" className="button button--primary" disabled={isSubmitting}>
        {submitLabel ?? t('checkout.form.submit')}
      </button>
    </form>
  );
}
