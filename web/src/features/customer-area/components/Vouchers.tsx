import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../../lib/apiErrors';
import { formatLongDate, formatMoney } from '../../../lib/format';
import { localizedName } from '../../../lib/localized';
import {
  cancelVoucher,
  replaceVoucher,
  voucherHistory,
  type OwnedVoucher,
  type VoucherEvent,
} from '../../../lib/api/gifts';
import { CardHead } from './CardHead';

/** The customer's system vouchers: status, what is left, validity, history and replacement. */
export function VouchersList({ vouchers }: { vouchers: OwnedVoucher[] }) {
  const { t } = useTranslation();
  if (vouchers.length === 0) {
    return <p className="area__empty">{t('customerArea.vouchers.empty')}</p>;
  }
  return (
    <ul className="area__cards">
      {vouchers.map((v) => (
        <VoucherCard key={v.reference} v={v} />
      ))}
    </ul>
  );
}

const BADGE: Record<OwnedVoucher['status'], string> = {
  active: 'active',
  partiallyRedeemed: 'active',
  replacement: 'notStarted',
  redeemed: 'expired',
  expired: 'expired',
  cancelled: 'cancelled',
};

function VoucherCard({ v }: { v: OwnedVoucher }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const queryClient = useQueryClient();
  const [history, setHistory] = useState<VoucherEvent[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'replace' | 'cancel' | null>(null);
  const money = (agorot: number) => formatMoney(agorot, lang);
  const replaceable = v.status === 'active' || v.status === 'partiallyRedeemed';
  // Only a voucher nothing of which was used is refunded (a partly used one is replaced).
  const cancellable = v.status === 'active';

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(errorMessage(t, e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="area__card">
      <CardHead
        title={localizedName(lang, v.name, v.nameEn)}
        badge={BADGE[v.status]}
        badgeText={t(`customerArea.vouchers.status.${v.status}`)}
      />
      <dl className="area__facts">
        <div>
          <dt>{t('customerArea.vouchers.reference')}</dt>
          <dd>
            <bdi dir="ltr">{v.reference}</bdi>
          </dd>
        </div>
        {v.value != null && v.balance != null && (
          <div>
            <dt>{t('customerArea.vouchers.balance')}</dt>
            <dd>
              {t('customerArea.vouchers.balanceOf', { left: money(v.balance), of: money(v.value) })}
            </dd>
          </div>
        )}
        {v.benefitTickets != null && (
          <div>
            <dt>{t('customerArea.vouchers.tickets')}</dt>
            <dd>
              {t('customerArea.vouchers.ticketsLeft', {
                left: v.benefitTickets - v.redeemedTickets,
                of: v.benefitTickets,
              })}
            </dd>
          </div>
        )}
        <div>
          <dt>{t('customerArea.memberships.valid')}</dt>
          <dd>
            {t('customerArea.memberships.range', {
              from: formatLongDate(v.startDate, lang),
              to: formatLongDate(v.endDate, lang),
            })}
          </dd>
        </div>
      </dl>
      <div className="area__actions">
        <button
          type="button"
          className="button button--ghost"
          disabled={busy}
          aria-expanded={history !== null}
          onClick={() =>
            history
              ? setHistory(null)
              : void run(async () => setHistory((await voucherHistory(v.reference)).history))
          }
        >
          {t('customerArea.vouchers.history')}
        </button>
        <a
          className="button button--ghost"
          href={`/api/gift-orders/${encodeURIComponent(v.reservationIdentifier)}/vouchers.pdf?lang=${lang === 'he' ? 'he' : 'en'}`}
          download
        >
          {t('customerArea.vouchers.pdf')}
        </a>
        {replaceable && !confirming && (
          <button
            type="button"
            className="button button--ghost"
            disabled={busy}
            onClick={() => setConfirming('replace')}
          >
            {t('customerArea.vouchers.replace')}
          </button>
        )}
        {cancellable && !confirming && (
          <button
            type="button"
            className="button button--ghost"
            disabled={busy}
            onClick={() => setConfirming('cancel')}
          >
            {t('customerArea.vouchers.cancel')}
          </button>
        )}
      </div>
      {confirming && (
        <div
          className="area__confirm"
          role="group"
          aria-label={t(`customerArea.vouchers.${confirming}`)}
        >
          <p>
            {confirming === 'replace'
              ? t('customerArea.vouchers.replaceWarning')
              : t('customerArea.vouchers.cancelWarning', { amount: money(v.price) })}
          </p>
          <button
            type="button"
            className="button button--primary"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                if (confirming === 'replace') {
                  await replaceVoucher(v.reference, v.reservationIdentifier);
                } else {
                  await cancelVoucher(v.reference, v.reservationIdentifier);
                }
                setConfirming(null);
                await queryClient.invalidateQueries();
              })
            }
          >
            {t(`customerArea.vouchers.${confirming}Confirm`)}
          </button>
          <button
            type="button"
            className="button button--ghost"
            disabled={busy}
            onClick={() => setConfirming(null)}
          >
            {t('customerArea.vouchers.keep')}
          </button>
        </div>
      )}
      {error && (
        <p className="area__error" role="alert">
          {error}
        </p>
      )}
      {history && (
        <ol className="area__history">
          {history.map((e, i) => (
            <li key={`${e.kind}-${i}`}>
              {t(`customerArea.vouchers.event.${e.kind as 'purchased'}`)}
              {e.amount != null && ` · ${money(e.amount)}`}
              {e.tickets != null &&
                ` · ${t('customerArea.vouchers.eventTickets', { count: e.tickets })}`}
              {e.reservationNumber && (
                <>
                  {' · '}
                  <bdi dir="ltr">{e.reservationNumber}</bdi>
                </>
              )}
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}
