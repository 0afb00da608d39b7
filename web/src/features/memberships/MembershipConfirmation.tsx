import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { errorMessage } from '../../lib/apiErrors';
import { formatLongDate, formatMoney } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { membershipOrderQuery } from '../../lib/api/memberships';

/** A paid membership order: its new (or topped-up) members, their numbers, dates and balances. */
export function MembershipConfirmation({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const query = useQuery(membershipOrderQuery(id));
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return (
      <Notice title={t('gifts.orderNotFound')} tone="error">
        <p>{errorMessage(t, query.error)}</p>
      </Notice>
    );
  }
  const order = query.data;
  const members = order.members ?? [];
  const money = (agorot: number) => formatMoney(agorot, lang, order.currency);
  const onlyTopUps = members.length > 0 && members.every((m) => m.topUp);
  return (
    <div className="gift-confirmation">
      <h1 className="page-title">
        {onlyTopUps ? t('memberships.thanksTopUp') : t('memberships.thanks')}
      </h1>
      <p>
        {t('gifts.orderNumber')}{' '}
        <bdi dir="ltr" className="gift-confirmation__number">
          {order.reservationNumber}
        </bdi>
        {' · '}
        {t('gifts.paid')} {money(order.total)}
      </p>
      <ul className="gift-confirmation__list">
        {members.map((m) => (
          <li key={`${m.memberNumber}-${m.topUp}`} className="gift-voucher membership-member">
            <h2 className="gift-voucher__name">{localizedName(lang, m.name, m.nameEn)}</h2>
            <p className="gift-voucher__reference">
              <span>{t('memberships.memberNumber')}</span>{' '}
              <bdi dir="ltr" className="membership-member__number">
                {m.memberNumber}
              </bdi>
            </p>
            <p className="gift-voucher__meta">
              {t('memberships.valid', {
                from: formatLongDate(m.startDate, lang),
                to: formatLongDate(m.endDate, lang),
              })}
            </p>
            {(m.membershipTypeId === 2 || m.balance > 0) && (
              <p className="gift-voucher__meta">
                {t('memberships.balance', { amount: money(m.balance) })}
              </p>
            )}
          </li>
        ))}
      </ul>
      <p className="gift-checkout__hint">{t('memberships.howToUse')}</p>
      <p className="membership-confirmation__links">
        <LangLink className="button button--primary" to="/customer-area#area-memberships">
          {t('memberships.toArea')}
        </LangLink>
        <LangLink className="button button--ghost" to="/">
          {t('gifts.toWhatsOn')}
        </LangLink>
      </p>
    </div>
  );
}
