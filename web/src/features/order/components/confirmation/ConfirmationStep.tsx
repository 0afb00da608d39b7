import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../../components/ui/Loading';
import { Notice } from '../../../../components/ui/Notice';
import { errorMessage } from '../../../../lib/apiErrors';
import { DateTime } from '../../../../components/ui/DateTime';
import { formatMoney, formatTime } from '../../../../lib/format';
import { localizedName } from '../../../../lib/localized';
import { parseIsraeliMobile } from '../../../../components/checkout/customerInfo';
import { breakdownLines, priceText } from '../../model/priceText';
import {
  reservationCalendarUrl,
  reservationQuery,
  reservationPdfUrl,
  useSendTickets,
  type Reservation,
} from '../../api/payment';
import './ConfirmationStep.css';

/** The paid order: its terms, tickets and totals, and what the buyer can do with the tickets. */
export function ConfirmationStep({ reservationIdentifier }: { reservationIdentifier: string }) {
  const { t } = useTranslation();
  const query = useQuery(reservationQuery(reservationIdentifier));

  if (query.isPending) return <Loading />;
  if (query.isError) {
    return (
      <Notice title={t('confirmation.loadError')} headingLevel={2} tone="error">
        <p>{errorMessage(t, query.error)}</p>
      </Notice>
    );
  }
  return <ConfirmationView reservation={query.data.reservation} />;
}

function ConfirmationView({ reservation }: { reservation: Reservation }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const id = reservation.ReservationIdentifier;
  const money = (agorot: number) => formatMoney(agorot, lang, reservation.currency);
  const prices = { currency: reservation.currency, chargeName: reservation.serviceChargeName };
  const terms =
    lang === 'he' ? reservation.orderTerms : reservation.orderTermsEn || reservation.orderTerms;
  const presentation = reservation.presentation;

  return (
    <div className="confirmation">
      <section className="confirmation__section" aria-labelledby="confirmation-title">
        <h2 id="confirmation-title" className="confirmation__title">
          {t('confirmation.title')}
        </h2>
        <p>
          {/* The order number never breaks at its hyphen, and reads left to right in Hebrew. */}
          {t('confirmation.thanks', { name: reservation.customerFirstName, number: '\u0000' })
            .split('\u0000')
            .flatMap((part, i) =>
              i === 0
                ? [part]
                : [
                    <bdi key={i} dir="ltr" className="confirmation__number">
                      {reservation.reservationNumber}
                    </bdi>,
                    part,
                  ],
            )}
        </p>
        {reservation.customerEmail && (
          <p>{t('confirmation.emailSent', { email: reservation.customerEmail })}</p>
        )}
        <dl className="confirmation__facts">
          <div>
            <dt>{t('confirmation.feature')}</dt>
            <dd>{localizedName(lang, presentation.featureName, presentation.featureNameEn)}</dd>
          </div>
          <div>
            <dt>{t('confirmation.venue')}</dt>
            <dd>
              {localizedName(lang, presentation.locationName, presentation.locationNameEn)}
              {', '}
              {localizedName(lang, presentation.venueName, presentation.venueNameEn)}
            </dd>
          </div>
          <div>
            <dt>{t('confirmation.dateTime')}</dt>
            <dd>
              <DateTime iso={reservation.eventDateTime} lang={lang} />
            </dd>
          </div>
          <div>
            <dt>{t('confirmation.entranceTime')}</dt>
            <dd>
              <time dateTime={reservation.entranceTime}>
                {formatTime(reservation.entranceTime, lang)}
              </time>
            </dd>
          </div>
        </dl>
      </section>

      <section className="confirmation__section" aria-labelledby="confirmation-tickets">
        <h2 id="confirmation-tickets" className="confirmation__heading">
          {t('confirmation.tickets')}
        </h2>
        <ul className="confirmation__lines">
          {reservation.seats.map((seat) => {
            const price = priceText(t, lang, seat, prices);
            return (
              <li key={seat.documentKey} className="confirmation__line">
                <span>
                  {t('confirmation.seatLine', {
                    section: localizedName(lang, seat.section, seat.sectionEn),
                    row: seat.row,
                    seat: seat.seat,
                  })}
                  {' · '}
                  {localizedName(lang, seat.ticketType, seat.ticketTypeEn)}
                </span>
                <span className="confirmation__amount">
                  {price.full}
                  {price.included && <span className="confirmation__note">{price.included}</span>}
                </span>
              </li>
            );
          })}
          {reservation.products.map((product, i) => (
            <li key={`p-${i}`} className="confirmation__line">
              <span>
                {t('checkout.summary.productLine', {
                  name: localizedName(lang, product.name, product.nameEn),
                  quantity: product.quantity,
                })}
              </span>
              <span className="confirmation__amount">{money(product.amount)}</span>
            </li>
          ))}
        </ul>
        <dl className="confirmation__breakdown">
          {breakdownLines(t, lang, reservation.priceBreakdown, prices).map((line) => (
            <div
              key={line.id}
              className={`confirmation__line${line.id === 'total' ? ' confirmation__total' : ''}`}
            >
              <dt>{line.label}</dt>
              <dd className="confirmation__amount">
                {line.amount}
                {line.note && <span className="confirmation__note">{line.note}</span>}
              </dd>
            </div>
          ))}
        </dl>
      </section>

      <section className="confirmation__section confirmation__actions">
        <a className="button button--primary" href={reservationPdfUrl(id, lang)} download>
          {t('confirmation.downloadPdf')}
        </a>
        <a className="button button--ghost" href={reservationCalendarUrl(id)} download>
          {t('confirmation.addToCalendar')}
        </a>
        <ShareButton
          title={localizedName(lang, presentation.featureName, presentation.featureNameEn)}
        />
      </section>

      <SendTicketsForm reservationIdentifier={id} />

      {terms && (
        <section className="confirmation__section" aria-labelledby="confirmation-terms">
          <h2 id="confirmation-terms" className="confirmation__heading">
            {t('confirmation.terms')}
          </h2>
          <p className="confirmation__terms">{terms}</p>
        </section>
      )}
    </div>
  );
}

/** The Web Share sheet where there is one; otherwise the page's link is copied. */
function ShareButton({ title }: { title: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const url = window.location.href;

  async function share() {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  }

  return (
    <>
      <button type="button" className="button button--ghost" onClick={() => void share()}>
        {t('confirmation.share')}
      </button>
      <span role="status" className="confirmation__copied">
        {copied ? t('confirmation.linkCopied') : ''}
      </span>
    </>
  );
}

function SendTicketsForm({ reservationIdentifier }: { reservationIdentifier: string }) {
  const { t } = useTranslation();
  const inputId = useId();
  const [mobile, setMobile] = useState('');
  const [invalid, setInvalid] = useState(false);
  const send = useSendTickets(reservationIdentifier);
  const error = invalid
    ? t('errors.invalid_mobileNumber')
    : send.isError
      ? errorMessage(t, send.error)
      : null;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const number = parseIsraeliMobile(mobile);
    setInvalid(!number);
    if (!number) {
      send.reset();
      return;
    }
    send.mutate(number);
  }

  return (
    <section className="confirmation__section" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="confirmation__heading">
        {t('confirmation.sms.title')}
      </h2>
      <form className="confirmation__sms" onSubmit={submit} noValidate>
        <label htmlFor={inputId}>{t('checkout.fields.mobileNumber')}</label>
        <div className="confirmation__sms-row">
          <input
            id={inputId}
            className="checkout-field__input"
            type="tel"
            inputMode="tel"
            dir="ltr"
            autoComplete="tel"
            value={mobile}
            aria-invalid={error ? true : undefined}
            onChange={(e) => setMobile(e.target.value)}
          />
          <button type="submit" className="button button--primary" disabled={send.isPending}>
            {t('confirmation.sms.send')}
          </button>
        </div>
      </form>
      <p role="status" className="confirmation__sms-status">
        {send.isSuccess && !invalid ? t('confirmation.sms.sent') : ''}
        {error ?? ''}
      </p>
    </section>
  );
}
