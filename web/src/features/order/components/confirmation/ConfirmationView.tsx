import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DateTime } from '../../../../components/ui/DateTime';
import { formatMoney, formatTime, intlLocale } from '../../../../lib/format';
import { withLang } from '../../../../lib/lang';
import { localizedName } from '../../../../lib/localized';
import { useMobileSend } from '../../../../components/checkout/useMobileSend';
import { LangLink } from '../../../../components/ui/LangLink';
import { useConfig } from '../../../../lib/config';
import { VodFacts } from '../../../../components/vod/VodFacts';
import { breakdownLines, priceText } from '../../model/priceText';
import {
  reservationPdfUrl,
  useSendTickets,
  type LinkProof,
  type Reservation,
} from '../../api/payment';
import './ConfirmationStep.css';
import { MobileInput } from '../../../../components/checkout/MobileInput';

/**
 * The server's SVG shown as an image: an <img> never runs scripts or reaches the page, which
 * injecting the markup into the document could.
 */
function qrImageSrc(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/**
 * The paid order: its tickets with their QR codes (what the door scans), the screening, the
 * prices, the PDF and calendar file (signed links, good on any device), sharing, and the tickets by
 * SMS for the buyer's own session. `link` is the signed link the page was opened with, if any.
 */
export function ConfirmationView({
  reservation,
  link,
}: {
  reservation: Reservation;
  link: LinkProof | null;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const langParam = useSearchParams()[0].get('lang');
  const id = reservation.ReservationIdentifier;
  const money = (agorot: number) => formatMoney(agorot, lang, reservation.currency);
  const prices = { currency: reservation.currency, chargeName: reservation.serviceChargeName };
  const terms =
    lang === 'he' ? reservation.orderTerms : reservation.orderTermsEn || reservation.orderTerms;
  const presentation = reservation.presentation;
  const { routes } = useConfig();

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
          <p>
            {t(presentation.isVod ? 'vod.confirmation.emailSent' : 'confirmation.emailSent', {
              email: reservation.customerEmail,
            })}
          </p>
        )}
        <dl className="confirmation__facts">
          <div>
            <dt>{t('confirmation.feature')}</dt>
            <dd>{localizedName(lang, presentation.featureName, presentation.featureNameEn)}</dd>
          </div>
          {/* A film watched at home has no hall, hour or doors: its window is told below. */}
          {!presentation.isVod && (
            <>
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
            </>
          )}
        </dl>
        {(reservation.presentations ?? []).length > 1 && (
          <>
            <h3>{t('orderLines.otherScreenings')}</h3>
            <ul className="confirmation__more-screenings">
              {(reservation.presentations ?? []).slice(1).map((p) => (
                <li key={p.id}>
                  {localizedName(lang, p.featureName, p.featureNameEn)} ·{' '}
                  {localizedName(lang, p.venueName, p.venueNameEn)} ·{' '}
                  <DateTime iso={p.dateTime} lang={lang} /> ·{' '}
                  {t('orderLines.seats', {
                    count: reservation.seats.filter((s) => s.presentationId === p.id).length,
                  })}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>

      {presentation.isVod ? (
        <section className="confirmation__section" aria-labelledby="confirmation-vod">
          <h2 id="confirmation-vod" className="confirmation__heading">
            {t('vod.confirmation.title')}
          </h2>
          <p className="confirmation__hint">{t('vod.confirmation.hint')}</p>
          {reservation.vod && <VodFacts item={reservation.vod} className="confirmation__facts" />}
          <p>
            <LangLink
              className="button button--primary"
              to={`${routes.vod}?reservation=${encodeURIComponent(id)}`}
            >
              {t('whatsOn.watchNow')}
            </LangLink>
          </p>
        </section>
      ) : (
        <section className="confirmation__section" aria-labelledby="confirmation-digital">
          <h2 id="confirmation-digital" className="confirmation__heading">
            {t('confirmation.digital.title')}
          </h2>
          <p className="confirmation__hint">{t('confirmation.digital.hint')}</p>
          <ul className="confirmation__passes">
            {reservation.seats.map((seat, i) => {
              const place = t('confirmation.seatLine', {
                section: localizedName(lang, seat.section, seat.sectionEn),
                row: seat.row,
                seat: seat.seat,
              });
              return (
                <li
                  key={seat.documentKey}
                  className={`confirmation__pass${seat.cancelledAt ? ' confirmation__pass--cancelled' : ''}`}
                >
                  <p className="confirmation__pass-count">
                    {t('confirmation.digital.counter', {
                      n: i + 1,
                      total: reservation.seats.length,
                    })}
                    {seat.cancelledAt && (
                      <span className="confirmation__cancelled">{` · ${t('cancel.seatCancelled')}`}</span>
                    )}
                  </p>
                  {seat.qrSvg && (
                    <img
                      className="confirmation__qr"
                      src={qrImageSrc(seat.qrSvg)}
                      alt={t('confirmation.digital.qrAlt', { seat: place })}
                      width={200}
                      height={200}
                    />
                  )}
                  <p className="confirmation__pass-seat">{place}</p>
                  <p className="confirmation__pass-type">
                    {localizedName(lang, seat.ticketType, seat.ticketTypeEn)}
                  </p>
                  <a
                    className="confirmation__pass-link"
                    href={withLang(seat.edocumentUrl, langParam)}
                  >
                    {t('confirmation.digital.open')}
                    <span className="visually-hidden">{` (${place})`}</span>
                  </a>
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <section className="confirmation__section" aria-labelledby="confirmation-tickets">
        <h2 id="confirmation-tickets" className="confirmation__heading">
          {t(presentation.isVod ? 'vod.details' : 'confirmation.tickets')}
        </h2>
        <ul className="confirmation__lines">
          {reservation.seats.map((seat) => {
            const price = priceText(t, lang, seat, prices);
            return (
              <li key={seat.documentKey} className="confirmation__line">
                <span>
                  {seat.cancelledAt && (
                    <span className="confirmation__cancelled">{`${t('cancel.seatCancelled')}: `}</span>
                  )}
                  {/* A film watched at home has no seat to name: its ticket says what it is. */}
                  {!presentation.isVod &&
                    `${t('confirmation.seatLine', {
                      section: localizedName(lang, seat.section, seat.sectionEn),
                      row: seat.row,
                      seat: seat.seat,
                    })} · `}
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
          {breakdownLines(t, lang, reservation.priceBreakdown, prices)
            // A film at home is one line above: a "tickets" subtotal would only repeat it.
            .filter((line) => !(presentation.isVod && line.id === 'tickets'))
            .map((line) => (
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
        {(reservation.loyaltyPointsSpent > 0 ||
          reservation.loyaltyPointsEarned > 0 ||
          reservation.memberBalanceSpent > 0) && (
          <ul className="confirmation__points">
            {reservation.memberBalanceSpent > 0 && (
              <li>{t('seriesPass.spent', { amount: money(reservation.memberBalanceSpent) })}</li>
            )}
            {reservation.loyaltyPointsSpent > 0 && (
              <li>
                {t('loyalty.spent', {
                  points: new Intl.NumberFormat(intlLocale(lang)).format(
                    reservation.loyaltyPointsSpent,
                  ),
                })}
              </li>
            )}
            {reservation.loyaltyPointsEarned > 0 && (
              <li>
                {t('loyalty.earned', {
                  points: new Intl.NumberFormat(intlLocale(lang)).format(
                    reservation.loyaltyPointsEarned,
                  ),
                })}
              </li>
            )}
          </ul>
        )}
      </section>

      <section className="confirmation__section confirmation__actions">
        {/* Tickets to print and a date to keep are for screenings, not a film at home. */}
        {!presentation.isVod && (
          <>
            <a
              className="button button--primary"
              href={reservationPdfUrl(reservation.pdfUrl, lang)}
              download
            >
              {t('confirmation.downloadPdf')}
            </a>
            <a className="button button--ghost" href={reservation.calendarUrl} download>
              {t('confirmation.addToCalendar')}
            </a>
          </>
        )}
        <ShareButton
          title={localizedName(lang, presentation.featureName, presentation.featureNameEn)}
          url={new URL(
            withLang(reservation.confirmationUrl, langParam),
            window.location.origin,
          ).toString()}
        />
      </section>

      {/* Text messages go out for the buyer's own session; a signed link only reads. */}
      {link === null && <SendTicketsForm reservationIdentifier={id} vod={presentation.isVod} />}

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

/**
 * The Web Share sheet where there is one; otherwise the link is copied. The link shared is the
 * signed confirmation address, so it opens the tickets on another device too.
 */
function ShareButton({ title, url }: { title: string; url: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);

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

/** The tickets by text message; for a film watched at home, the link to the order, where it plays. */
function SendTicketsForm({
  reservationIdentifier,
  vod,
}: {
  reservationIdentifier: string;
  vod: boolean;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const send = useSendTickets(reservationIdentifier);
  const { mobile, setMobile, invalid, error, submit } = useMobileSend(send);

  return (
    <section className="confirmation__section" aria-labelledby={`${inputId}-title`}>
      <h2 id={`${inputId}-title`} className="confirmation__heading">
        {t(vod ? 'vod.confirmation.smsTitle' : 'confirmation.sms.title')}
      </h2>
      <form className="confirmation__sms" onSubmit={submit} noValidate>
        <label htmlFor={inputId}>{t('checkout.fields.mobileNumber')}</label>
        <div className="confirmation__sms-row">
          <MobileInput
            id={inputId}
            className="checkout-field__input"
            value={mobile}
            onChange={setMobile}
            invalid={!!error}
          />
          <button type="submit" className="button button--primary" disabled={send.isPending}>
            {t('confirmation.sms.send')}
          </button>
        </div>
      </form>
      <p role="status" className="confirmation__sms-status">
        {send.isSuccess && !invalid
          ? t(vod ? 'vod.confirmation.smsSent' : 'confirmation.sms.sent')
          : ''}
        {error ?? ''}
      </p>
    </section>
  );
}
