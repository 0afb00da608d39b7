import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../ui/LangLink';
import { GiftSummary } from './GiftSummary';
import './OrderFlow.css';

/**
 * The auth step of an order that belongs to a customer account (vouchers, memberships): a buyer
 * nobody knows logs in or opens an account on the customer login page, which comes back to
 * `returnTo` (the choice in it). `why` says why this order needs an account.
 */
export function AuthStep({
  returnTo,
  why,
  summary,
  total,
  onBack,
}: {
  returnTo: string;
  why: string;
  summary: ReactNode;
  /** The order's total, when it is known before the login (an enrolment's is not). */
  total?: string;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const back = encodeURIComponent(returnTo);
  return (
    <div className="gift-checkout">
      <GiftSummary summary={summary} total={total} onBack={onBack} />
      <section className="gift-auth" aria-labelledby="gift-auth">
        <h2 id="gift-auth" className="gift-checkout__heading">
          {t('giftFlow.auth.title')}
        </h2>
        <p>{why}</p>
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
