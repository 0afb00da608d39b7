// The door's answer, big and unmistakable on a phone held at arm's length: a colour, an icon and
// words together (never colour alone), announced to screen readers as it changes.
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatTime } from '../../../lib/format';
import type { DoorPresentation, DoorScan } from './api';
import { toneOf, type Tone } from './model';

function Icon({ tone }: { tone: Tone }) {
  // A tick, an exclamation in a triangle, a cross in a circle: told apart by shape too.
  return (
    <svg className="door-answer__icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      {tone === 'ok' && (
        <>
          <circle cx="24" cy="24" r="22" fill="currentColor" opacity="0.15" />
          <path d="M13 25l7 7 15-16" fill="none" stroke="currentColor" strokeWidth="5" />
        </>
      )}
      {tone === 'warn' && (
        <>
          <path d="M24 4L45 42H3z" fill="currentColor" opacity="0.15" />
          <path d="M24 17v13M24 35v3" stroke="currentColor" strokeWidth="5" />
        </>
      )}
      {tone === 'stop' && (
        <>
          <circle cx="24" cy="24" r="22" fill="currentColor" opacity="0.15" />
          <path d="M15 15l18 18M33 15L15 33" stroke="currentColor" strokeWidth="5" />
        </>
      )}
    </svg>
  );
}

function presentationText(p: DoorPresentation, lang: string) {
  const he = lang === 'he';
  return [
    he ? p.featureName : p.featureNameEn,
    formatDateTime(p.dateTime, lang),
    he ? p.venueName : p.venueNameEn,
    he ? p.locationName : p.locationNameEn,
  ].join(' · ');
}

/** The answer of a scan (or of a failed call: `failed` holds its words). */
export function DoorAnswer({ scan, failed }: { scan: DoorScan | null; failed?: string | null }) {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  // One live region, always there, so every change inside it is announced.
  return (
    <div className="door-answer-region" aria-live="assertive" aria-atomic="true">
      {failed ? (
        <div className="door-answer door-answer--stop" data-result="failed">
          <Icon tone="stop" />
          <p className="door-answer__title">{failed}</p>
        </div>
      ) : scan ? (
        <Answer scan={scan} lang={lang} />
      ) : null}
    </div>
  );
}

function Answer({ scan, lang }: { scan: DoorScan; lang: string }) {
  const { t } = useTranslation();
  const he = lang === 'he';
  const tone = toneOf(scan.result);
  const ticket = scan.ticket;
  const detail = (() => {
    switch (scan.result) {
      case 'alreadyScanned':
        return scan.scannedAt
          ? t('door.scannedAt', { time: formatTime(scan.scannedAt, lang) })
          : null;
      case 'tooEarly':
        return scan.entranceTime
          ? t('door.opensAt', { time: formatTime(scan.entranceTime, lang) })
          : null;
      case 'tooLate':
        return scan.endTime ? t('door.endedAt', { time: formatTime(scan.endTime, lang) }) : null;
      case 'wrongPresentation':
        return ticket
          ? t('door.ticketIsFor', { presentation: presentationText(ticket.presentation, lang) })
          : null;
      default:
        return null;
    }
  })();
  return (
    <div className={`door-answer door-answer--${tone}`} data-result={scan.result}>
      <Icon tone={tone} />
      <p className="door-answer__title">{t(`door.result.${scan.result}`)}</p>
      {detail && <p className="door-answer__detail">{detail}</p>}
      {ticket && (
        <dl className="door-answer__ticket">
          {ticket.row ? (
            <>
              <div>
                <dt>{t('door.row')}</dt>
                <dd>{ticket.row}</dd>
              </div>
              <div>
                <dt>{t('door.seat')}</dt>
                <dd>{ticket.seat}</dd>
              </div>
            </>
          ) : (
            <div>
              <dt>{t('door.seat')}</dt>
              <dd>{t('door.generalAdmission')}</dd>
            </div>
          )}
          <div>
            <dt>{t('door.section')}</dt>
            <dd>{he ? ticket.section : ticket.sectionEn || ticket.section}</dd>
          </div>
          <div>
            <dt>{t('door.ticketType')}</dt>
            <dd>{he ? ticket.ticketType : ticket.ticketTypeEn || ticket.ticketType}</dd>
          </div>
          <div>
            <dt>{t('door.ticketNumber')}</dt>
            <dd>
              <bdi dir="ltr">{ticket.ticketNumber}</bdi>{' '}
              {t('door.nOfCount', { n: ticket.number, count: ticket.count })}
            </dd>
          </div>
        </dl>
      )}
    </div>
  );
}
