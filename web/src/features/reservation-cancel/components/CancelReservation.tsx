import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/ui/DateTime';
import { formatMoney } from '../../../lib/format';
import type { CancellationResult, Reservation } from '../api/cancel';
import { CancelReservationDialog } from './CancelReservationDialog';
import './CancelReservation.css';

/**
 * The reservation's cancellations and its cancel button: what was cancelled, the charge kept and
 * each refund (pending until the provider confirms it), and, while the reader may still cancel,
 * the dialog that does it. `onChanged` reads the reservation again after a cancellation. Made to
 * sit on the reservation page and in the customer area alike.
 */
export function CancelReservation({
  reservation,
  onChanged,
}: {
  reservation: Reservation;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const terms = reservation.cancellationTerms;
  const cancellations = reservation.cancellations;
  if (!terms.cancellable && cancellations.length === 0) return null;

  return (
    <section className="reservation-cancel" aria-labelledby={titleId}>
      <h2 id={titleId} className="reservation-cancel__heading">
        {t('cancel.title')}
      </h2>
      {cancellations.length > 0 && (
        <ul className="reservation-cancel__history">
          {cancellations.map((c) => (
            <li key={c.id} className="reservation-cancel__entry">
              <CancellationSummary cancellation={c} reservation={reservation} lang={lang} />
            </li>
          ))}
        </ul>
      )}
      {reservation.status === 'cancelled' && (
        <p className="reservation-cancel__note">{t('cancel.allCancelled')}</p>
      )}
      {terms.cancellable && (
        <>
          <p className="reservation-cancel__note">
            {t('cancel.until')} <DateTime iso={terms.until} lang={lang} />
          </p>
          <button
            ref={opener}
            type="button"
            className="button button--ghost reservation-cancel__open"
            onClick={() => setOpen(true)}
          >
            {t('cancel.open')}
          </button>
        </>
      )}
      {open && (
        <CancelReservationDialog
          reservation={reservation}
          onClose={(changed) => {
            setOpen(false);
            if (changed) onChanged();
            opener.current?.focus();
          }}
        />
      )}
    </section>
  );
}

function CancellationSummary({
  cancellation,
  reservation,
  lang,
}: {
  cancellation: CancellationResult;
  reservation: Reservation;
  lang: string;
}) {
  const { t } = useTranslation();
  const money = (agorot: number) => formatMoney(agorot, lang, reservation.currency);
  const seats = reservation.seats.filter(
    (s) => cancellation.lines.includes(s.line) && !s.isSubTicket,
  );
  return (
    <>
      <p className="reservation-cancel__when">
        {t('cancel.cancelledOn')} <DateTime iso={cancellation.cancelledAt} lang={lang} />
      </p>
      <p>{seats.map((s) => t('cancel.seatLine', { row: s.row, seat: s.seat })).join(', ')}</p>
      <dl className="reservation-cancel__figures">
        <div>
          <dt>{t('cancel.fee')}</dt>
          <dd>{money(cancellation.fee)}</dd>
        </div>
        <div>
          <dt>{t('cancel.refund')}</dt>
          <dd>
            {money(cancellation.refund)}{' '}
            <span
              className={`reservation-cancel__status reservation-cancel__status--${
                cancellation.refundPending ? 'pending' : 'done'
              }`}
            >
              {cancellation.refund === 0
                ? ''
                : t(cancellation.refundPending ? 'cancel.refundPending' : 'cancel.refundDone')}
            </span>
          </dd>
        </div>
        {cancellation.credit && (
          <div>
            <dt>{t('cancelCredit.voucher')}</dt>
            <dd>
              <span dir="ltr">{cancellation.credit.reference}</span> (
              {money(cancellation.credit.amount)})
            </dd>
          </div>
        )}
      </dl>
    </>
  );
}
