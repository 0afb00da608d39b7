import { useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PaidOrder } from '../../components/checkout/PaidOrder';
import { PrepaidCheckout } from '../../components/checkout/PrepaidCheckout';
import type { CheckoutConfig } from '../../components/checkout/customerInfo';
import { Loading } from '../../components/ui/Loading';
import { LangLink } from '../../components/ui/LangLink';
import { useConfig } from '../../lib/config';
import { formatLongDate, formatMoney } from '../../lib/format';
import { gatewayFormUrl } from '../../lib/gatewayPayment';
import { localizedName } from '../../lib/localized';
import { giftOrderQuery, postGiftCart, type GiftLines, type GiftOrder } from '../../lib/api/gifts';
import type { SiteConfig } from '../../lib/api/types';
import '../../components/checkout/OrderFlow.css';

/**
 * The buyer's details and the payment of a voucher or donation order (spec section 2: "customer
 * info", then the payment step): POST /cart with the chosen lines and the details, then the
 * gateway's page, which comes back to `returnPath` with the payment's id.
 */
export function GiftCheckout({
  lines,
  total,
  summary,
  onBack,
  returnPath,
}: {
  lines: GiftLines;
  total: number;
  summary: ReactNode;
  onBack: () => void;
  returnPath: string;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const langParam = useSearchParams()[0].get('lang');
  const site = useConfig().raw as SiteConfig | null;
  // A donation's receipt names its donor: the ID number is required (spec section 5).
  const config = useMemo<CheckoutConfig | null>(() => {
    if (!site) return null;
    if (lines.orderType !== 'donations') return site;
    return {
      ...site,
      customerInfo: { ...site.customerInfo, ssn: { isRequired: true, isIncluded: true } },
    };
  }, [site, lines.orderType]);
  // The priced cart's currency: the methods offered are those taken in it (issue 20).
  const [currency, setCurrency] = useState<string>();
  if (!config || !site) return <Loading />;
  return (
    <PrepaidCheckout
      config={config}
      total={total}
      currency={currency}
      summary={summary}
      onBack={onBack}
      hint={lines.orderType === 'donations' ? t('gifts.donation.idNeeded') : undefined}
      onDetails={async (info) => {
        const answer = await postGiftCart(lines, info, total, lang === 'he' ? 'he' : 'en');
        setCurrency(answer.cart?.currency);
        return answer;
      }}
      onPay={({ method, numberOfPayments }) =>
        gatewayFormUrl(site, lang, {
          orderType: lines.orderType,
          total,
          method,
          numberOfPayments,
          returnPath,
          langParam,
        })
      }
    />
  );
}

/** A paid voucher or donation order: its vouchers with their references, or the donation. */
export function GiftConfirmation({ id }: { id: string }) {
  const { t } = useTranslation();
  const read = useQuery(giftOrderQuery(id));
  return (
    <PaidOrder
      read={read}
      title={(order) =>
        order.orderType === 'vouchers' ? t('gifts.vouchers.thanks') : t('gifts.donation.thanks')
      }
    >
      {(order) => <PaidGifts order={order} />}
    </PaidOrder>
  );
}

function PaidGifts({ order }: { order: GiftOrder }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const money = (agorot: number) => formatMoney(agorot, lang, order.currency);
  const vouchers = order.orderType === 'vouchers';
  return (
    <>
      {vouchers && <p>{t('gifts.vouchers.mailed')}</p>}
      <ul className="gift-confirmation__list">
        {order.systemVouchers.map((v) => (
          <li key={v.reference} className="gift-voucher">
            <h2 className="gift-voucher__name">{localizedName(lang, v.name, v.nameEn)}</h2>
            <p className="gift-voucher__reference">
              <span>{t('gifts.vouchers.reference')}</span> <bdi dir="ltr">{v.reference}</bdi>
            </p>
            <p className="gift-voucher__meta">
              {v.value != null && t('gifts.vouchers.worth', { amount: money(v.value) })}
              {v.benefitTickets != null && t('gifts.vouchers.tickets', { count: v.benefitTickets })}
              {' · '}
              {t('gifts.vouchers.validUntil', { date: formatLongDate(v.validTo, lang) })}
            </p>
          </li>
        ))}
        {order.products.map((p) => (
          <li key={`product-${p.id}`} className="gift-voucher">
            <h2 className="gift-voucher__name">
              {p.quantity} × {localizedName(lang, p.name, p.nameEn)}
            </h2>
            <p className="gift-voucher__meta">{money(p.amount)}</p>
            {order.systemVouchers[0] && (
              <p className="gift-voucher__reference">
                <span>{t('giftFlow.orderProducts')}</span>{' '}
                <bdi dir="ltr">{order.systemVouchers[0].reference}</bdi>
              </p>
            )}
          </li>
        ))}
        {order.donations.map((d, i) => (
          <li key={`${d.id}-${d.detailId}-${i}`} className="gift-voucher">
            <h2 className="gift-voucher__name">{localizedName(lang, d.name, d.nameEn)}</h2>
            <p className="gift-voucher__meta">{money(d.amount)}</p>
          </li>
        ))}
      </ul>
      {order.waiver && order.waiver.children.length > 0 && (
        <p className="waiver-masked">
          {t('waiver.confirmation', {
            children: order.waiver.children
              .map((c) => `${c.firstName} (${c.birthYear})`)
              .join(', '),
          })}
        </p>
      )}
      {vouchers && (
        <p>
          <a
            className="button button--ghost"
            href={`/api/gift-orders/${encodeURIComponent(order.reservationIdentifier)}/vouchers.pdf?lang=${lang === 'he' ? 'he' : 'en'}`}
            download
          >
            {t('gifts.vouchers.pdf')}
          </a>
        </p>
      )}
      {vouchers && <p className="gift-checkout__hint">{t('gifts.vouchers.howToRedeem')}</p>}
      <p>
        <LangLink className="button button--primary" to="/">
          {t('gifts.toWhatsOn')}
        </LangLink>
      </p>
    </>
  );
}
