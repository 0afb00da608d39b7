import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useMobileSend } from '../../../components/checkout/useMobileSend';
import { DateTime } from '../../../components/ui/DateTime';
import { LangLink } from '../../../components/ui/LangLink';
import { formatMoney } from '../../../lib/format';
import { withLang } from '../../../lib/lang';
import { localizedName } from '../../../lib/localized';
import { useSendTicketsBySms, type AreaReservation } from '../api/customerArea';
import { CardHead } from './CardHead';
import { MobileInput } from '../../../components/checkout/MobileInput';

/** The PDF in the page's language (the signed link already carries `?exp&sig`). */
function pdfHref(pdfUrl: string, lang: string): string {
  return `${pdfUrl}${pdfUrl.includes('?') ? '&' : '?'}lang=${lang === 'he' ? 'he' : 'en'}`;
}

export function ReservationsSection({
  id,
  title,
  empty,
  reservations,
  upcoming,
  addByNumber = false,
}: {
  id: string;
  title: string;
  empty: string;
  reservations: AreaReservation[];
  upcoming: boolean;
  /** Offer to add an order bought without logging in, by its reservation number. */
  addByNumber?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <section className="area__section" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="area__heading">
        {title}
      </h2>
      {reservations.length === 0 ? (
        <p className="area__empty">{empty}</p>
      ) : (
        <ul className="area__cards">
          {reservations.map((r) => (
            <ReservationCard key={r.ReservationIdentifier} r={r} upcoming={upcoming} />
          ))}
        </ul>
      )}
      {addByNumber && (
        <p className="area__add-order">
          {t('customerArea.tickets.missing')}{' '}
          <LangLink to={ADD_BY_NUMBER}>{t('customerArea.tickets.addByNumber')}</LangLink>
        </p>
      )}
    </section>
  );
}

/** The reservation-number login, which adds a guest order to a logged-in customer's account. */
export const ADD_BY_NUMBER = '/customer-area/login?method=reservation&returnTo=/customer-area';

function ReservationCard({ r, upcoming }: { r: AreaReservation; upcoming: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const langParam = useSearchParams()[0].get('lang');
  const p = r.presentation;
  const feature = localizedName(lang, p.featureName, p.featureNameEn);
  const titleId = `res-${r.ReservationIdentifier}`;
  const status = r.status === 'cancelled' ? 'cancelled' : upcoming ? 'paid' : 'past';

  return (
    <li className="area__card" aria-labelledby={titleId}>
      <CardHead
        title={feature}
        titleId={titleId}
        badge={status}
        badgeText={t(`customerArea.status.${status}`)}
      />
      <p className="area__meta">
        <DateTime iso={r.eventDateTime} lang={lang} />
      </p>
      <p className="area__meta">
        {localizedName(lang, p.locationName, p.locationNameEn)}
        {', '}
        {localizedName(lang, p.venueName, p.venueNameEn)}
      </p>
      <p className="area__meta">
        {t('customerArea.reservationNumber')}{' '}
        <bdi dir="ltr" className="area__number">
          {r.reservationNumber}
        </bdi>
        {' · '}
        {formatMoney(r.total, lang, r.currency)}
      </p>
      <ul className="area__seats" aria-label={t('customerArea.seatsLabel')}>
        {r.seats.map((s) => {
          const place = t('confirmation.seatLine', {
            section: localizedName(lang, s.section, s.sectionEn),
            row: s.row,
            seat: s.seat,
          });
          return (
            <li key={s.documentKey} className="area__seat">
              <span>
                {place}
                {' · '}
                {localizedName(lang, s.ticketType, s.ticketTypeEn)}
                {s.state !== 'valid' &&
                  ` · ${t(s.state === 'scanned' ? 'customerArea.seatState.scanned' : 'customerArea.seatState.cancelled')}`}
              </span>
              {upcoming && s.state === 'valid' && (
                <a className="area__link" href={withLang(s.edocumentUrl, langParam)}>
                  {t('customerArea.tickets.edocument')}
                  <span className="visually-hidden">{` (${place})`}</span>
                </a>
              )}
            </li>
          );
        })}
      </ul>
      <div className="area__actions">
        {upcoming && (
          <>
            <a className="button button--primary" href={pdfHref(r.pdfUrl, lang)} download>
              {t('customerArea.tickets.pdf')}
              <span className="visually-hidden">{` (${feature})`}</span>
            </a>
            <a className="button button--ghost" href={r.calendarUrl} download>
              {t('customerArea.tickets.calendar')}
              <span className="visually-hidden">{` (${feature})`}</span>
            </a>
          </>
        )}
        {upcoming && r.seatChangeUrl && (
          <LangLink className="button button--ghost" to={r.seatChangeUrl}>
            {t('seatChange.offer.open')}
            <span className="visually-hidden">{` (${feature})`}</span>
          </LangLink>
        )}
        <LangLink className="button button--ghost" to={r.reservationUrl}>
          {upcoming ? t('customerArea.tickets.manage') : t('customerArea.past.open')}
          <span className="visually-hidden">{` (${feature})`}</span>
        </LangLink>
      </div>
      {upcoming && <SendBySms reservationId={r.ReservationIdentifier} feature={feature} />}
    </li>
  );
}

function SendBySms({ reservationId, feature }: { reservationId: string; feature: string }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [open, setOpen] = useState(false);
  const send = useSendTicketsBySms(reservationId);
  const { mobile, setMobile, invalid, error, submit } = useMobileSend(send);

  if (!open) {
    return (
      <button
        type="button"
        className="area__text-button"
        aria-expanded={false}
        onClick={() => setOpen(true)}
      >
        {t('customerArea.sms.open')}
        <span className="visually-hidden">{` (${feature})`}</span>
      </button>
    );
  }
  return (
    <form className="area__sms" onSubmit={submit} noValidate>
      <label htmlFor={inputId}>{t('customerArea.sms.label')}</label>
      <div className="area__sms-row">
        <MobileInput
          id={inputId}
          className="area__input"
          value={mobile}
          onChange={setMobile}
          invalid={!!error}
          describedBy={`${inputId}-status`}
        />
        <button type="submit" className="button button--primary" disabled={send.isPending}>
          {t('customerArea.sms.send')}
        </button>
      </div>
      <p id={`${inputId}-status`} role="status" className="area__status">
        {send.isSuccess && !invalid ? t('customerArea.sms.sent') : ''}
        {error ?? ''}
      </p>
    </form>
  );
}
