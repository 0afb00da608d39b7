import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import type { Membership } from '../../lib/api/memberships';
import { isSeries, priceKey } from './choice';
import { SeasonScreenings } from './SeasonScreenings';

/**
 * One membership on sale: what it is, its prices with a quantity each, its validity and terms; a
 * seated one (decision 0043) also the screenings its price includes a fixed seat in.
 */
export function MembershipCard({
  m,
  lang,
  quantities,
  full,
  topUp,
  onQuantity,
}: {
  m: Membership;
  /** A top-up of an existing card: its dates stay, the price adds to its balance. */
  topUp: boolean;
  lang: string;
  quantities: Record<string, number>;
  /** No more of it may be chosen (maxQuantityForMembership, or the top-ups' cap). */
  full: boolean;
  onQuantity: (key: string, n: number) => void;
}) {
  const { t } = useTranslation();
  const titleId = `membership-${m.MembershipId}`;
  const name = localizedName(lang, m.Name, m.NameEn);
  const description = localizedName(lang, m.Description, m.DescriptionEn);
  const terms = m.terms ? localizedName(lang, m.terms.text, m.terms.textEn) : '';
  return (
    <section className="gift-choice membership-card" aria-labelledby={titleId}>
      <h2 id={titleId} className="gift-choice__title">
        {name}
      </h2>
      {description && <p className="gift-voucher__meta">{description}</p>}
      {!topUp && (
        <p className="gift-voucher__meta">
          {isSeries(m) && `${t('memberships.series')} `}
          {t('memberships.validMonths', { count: m.validMonths })}
        </p>
      )}
      {m.seats && !topUp && (
        <>
          <p className="gift-voucher__meta">
            {t('membershipSeats.includes', { count: m.seats.presentations.length })}
          </p>
          <SeasonScreenings seats={m.seats} label={t('membershipSeats.screenings')} />
        </>
      )}
      {m.prices.map((p) => {
        const key = priceKey(m, p);
        const n = quantities[key] ?? 0;
        const money = (agorot: number) => formatMoney(agorot, lang, p.currency.CurrencyCode);
        const label =
          isSeries(m) && p.value > 0
            ? `${money(p.Price)} · ${t(topUp ? 'memberships.addsToBalance' : 'memberships.balanceOf', { amount: money(p.value) })}`
            : money(p.Price);
        return (
          <div key={key} className="gift-choice__row">
            <span>{label}</span>
            <span className="gift-choice__stepper">
              <button
                type="button"
                className="button button--ghost"
                aria-label={t('gifts.less', { name: `${name} ${label}` })}
                disabled={n === 0}
                onClick={() => onQuantity(key, n - 1)}
              >
                −
              </button>
              <output aria-live="polite">{n}</output>
              <button
                type="button"
                className="button button--ghost"
                aria-label={t('gifts.more', { name: `${name} ${label}` })}
                disabled={full}
                onClick={() => onQuantity(key, n + 1)}
              >
                +
              </button>
            </span>
          </div>
        );
      })}
      {terms && (
        <details className="membership-card__terms">
          <summary>{t('memberships.terms')}</summary>
          <p className="gift-choice__terms">{terms}</p>
        </details>
      )}
    </section>
  );
}
