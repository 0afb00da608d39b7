import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DateTime } from '../ui/DateTime';
import { LangLink } from '../ui/LangLink';
import { errorMessage } from '../../lib/apiErrors';
import { holdKeys, payHold, releaseHold, type Hold, type HoldState } from '../../lib/api/holds';
import { useCaptcha } from '../../lib/captcha';
import { formatMoney } from '../../lib/format';
import { withLang } from '../../lib/lang';
import { localizedName } from '../../lib/localized';
import './HoldCard.css';

/**
 * An unpaid hold ("reserve and pay later"): what is held, until when, and "Pay now" while it is
 * open. Paying goes to the payment page in the whole window, which comes back to `returnTo` (this
 * page) once paid; the hold then reads as paid, with its tickets. "Give up" (after a confirm step)
 * releases it at once; the hold's queries then read it released.
 */
export function HoldCard({
  hold,
  returnTo,
  headingLevel = 3,
}: {
  hold: Hold;
  /** The path (of this site) the payment page sends the customer back to. */
  returnTo: string;
  headingLevel?: 2 | 3;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const langParam = useSearchParams()[0].get('lang');
  const captcha = useCaptcha();
  const [paying, setPaying] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [releasing, setReleasing] = useState(false);
  const confirmRef = useRef<HTMLParagraphElement>(null);
  const queryClient = useQueryClient();
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  const p = hold.presentation;
  const feature = localizedName(lang, p.featureName, p.featureNameEn);
  const state = hold.state as HoldState;
  const titleId = `hold-${hold.reservationIdentifier}`;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const money = (agorot: number) => formatMoney(agorot, lang, hold.currency);

  async function pay() {
    setPaying(true);
    setError(null);
    try {
      const form = await payHold(hold.reservationIdentifier, {
        locale: lang === 'he' ? 'he' : 'en',
        returnPath: withLang(returnTo, langParam),
        total: hold.total,
        recaptchaToken: await captcha('payment'),
      });
      window.location.assign(form.paymentFormURL);
    } catch (e) {
      setError(errorMessage(t, e));
      setPaying(false);
    }
  }

  async function giveUp() {
    setReleasing(true);
    setError(null);
    try {
      const answer = await releaseHold(hold.reservationIdentifier);
      queryClient.setQueryData(holdKeys.one(hold.reservationIdentifier), answer);
      setConfirming(false);
    } catch (e) {
      setError(errorMessage(t, e));
    } finally {
      setReleasing(false);
      // Released here, or paid or released meanwhile: the lists read it again.
      void queryClient.invalidateQueries({ queryKey: holdKeys.all });
    }
  }

  return (
    <article className={`hold-card hold-card--${state}`} aria-labelledby={titleId}>
      <div className="hold-card__head">
        <Heading id={titleId} className="hold-card__title">
          {feature}
        </Heading>
        <span className={`hold-card__badge hold-card__badge--${state}`}>
          {t(`holds.state.${state}`)}
        </span>
      </div>
      <p className="hold-card__meta">
        <DateTime iso={hold.eventDateTime} lang={lang} />
      </p>
      <p className="hold-card__meta">
        {localizedName(lang, p.locationName, p.locationNameEn)}
        {', '}
        {localizedName(lang, p.venueName, p.venueNameEn)}
      </p>
      <p className="hold-card__meta">
        {t('holds.reservationNumber')}{' '}
        <bdi dir="ltr" className="hold-card__number">
          {hold.reservationNumber}
        </bdi>
      </p>
      <ul className="hold-card__seats" aria-label={t('holds.seatsLabel')}>
        {hold.seats.map((s) => (
          <li key={`${s.section}-${s.row}-${s.seat}`}>
            {t('holds.seatLine', {
              section: localizedName(lang, s.section, s.sectionEn),
              row: s.row,
              seat: s.seat,
            })}
            {' · '}
            {localizedName(lang, s.ticketType, s.ticketTypeEn)}
          </li>
        ))}
      </ul>
      {state === 'open' && (
        <>
          <p className="hold-card__deadline">
            <strong>{t('holds.payBy')}</strong> <DateTime iso={hold.holdUntil} lang={lang} />
          </p>
          <p className="hold-card__hint">{t('holds.payByHint')}</p>
          <div className="hold-card__actions">
            <button
              type="button"
              className="button button--primary"
              disabled={paying}
              onClick={() => void pay()}
            >
              {t('holds.payNow', { amount: money(hold.amountDue) })}
              <span className="visually-hidden">{` (${feature})`}</span>
            </button>
            {!confirming && (
              <button
                type="button"
                className="button button--ghost"
                disabled={paying}
                onClick={() => setConfirming(true)}
              >
                {t('holdRelease.giveUp')}
                <span className="visually-hidden">{` (${feature})`}</span>
              </button>
            )}
          </div>
          {confirming && (
            <div className="hold-card__confirm" role="group" aria-labelledby={`${titleId}-confirm`}>
              <p id={`${titleId}-confirm`} ref={confirmRef} tabIndex={-1}>
                <strong>{t('holdRelease.confirmTitle')}</strong> {t('holdRelease.confirmText')}
              </p>
              <div className="hold-card__actions">
                <button
                  type="button"
                  className="button button--primary"
                  disabled={releasing}
                  onClick={() => void giveUp()}
                >
                  {t('holdRelease.confirm')}
                </button>
                <button
                  type="button"
                  className="button button--ghost"
                  disabled={releasing}
                  onClick={() => setConfirming(false)}
                >
                  {t('holdRelease.keep')}
                </button>
              </div>
            </div>
          )}
        </>
      )}
      {state === 'paid' && (
        <div className="hold-card__actions">
          <LangLink
            className="button button--primary"
            to={`/reservation/${encodeURIComponent(hold.reservationIdentifier)}`}
          >
            {t('holds.tickets')}
            <span className="visually-hidden">{` (${feature})`}</span>
          </LangLink>
        </div>
      )}
      {state === 'released' && (
        <p className="hold-card__hint" role="status">
          {hold.givenUp ? t('holdRelease.givenUpText') : t('holds.releasedText')}
        </p>
      )}
      <p className="hold-card__error" role="alert">
        {error}
      </p>
    </article>
  );
}
