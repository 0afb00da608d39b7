import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../components/ui/DateTime';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { ApiError } from '../../lib/api/client';
import { reservationPath, reservationQuery } from '../../lib/api/reservations';
import { useDocumentTitle } from '../../lib/documentTitle';
import { localizedName } from '../../lib/localized';
import { SeatChanger } from './components/SeatChanger';
import './components/SeatChange.css';
import { ErrorNotice } from '../../components/ui/ErrorNotice';

/**
 * /reservation/{id}/seats: the buyer moves tickets of a paid reservation to other free seats of
 * the same presentation (decision 0030). Only for the reservation's buyer (its session or its
 * logged-in customer) while the server says seats may change; one presentation at a time.
 */
export default function SeatChangePage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = useParams().reservationId ?? '';
  useDocumentTitle(t('seatChange.title'));
  const query = useQuery({ ...reservationQuery(id), enabled: id !== '' });
  const [chosen, setChosen] = useState<number | null>(null);

  if (
    id === '' ||
    (query.isError && query.error instanceof ApiError && query.error.status === 404)
  ) {
    return (
      <Notice
        title={t('confirmation.notFound.title')}
        tone="error"
        action={{ to: '/', label: t('confirmation.notFound.whatsOn') }}
      >
        <p>{t('confirmation.notFound.session')}</p>
      </Notice>
    );
  }
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return <ErrorNotice title={t('confirmation.loadError')} error={query.error} />;
  }
  const reservation = query.data.reservation;
  const windows = reservation.seatChange.presentations;
  const open = windows.find((w) => w.presentationId === chosen) ?? windows[0];
  const presentation = open
    ? reservation.presentations.find((p) => p.id === open.presentationId)
    : undefined;
  if (!open || !presentation) {
    return (
      <Notice
        title={t('seatChange.closed.title')}
        action={{ to: reservationPath(id), label: t('seatChange.cancel') }}
      >
        <p>{t('seatChange.closed.text')}</p>
      </Notice>
    );
  }
  const screening = (p: typeof presentation) => localizedName(lang, p.featureName, p.featureNameEn);

  return (
    <div className="seat-change-page">
      <h1 className="page-title">{t('seatChange.title')}</h1>
      <p className="seat-change-page__what">
        <strong>{screening(presentation)}</strong>
        {' · '}
        <DateTime iso={presentation.dateTime} lang={lang} />
        {' · '}
        {localizedName(lang, presentation.venueName, presentation.venueNameEn)}
      </p>
      {windows.length > 1 && (
        <fieldset className="seat-change-page__screenings">
          <legend>{t('seatChange.screening')}</legend>
          {windows.map((w) => {
            const p = reservation.presentations.find((x) => x.id === w.presentationId);
            if (!p) return null;
            return (
              <label key={w.presentationId} className="seat-change-page__screening">
                <input
                  type="radio"
                  name="screening"
                  checked={w.presentationId === open.presentationId}
                  onChange={() => setChosen(w.presentationId)}
                />{' '}
                {screening(p)} · <DateTime iso={p.dateTime} lang={lang} />
              </label>
            );
          })}
        </fieldset>
      )}
      <SeatChanger key={presentation.id} reservation={reservation} presentation={presentation} />
    </div>
  );
}
