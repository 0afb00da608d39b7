import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';

export type VoucherStep = 'choose' | 'auth' | 'products' | 'details';

const STEPS: readonly VoucherStep[] = ['choose', 'auth', 'products', 'details'];

/** Where the buyer is in the vouchers flow (spec section 2's steps). */
export function VoucherSteps({ current }: { current: VoucherStep }) {
  const { t } = useTranslation();
  const at = STEPS.indexOf(current);
  return (
    <ol className="gift-steps" aria-label={t('giftFlow.steps.label')}>
      {STEPS.map((s, i) => (
        <li
          key={s}
          className={`gift-steps__step${i < at ? ' gift-steps__step--done' : ''}`}
          aria-current={i === at ? 'step' : undefined}
        >
          {t(`giftFlow.steps.${s}`)}
        </li>
      ))}
    </ol>
  );
}

/**
 * The auth step: a voucher lives in its buyer's customer area, so a buyer nobody knows logs in or
 * opens an account on the customer login page, which comes back to `returnTo` (the choice in it).
 */
export function AuthStep({
  returnTo,
  summary,
  total,
  onBack,
}: {
  returnTo: string;
  summary: ReactNode;
  total: string;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const back = encodeURIComponent(returnTo);
  return (
    <div className="gift-checkout">
      <section className="gift-checkout__summary" aria-labelledby="gift-summary">
        <h2 id="gift-summary" className="gift-checkout__heading">
          {t('gifts.summary')}
        </h2>
        {summary}
        <p className="gift-checkout__total">
          {t('gifts.total')} <strong>{total}</strong>
        </p>
        <button type="button" className="button button--ghost" onClick={onBack}>
          {t('gifts.change')}
        </button>
      </section>
      <section className="gift-auth" aria-labelledby="gift-auth">
        <h2 id="gift-auth" className="gift-checkout__heading">
          {t('giftFlow.auth.title')}
        </h2>
        <p>{t('giftFlow.auth.why')}</p>
        <p className="gift-checkout__hint">{t('giftFlow.auth.kept')}</p>
        <div className="gift-auth__actions">
          <LangLink className="button button--primary" to={`/customer-area/login?returnTo=${back}`}>
            {t('giftFlow.auth.logIn')}
          </LangLink>
          <LangLink
            className="button button--ghost"
            to={`/customer-area/login?method=email&register=1&returnTo=${back}`}
          >
            {t('giftFlow.auth.signUp')}
          </LangLink>
        </div>
      </section>
    </div>
  );
}
