import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '../../components/checkout/CustomerInfoForm.css';
import { localizedName } from '../../lib/localized';
import { referenceProblem, type NeedsDetails, type ReferenceAnswers } from './choice';

/**
 * The details one chosen membership asks of its member (its price's reference prompts, checked
 * with their patterns here as the server checks them). With several such memberships chosen the
 * buyer steps through them with next and previous (spec section 4).
 */
export function MemberDetailsStep({
  item,
  at,
  count,
  answers,
  onAnswers,
  onPrevious,
  onNext,
}: {
  item: NeedsDetails;
  at: number;
  count: number;
  answers: ReferenceAnswers;
  onAnswers: (answers: ReferenceAnswers) => void;
  onPrevious: () => void;
  onNext: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const idPrefix = useId();
  const [tried, setTried] = useState(false);
  const name = localizedName(lang, item.membership.Name, item.membership.NameEn);
  const problems = item.price.references.map((r) => ({
    r,
    label: localizedName(lang, r.label, r.labelEn),
    problem: referenceProblem(r, answers[r.key]),
  }));
  const ok = problems.every((p) => p.problem === null);
  const headingId = `${idPrefix}-heading`;
  return (
    <form
      className="gift-choice membership-details"
      aria-labelledby={headingId}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setTried(true);
        if (ok) onNext();
        else {
          const first = problems.find((p) => p.problem !== null);
          if (first) document.getElementById(`${idPrefix}-${first.r.key}`)?.focus();
        }
      }}
    >
      <h2 id={headingId} className="gift-choice__title">
        {t('memberships.members.title')}: {name}
      </h2>
      {count > 1 && (
        <p className="gift-checkout__hint">
          {t('memberships.members.position', { at: at + 1, count })}
        </p>
      )}
      <p className="gift-voucher__meta">{t('memberships.members.lead')}</p>
      {problems.map(({ r, label, problem }) => {
        const id = `${idPrefix}-${r.key}`;
        const shown = tried ? problem : null;
        return (
          <div key={r.key} className="checkout-field">
            <label className="checkout-field__label" htmlFor={id}>
              {label}
              <span className="checkout-field__required" aria-hidden="true">
                {' *'}
              </span>
            </label>
            <input
              id={id}
              className="checkout-field__input"
              dir="ltr"
              required
              aria-invalid={shown ? true : undefined}
              aria-describedby={shown ? `${id}-error` : undefined}
              value={answers[r.key] ?? ''}
              onChange={(e) => onAnswers({ ...answers, [r.key]: e.target.value })}
            />
            {shown && (
              <p id={`${id}-error`} className="checkout-field__error" role="alert">
                {shown === 'required'
                  ? t('memberships.members.required', { label })
                  : t('memberships.members.pattern', { label })}
              </p>
            )}
          </div>
        );
      })}
      <div className="membership-details__actions">
        <button type="button" className="button button--ghost" onClick={onPrevious}>
          {at === 0 ? t('memberships.members.backToChoice') : t('memberships.members.previous')}
        </button>
        <button type="submit" className="button button--primary">
          {at + 1 < count ? t('memberships.members.next') : t('gifts.continue')}
        </button>
      </div>
    </form>
  );
}
