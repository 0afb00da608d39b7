import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../lib/format';
import { ProductCard } from '../../components/products/ProductCard';
import { GiftSummary } from '../../components/checkout/GiftSummary';
import type { GiftProduct } from '../../lib/api/gifts';
import { MAX_EXTRA_QUANTITY, chosenExtras, type Extras } from './extras';

/**
 * The vouchers flow's products step (optional, decision 0035): snacks sold at every cinema,
 * prepaid with the vouchers and collected at any cinema's bar with the order's first voucher.
 */
export function ProductsStep({
  offered,
  initial,
  vouchersTotal,
  summary,
  onBack,
  onDone,
}: {
  offered: GiftProduct[];
  initial: Extras;
  vouchersTotal: number;
  summary: ReactNode;
  onBack: () => void;
  onDone: (extras: Extras) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [extras, setExtras] = useState<Extras>(initial);
  const money = (agorot: number) => formatMoney(agorot, lang);
  const chosen = chosenExtras(offered, extras);
  const set = (id: number, n: number) =>
    setExtras((e) => ({ ...e, [id]: Math.min(MAX_EXTRA_QUANTITY, Math.max(0, n)) }));
  return (
    <div className="gift-checkout">
      <GiftSummary summary={summary} total={money(vouchersTotal + chosen.total)} onBack={onBack} />
      <section className="gift-auth" aria-labelledby="gift-products">
        <h2 id="gift-products" className="gift-checkout__heading">
          {t('giftFlow.products.title')}
        </h2>
        <p className="gift-checkout__hint">{t('giftFlow.products.lead')}</p>
        <ul className="product-cards">
          {offered.map((p) => (
            <ProductCard
              key={p.id}
              product={p}
              quantity={extras[p.id] ?? 0}
              max={MAX_EXTRA_QUANTITY}
              onQuantity={(next) => set(p.id, next)}
            />
          ))}
        </ul>
        <div className="gift-auth__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => onDone(extras)}
            disabled={chosen.lines.length === 0}
          >
            {t('giftFlow.products.add', { amount: money(chosen.total) })}
          </button>
          <button type="button" className="button button--ghost" onClick={() => onDone({})}>
            {t('giftFlow.products.skip')}
          </button>
        </div>
      </section>
    </div>
  );
}
