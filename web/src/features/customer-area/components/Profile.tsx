import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api/client';
import { errorMessage } from '../../../lib/apiErrors';
import { localizedName } from '../../../lib/localized';
import { locationsQuery, useUpdateProfile, type AreaCustomer } from '../api/customerArea';
import { ContactChange } from './ContactChange';
import {
  localMobile,
  profileBody,
  profileSchema,
  profileValues,
  serverFieldErrors,
  type ProfileField,
  type ProfileValues,
} from '../model/profile';

const TEXT_FIELDS: { name: ProfileField; type?: string; autoComplete?: string; ltr?: boolean }[] = [
  { name: 'firstName', autoComplete: 'given-name' },
  { name: 'lastName', autoComplete: 'family-name' },
  { name: 'address1', autoComplete: 'address-line1' },
  { name: 'address2', autoComplete: 'address-line2' },
  { name: 'city', autoComplete: 'address-level2' },
  { name: 'postalCode', autoComplete: 'postal-code', ltr: true },
  { name: 'dateOfBirth', type: 'date', autoComplete: 'bday', ltr: true },
  { name: 'licensePlateNumber', ltr: true },
];

const CONSENTS: ProfileField[] = ['isMailingAllowed', 'isSMSAllowed', 'isEmailAllowed'];

/** The profile: what the customer may change (email and mobile once proven by a code), and the ID. */
export function ProfileSection({ customer }: { customer: AreaCustomer }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const locations = useQuery(locationsQuery);
  const update = useUpdateProfile();
  const schema = useMemo(() => profileSchema(), []);
  const form = useForm<ProfileValues>({
    resolver: zodResolver(schema),
    defaultValues: profileValues(customer),
  });
  const { register, handleSubmit, formState, setError, reset } = form;

  useEffect(() => {
    reset(profileValues(customer));
  }, [customer, reset]);

  const onSubmit = handleSubmit((values) =>
    update.mutateAsync(profileBody(values)).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'formValidation') {
        for (const [field, rule] of Object.entries(serverFieldErrors(error.params))) {
          setError(field as ProfileField, { type: 'server', message: rule });
        }
      }
    }),
  );

  const ruleText = (field: ProfileField, rule: string) =>
    t(`customerArea.profile.rules.${rule}`, {
      field: t(`customerArea.profile.fields.${field}`),
      defaultValue: t('customerArea.profile.rules.invalid'),
    });

  return (
    <section className="area__section" id="area-profile" aria-labelledby="area-profile-title">
      <h2 id="area-profile-title" className="area__heading">
        {t('customerArea.profile.title')}
      </h2>
      <dl className="area__facts">
        <div>
          <dt>{t('customerArea.profile.email')}</dt>
          <dd>
            <bdi dir="ltr">{customer.EmailAddress1 || '—'}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('customerArea.profile.mobile')}</dt>
          <dd>
            <bdi dir="ltr">{localMobile(customer.MobileNumber1) || '—'}</bdi>
          </dd>
        </div>
        <div>
          <dt>{t('customerArea.profile.ssn')}</dt>
          <dd>
            <bdi dir="ltr">{customer.SSN || '—'}</bdi>
          </dd>
        </div>
      </dl>
      <p className="area__hint">{t('contactChange.hint')}</p>
      <ContactChange kind="email" />
      <ContactChange kind="mobile" />
      <form className="area__form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <div className="area__grid">
          {TEXT_FIELDS.map(({ name, type, autoComplete, ltr }) => {
            const id = `profile-${name}`;
            const error = formState.errors[name]?.message;
            return (
              <div key={name} className="area__field">
                <label htmlFor={id}>{t(`customerArea.profile.fields.${name}`)}</label>
                <input
                  id={id}
                  className="area__input"
                  type={type ?? 'text'}
                  dir={ltr ? 'ltr' : 'auto'}
                  autoComplete={autoComplete}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  {...register(name)}
                />
                {error && (
                  <p id={`${id}-error`} className="area__field-error">
                    {ruleText(name, error)}
                  </p>
                )}
              </div>
            );
          })}
          <div className="area__field">
            <label htmlFor="profile-location">{t('customerArea.profile.fields.location')}</label>
            <select
              id="profile-location"
              className="area__input"
              aria-invalid={formState.errors.location ? true : undefined}
              {...register('location')}
            >
              <option value="">{t('customerArea.profile.noLocation')}</option>
              {(locations.data?.locations ?? []).map((l) => (
                <option key={l.id} value={String(l.id)}>
                  {localizedName(lang, l.name, l.nameEn)}
                </option>
              ))}
            </select>
            {formState.errors.location?.message && (
              <p className="area__field-error">
                {ruleText('location', formState.errors.location.message)}
              </p>
            )}
          </div>
        </div>
        <fieldset className="area__consents">
          <legend>{t('customerArea.profile.consents')}</legend>
          {CONSENTS.map((name) => (
            <label key={name} className="area__check">
              <input type="checkbox" {...register(name)} />
              {t(`customerArea.profile.fields.${name}`)}
            </label>
          ))}
        </fieldset>
        <div className="area__actions">
          <button type="submit" className="button button--primary" disabled={update.isPending}>
            {t('customerArea.profile.save')}
          </button>
        </div>
        <p role="status" className="area__status">
          {update.isSuccess && !formState.isDirty ? t('customerArea.profile.saved') : ''}
          {update.isError &&
          !(update.error instanceof ApiError && update.error.code === 'formValidation')
            ? errorMessage(t, update.error)
            : ''}
        </p>
      </form>
    </section>
  );
}
