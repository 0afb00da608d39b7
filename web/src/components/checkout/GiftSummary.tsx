// The summary beside a gift, membership or enrolment checkout's steps: what is being bought, its
// total when known, and the way back to change it.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function GiftSummary({
  summary,
  total,
  onBack,
}: {
  summary: ReactNode;
  /** The total in words (formatted); none: not shown. */
  total?: string;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="gift-checkout__summary" aria-labelledby="gift-summary">
      <h2 id="gift-summary" className="gift-checkout__heading">
        {t('gifts.summary')}
      </h2>
      {summary}
      {total !== undefined && (
        <p className="gift-checkout__total">
          {t('gifts.total')} <strong>{total}</strong>
        </p>
      )}
      <button type="button" className="button button--ghost" onClick={onBack}>
        {t('gifts.change')}
      </button>
    </section>
  );
}
