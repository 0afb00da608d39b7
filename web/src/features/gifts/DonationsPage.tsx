import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { GiftCheckout, GiftConfirmation } from './GiftCheckout';
import { useGiftReturn } from './useGiftReturn';
import '../../components/checkout/OrderFlow.css';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { useDocumentTitle } from '../../lib/documentTitle';
import { formatMoney } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { donationsQuery, type Donation } from '../../lib/api/gifts';
import { donationAmount, type DonationPick } from './amount';
import { ErrorNotice } from '../../components/ui/ErrorNotice';

const PATH = '/donations';

/**
 * Donations (spec section 2: choose donations, customer info with the ID number, payment,
 * confirmation). The gateway's page comes back here; a paid donation then has its own address.
 */
export default function DonationsPage() {
  const { t } = useTranslation();
  useDocumentTitle(t('screens.donations'));
  const order = useSearchParams()[0].get('order');
  const back = useGiftReturn('donations', PATH);
  if (order) return <GiftConfirmation id={order} />;
  if (back) return back;
  return <ChooseDonation />;
}

function ChooseDonation() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const query = useQuery(donationsQuery);
  const [pick, setPick] = useState<DonationPick | null>(null);
  const [custom, setCustom] = useState('');
  const [checkout, setCheckout] = useState(false);
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return <ErrorNotice title={t('gifts.loadError')} error={query.error} />;
  }
  const donations = query.data.donations;
  if (donations.length === 0) {
    return <Notice title={t('screens.donations')}>{t('errors.noDonations')}</Notice>;
  }
  const donation = donations.find((d) => d.id === pick?.donationId);
  const amount = donationAmount(donation, pick, custom);
  const money = (agorot: number) => formatMoney(agorot, lang);

  if (checkout && donation && pick && amount.ok) {
    return (
      <div className="gift-page">
        <h1 className="page-title">{t('gifts.donation.title')}</h1>
        <GiftCheckout
          lines={{
            orderType: 'donations',
            donations: [
              {
                id: donation.id,
                donationDetails: [
                  { id: pick.detailId, amount: amount.agorot, selectedQuantity: 1 },
                ],
              },
            ],
          }}
          total={amount.agorot}
          returnPath={PATH}
          onBack={() => setCheckout(false)}
          summary={
            <p>
              {localizedName(lang, donation.name, donation.nameEn)}: {money(amount.agorot)}
            </p>
          }
        />
      </div>
    );
  }

  return (
    <div className="gift-page">
      <h1 className="page-title">{t('gifts.donation.title')}</h1>
      {donations.map((d) => (
        <DonationCard
          key={d.id}
          d={d}
          lang={lang}
          pick={pick}
          custom={custom}
          onPick={setPick}
          onCustom={setCustom}
        />
      ))}
      <div className="gift-page__bar">
        <p>
          {t('gifts.total')} <strong>{money(amount.ok ? amount.agorot : 0)}</strong>
        </p>
        {amount.problem && (
          <p role="status" className="gift-checkout__hint">
            {t('gifts.donation.customBounds', {
              min: money(amount.min),
              max: money(amount.max),
            })}
          </p>
        )}
        <button
          type="button"
          className="button button--primary"
          disabled={!amount.ok}
          onClick={() => setCheckout(true)}
        >
          {t('gifts.continue')}
        </button>
      </div>
    </div>
  );
}

function DonationCard({
  d,
  lang,
  pick,
  custom,
  onPick,
  onCustom,
}: {
  d: Donation;
  lang: string;
  pick: DonationPick | null;
  custom: string;
  onPick: (p: DonationPick) => void;
  onCustom: (shekels: string) => void;
}) {
  const { t } = useTranslation();
  const money = (agorot: number) => formatMoney(agorot, lang);
  const titleId = `donation-${d.id}`;
  const customDetail = d.details.find((x) => x.customAmount);
  const customPicked = pick?.donationId === d.id && pick.detailId === customDetail?.id;
  return (
    <section className="gift-choice" aria-labelledby={titleId}>
      <h2 id={titleId} className="gift-choice__title">
        {localizedName(lang, d.name, d.nameEn)}
      </h2>
      <p className="gift-voucher__meta">{localizedName(lang, d.description, d.descriptionEn)}</p>
      <div className="gift-choice__amounts" role="group" aria-labelledby={titleId}>
        {d.details
          .filter((x) => !x.customAmount)
          .map((x) => (
            <button
              key={x.id}
              type="button"
              className="button button--ghost gift-choice__amount"
              aria-pressed={pick?.donationId === d.id && pick.detailId === x.id}
              onClick={() => onPick({ donationId: d.id, detailId: x.id })}
            >
              {money(x.amount)}
            </button>
          ))}
        {customDetail && (
          <button
            type="button"
            className="button button--ghost gift-choice__amount"
            aria-pressed={customPicked}
            onClick={() => onPick({ donationId: d.id, detailId: customDetail.id })}
          >
            {t('gifts.donation.otherAmount')}
          </button>
        )}
      </div>
      {customDetail && customPicked && (
        <label className="gift-choice__row">
          <span>
            {t('gifts.donation.customLabel', {
              min: money(customDetail.min),
              max: money(customDetail.max),
            })}
          </span>
          <input
            className="gift-choice__input"
            inputMode="numeric"
            dir="ltr"
            value={custom}
            onChange={(e) => onCustom(e.target.value.replace(/[^0-9]/g, ''))}
          />
        </label>
      )}
    </section>
  );
}
