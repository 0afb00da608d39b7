import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { PaidOrder } from '../../components/checkout/PaidOrder';
import { formatLongDate, formatMoney } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { membershipOrderQuery, type MembershipOrder } from '../../lib/api/memberships';
import { OrderSeats } from './OrderSeats';

/**
 * A paid membership order: its new (or topped-up) members, their numbers, dates and balances, and
 * a seated membership's seats in the season's screenings.
 */
export function MembershipConfirmation({ id }: { id: string }) {
  const { t } = useTranslation();
  const read = useQuery(membershipOrderQuery(id));
  return (
    <PaidOrder
      read={read}
      title={(order) =>
        (order.members ?? []).length > 0 && (order.members ?? []).every((m) => m.topUp)
          ? t('memberships.thanksTopUp')
          : t('memberships.thanks')
      }
    >
      {(order) => <Members order={order} />}
    </PaidOrder>
  );
}

function Members({ order }: { order: MembershipOrder }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const members = order.members ?? [];
  const money = (agorot: number) => formatMoney(agorot, lang, order.currency);
  return (
    <>
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
      {(order.seats ?? []).length > 0 && (
        <OrderSeats
          seats={order.seats ?? []}
          title={t('membershipSeats.confirmationTitle')}
          level={2}
          tickets
        />
      )}
      <p className="gift-checkout__hint">{t('memberships.howToUse')}</p>
      <p className="membership-confirmation__links">
        <LangLink className="button button--primary" to="/customer-area#area-memberships">
          {t('memberships.toArea')}
        </LangLink>
        <LangLink className="button button--ghost" to="/">
          {t('gifts.toWhatsOn')}
        </LangLink>
      </p>
    </>
  );
}
