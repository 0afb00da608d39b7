import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { ApiError } from '../../lib/api/client';
import { useDocumentTitle } from '../../lib/documentTitle';
import { DateTime } from '../../components/ui/DateTime';
import { formatDateTime, formatTime } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { fetchEDocument, type EDocument } from './api';
import './EDocumentPage.css';
import { ErrorNotice } from '../../components/ui/ErrorNotice';

type TicketState = 'valid' | 'scanned' | 'cancelled';

function ticketState(raw: string): TicketState {
  return raw === 'scanned' || raw === 'cancelled' ? raw : 'valid';
}

/**
 * The server's SVG shown as an image: an <img> never runs scripts or reaches the page, which
 * injecting the markup into the document could.
 */
function qrImageSrc(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** A ticket's e-document: where its QR code leads, shown at the entrance. */
export default function EDocumentPage() {
  const { t } = useTranslation();
  const documentKey = useParams().documentKey ?? '';
  useDocumentTitle(t('screens.edocument'));
  const query = useQuery({
    queryKey: ['edocument', documentKey] as const,
    queryFn: ({ signal }) => fetchEDocument(documentKey, signal),
    enabled: documentKey !== '',
  });

  return (
    <div className="edocument">
      <h1 className="page-title">{t('screens.edocument')}</h1>
      {documentKey === '' ||
      (query.isError && query.error instanceof ApiError && query.error.status === 404) ? (
        <Notice title={t('edocument.notFound')} headingLevel={2} tone="error">
          <p>{t('edocument.notFoundDetail')}</p>
        </Notice>
      ) : query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorNotice title={t('edocument.loadError')} headingLevel={2} error={query.error} />
      ) : (
        <EDocumentView doc={query.data} />
      )}
    </div>
  );
}

function EDocumentView({ doc }: { doc: EDocument }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const state = ticketState(doc.state);
  const p = doc.presentation;
  return (
    <article className={`edocument__ticket edocument__ticket--${state}`}>
      <p className="edocument__state" role="status">
        {state === 'scanned' && doc.scannedAt
          ? t('edocument.state.scannedAt', { time: formatDateTime(doc.scannedAt, lang) })
          : t(`edocument.state.${state}`)}
      </p>
      <h2 className="edocument__feature">{localizedName(lang, p.featureName, p.featureNameEn)}</h2>
      <dl className="edocument__facts">
        <div>
          <dt>{t('edocument.dateTime')}</dt>
          <dd>
            <DateTime iso={p.dateTime} lang={lang} />
          </dd>
        </div>
        <div>
          <dt>{t('edocument.entranceTime')}</dt>
          <dd>
            <time dateTime={doc.entranceTime}>{formatTime(doc.entranceTime, lang)}</time>
          </dd>
        </div>
        <div>
          <dt>{t('edocument.hall')}</dt>
          <dd>
            {localizedName(lang, p.locationName, p.locationNameEn)}
            {', '}
            {localizedName(lang, p.venueName, p.venueNameEn)}
          </dd>
        </div>
        <div>
          <dt>{t('edocument.seat')}</dt>
          <dd>
            {t('edocument.seatLine', {
              section: localizedName(lang, doc.section, doc.sectionEn),
              row: doc.row,
              seat: doc.seat,
            })}
          </dd>
        </div>
        <div>
          <dt>{t('edocument.ticketType')}</dt>
          <dd>{localizedName(lang, doc.ticketType, doc.ticketTypeEn)}</dd>
        </div>
        <div>
          <dt>{t('edocument.reservationNumber')}</dt>
          <dd>
            {/* Left to right inside, aligned with the other values in either direction. */}
            <bdi dir="ltr">{doc.reservationNumber}</bdi>
          </dd>
        </div>
      </dl>
      {doc.qrSvg && state === 'valid' && (
        <img
          className="edocument__qr"
          src={qrImageSrc(doc.qrSvg)}
          alt={t('edocument.qrAlt')}
          width={240}
          height={240}
        />
      )}
    </article>
  );
}
