import { useReducer, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { GiftCheckout, GiftConfirmation } from './GiftCheckout';
import { VoucherSteps } from './VoucherSteps';
import { WaiverStep } from './WaiverStep';
import { initialWaiver, toCartWaiver, waiverReducer } from './waiver';
import { ProductsStep } from './ProductsStep';
import { chosenExtras, decodeExtras, encodeExtras, type Extras } from './extras';
import { useGiftReturn } from './useGiftReturn';
import '../../components/checkout/OrderFlow.css';
import { AuthStep } from '../../components/checkout/AuthStep';
import { Loading } from '../../components/ui/Loading';
import { useConfig } from '../../lib/config';
import { useDocumentTitle } from '../../lib/documentTitle';
import { formatMoney } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { meQuery } from '../../lib/api/customer';
import { postWaiverCart, voucherClassesQuery, type VoucherClass } from '../../lib/api/gifts';
import { chosenVouchers, decodeChoice, encodeChoice, type VoucherChoice } from './choice';
import { ErrorNotice } from '../../components/ui/ErrorNotice';

/**
 * Gift vouchers (spec section 2: choose vouchers, auth, choose products, customer info,
 * confirmation; decision 0035). The choice lives in the address (`?choice=…`, `&step=checkout`
 * once it is made, `&step=details&extras=…` past the products), so the auth step's trip through
 * the login page and a reload keep it. The
 * gateway's page comes back here; a paid order then has its own address (`?order=…`).
 */
export default function SystemVouchersPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.systemVouchers'));
  const path = useConfig().routes.systemVouchers;
  const order = useSearchParams()[0].get('order');
  const back = useGiftReturn('vouchers', path);
  if (order) return <GiftConfirmation id={order} />;
  if (back) return back;
  return <ChooseVouchers path={path} />;
}

function ChooseVouchers({ path }: { path: string }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const query = useQuery(voucherClassesQuery);
  const [params, setParams] = useSearchParams();
  const [choice, setChoice] = useState<VoucherChoice>(() => decodeChoice(params.get('choice')));
  const step = params.get('step');
  const inCheckout = step === 'checkout' || step === 'details';
  const me = useQuery({ ...meQuery, enabled: inCheckout });
  // The waiver of a children's voucher (decision 0041): in memory only, never in the address.
  const [waiver, dispatchWaiver] = useReducer(waiverReducer, undefined, initialWaiver);
  const [waiverSigned, setWaiverSigned] = useState(false);
  /** The address of this choice at a step: choosing (null), past it, or at the details. */
  const address = (at: 'checkout' | 'details' | null, extras?: Extras) => {
    const next = new URLSearchParams();
    const langParam = params.get('lang');
    if (langParam) next.set('lang', langParam);
    const text = encodeChoice(choice);
    if (text) next.set('choice', text);
    if (at) next.set('step', at);
    const extrasText = encodeExtras(extras ?? decodeExtras(params.get('extras')));
    if (extrasText) next.set('extras', extrasText);
    return next;
  };
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return <ErrorNotice title={t('gifts.loadError')} error={query.error} />;
  }
  const { systemVouchers: classes, maxQuantityForVouchers: max, products: offered } = query.data;
  const chosen = chosenVouchers(classes, choice, max);
  const money = (agorot: number) => formatMoney(agorot, lang);

  if (inCheckout && chosen.ok) {
    if (me.isPending) return <Loading />;
    const extras = chosenExtras(
      offered,
      step === 'details' ? decodeExtras(params.get('extras')) : {},
    );
    const summary = (
      <ul>
        {chosen.summary.map((s) => (
          <li key={s.key}>
            {s.quantity} × {localizedName(lang, s.name, s.nameEn)} ({money(s.price)})
          </li>
        ))}
        {extras.summary.map((s) => (
          <li key={`product-${s.id}`}>
            {s.quantity} × {localizedName(lang, s.name, s.nameEn)} ({money(s.price)})
          </li>
        ))}
      </ul>
    );
    const back = () => {
      setWaiverSigned(false);
      setParams(address(null));
    };
    // A voucher is its buyer's, in their customer area: nobody logged in, the auth step first.
    const loggedIn = me.data != null && me.data.customerInfo != null;
    // Then the waiver, when a chosen voucher asks for one; it is signed again after a reload.
    const chosenIds = new Set(chosen.lines.map((l) => l.SystemVoucherId));
    const waiverClasses = classes.filter((c) => c.waiver != null && chosenIds.has(c.id));
    const needsWaiver = waiverClasses.length > 0;
    const atWaiver = loggedIn && needsWaiver && !waiverSigned;
    // Then the products, unless the chain sells none everywhere; then the details and payment.
    const atProducts = loggedIn && !atWaiver && step === 'checkout' && offered.length > 0;
    const locale = lang === 'he' ? 'he' : 'en';
    return (
      <div className="gift-page">
        <h1 className="page-title">{t('gifts.vouchers.title')}</h1>
        <VoucherSteps
          withWaiver={needsWaiver}
          current={!loggedIn ? 'auth' : atWaiver ? 'waiver' : atProducts ? 'products' : 'details'}
        />
        {!loggedIn ? (
          <AuthStep
            returnTo={`${path}?${address('checkout').toString()}`}
            why={t('giftFlow.auth.why')}
            summary={summary}
            total={money(chosen.total)}
            onBack={back}
          />
        ) : atWaiver ? (
          <WaiverStep
            classes={waiverClasses}
            state={waiver}
            dispatch={dispatchWaiver}
            summary={summary}
            onBack={back}
            submit={(w) => postWaiverCart(chosen.lines, w, locale)}
            onDone={() => setWaiverSigned(true)}
          />
        ) : atProducts ? (
          <ProductsStep
            offered={offered}
            initial={decodeExtras(params.get('extras'))}
            vouchersTotal={chosen.total}
            summary={summary}
            onBack={back}
            onDone={(picked) => setParams(address('details', picked))}
          />
        ) : (
          <GiftCheckout
            lines={{
              orderType: 'vouchers',
              vouchers: chosen.lines,
              products: extras.lines,
              waiver: needsWaiver ? toCartWaiver(waiver) : undefined,
            }}
            total={chosen.total + extras.total}
            returnPath={path}
            onBack={back}
            summary={summary}
          />
        )}
      </div>
    );
  }

  const setQuantity = (key: string, n: number) =>
    setChoice((c) => ({ ...c, quantities: { ...c.quantities, [key]: Math.max(0, n) } }));
  return (
    <div className="gift-page">
      <h1 className="page-title">{t('gifts.vouchers.title')}</h1>
      <p className="gift-page__lead">{t('gifts.vouchers.lead', { max })}</p>
      {classes.length === 0 && <p>{t('errors.noVouchers')}</p>}
      {classes.map((c) => (
        <VoucherCard
          key={c.id}
          c={c}
          lang={lang}
          quantities={choice.quantities}
          amount={choice.amounts[c.id] ?? ''}
          full={chosen.count >= max}
          onQuantity={setQuantity}
          onAmount={(v) => setChoice((s) => ({ ...s, amounts: { ...s.amounts, [c.id]: v } }))}
        />
      ))}
      <div className="gift-page__bar">
        <p>
          {t('gifts.total')} <strong>{money(chosen.total)}</strong>
        </p>
        {chosen.problem && (
          <p role="status" className="gift-checkout__hint">
            {t(`gifts.problem.${chosen.problem}`, { max })}
          </p>
        )}
        <button
          type="button"
          className="button button--primary"
          disabled={!chosen.ok}
          onClick={() => chosen.ok && setParams(address('checkout'))}
        >
          {t('gifts.continue')}
        </button>
      </div>
    </div>
  );
}

function VoucherCard({
  c,
  lang,
  quantities,
  amount,
  full,
  onQuantity,
  onAmount,
}: {
  c: VoucherClass;
  lang: string;
  quantities: Record<string, number>;
  amount: string;
  full: boolean;
  onQuantity: (key: string, n: number) => void;
  onAmount: (shekels: string) => void;
}) {
  const { t } = useTranslation();
  const money = (agorot: number) => formatMoney(agorot, lang);
  const titleId = `voucher-${c.id}`;
  const name = localizedName(lang, c.name, c.nameEn);
  const rows: { key: string; label: string }[] = c.prices.map((p) => ({
    key: `${c.id}:${p.id}`,
    label: money(p.price),
  }));
  if (c.openPrice) rows.push({ key: `${c.id}:open`, label: t('gifts.vouchers.yourAmount') });
  return (
    <section
      className={`gift-choice${c.boxOfficeOnly ? ' gift-choice--disabled' : ''}`}
      aria-labelledby={titleId}
    >
      <h2 id={titleId} className="gift-choice__title">
        {name}
      </h2>
      <p className="gift-voucher__meta">{localizedName(lang, c.description, c.descriptionEn)}</p>
      {c.waiver && (
        <p className="gift-voucher__meta">
          {t('waiver.card', { minAge: c.waiver.minAge, maxAge: c.waiver.maxAge })}
        </p>
      )}
      {c.benefits.length > 0 && (
        <ul className="gift-voucher__meta">
          {c.benefits.map((b) => (
            <li key={b.name}>
              {b.quantity} × {localizedName(lang, b.name, b.nameEn)}
            </li>
          ))}
        </ul>
      )}
      {c.boxOfficeOnly ? (
        <p>
          <strong>{t('gifts.vouchers.boxOfficeOnly')}</strong>
        </p>
      ) : (
        rows.map((r) => {
          const n = quantities[r.key] ?? 0;
          return (
            <div key={r.key} className="gift-choice__row">
              <span>{r.label}</span>
              {r.key.endsWith(':open') && c.openPrice && (
                <label>
                  <span className="visually-hidden">
                    {t('gifts.vouchers.amountLabel', { name })}
                  </span>
                  <input
                    className="gift-choice__input"
                    inputMode="numeric"
                    dir="ltr"
                    value={amount}
                    placeholder={`${c.openPrice.min / 100}–${c.openPrice.max / 100} ₪`}
                    onChange={(e) => onAmount(e.target.value.replace(/[^0-9]/g, ''))}
                  />
                </label>
              )}
              <span className="gift-choice__stepper">
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={t('gifts.less', { name: `${name} ${r.label}` })}
                  disabled={n === 0}
                  onClick={() => onQuantity(r.key, n - 1)}
                >
                  −
                </button>
                <output aria-live="polite">{n}</output>
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={t('gifts.more', { name: `${name} ${r.label}` })}
                  disabled={full}
                  onClick={() => onQuantity(r.key, n + 1)}
                >
                  +
                </button>
              </span>
            </div>
          );
        })
      )}
      <p className="gift-choice__terms">{localizedName(lang, c.terms, c.termsEn)}</p>
    </section>
  );
}
