import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../components/ui/DateTime';
import { LangLink } from '../../../components/ui/LangLink';
import type { Reservation } from '../../../lib/api/reservations';
import { reservationPath } from '../../../lib/api/reservations';
import './SeatChange.css';

/** The reservation page's way to the seat-change screen, while the reader may change seats. */
export function SeatChangeOffer({ reservation }: { reservation: Reservation }) {
  const { t, i18n } = useTranslation();
  const terms = reservation.seatChange;
  if (!terms.changeable) return null;
  const [only] = terms.presentations;
  return (
    <section className="seat-change-offer" aria-labelledby="seat-change-offer">
      <h2 id="seat-change-offer" className="seat-change__heading">
        {t('seatChange.offer.title')}
      </h2>
      <p>
        {terms.presentations.length === 1 && only
          ? t('seatChange.offer.text', { until: '\u0000' })
              .split('\u0000')
              .flatMap((part, i) =>
                i === 0
                  ? [part]
                  : [<DateTime key={i} iso={only.until} lang={i18n.language} />, part],
              )
          : t('seatChange.offer.textSeveral')}
      </p>
      <LangLink
        className="button button--ghost"
        to={`${reservationPath(reservation.ReservationIdentifier)}/seats`}
      >
        {t('seatChange.offer.open')}
      </LangLink>
    </section>
  );
}

/** Said once on the reservation page the change lands on (`?seatsChanged=1`). */
export function SeatsChangedNotice() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  if (params.get('seatsChanged') !== '1') return null;
  return (
    <p className="seat-change-done" role="status">
      {t('seatChange.offer.done')}
    </p>
  );
}
