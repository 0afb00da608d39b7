import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Loading } from '../../../../components/ui/Loading';
import { Notice } from '../../../../components/ui/Notice';
import { ApiError } from '../../../../lib/api/client';
import { useDocumentTitle } from '../../../../lib/documentTitle';
import { linkProofOf, reservationQuery, type Reservation } from '../../api/payment';
import { ConfirmationView } from './ConfirmationView';
import { ErrorNotice } from '../../../../components/ui/ErrorNotice';

/**
 * A paid reservation's own address, /reservation/{id}: what the order moves to once paid, what a
 * reload or a new tab of the buyer's session shows again, and where the signed links of the mail,
 * the text message and the calendar file lead (their `exp` and `sig` go on to the read-back, so a
 * buyer on another device sees the tickets too). Anyone else is told plainly that there is no
 * reservation here for them, and where to go on. `extra` is what the app puts under the
 * reservation (its cancellations and the cancel dialog, another feature's); `refresh` reads the
 * reservation again. `before` is what the app puts above it (a seat change's "done").
 */
export default function ReservationPage({
  extra,
  before,
}: {
  extra?: (reservation: Reservation, refresh: () => void) => ReactNode;
  before?: ReactNode;
} = {}) {
  const { t } = useTranslation();
  const id = useParams().reservationId ?? '';
  const [params] = useSearchParams();
  const link = linkProofOf(params);
  useDocumentTitle(t('screens.reservation'));
  const query = useQuery({ ...reservationQuery(id, link), enabled: id !== '' });
  const notFound =
    id === '' || (query.isError && query.error instanceof ApiError && query.error.status === 404);

  return (
    <div className="reservation-page">
      {!notFound && <h1 className="page-title">{t('screens.reservation')}</h1>}
      {notFound ? (
        <Notice
          title={t('confirmation.notFound.title')}
          tone="error"
          action={{ to: '/', label: t('confirmation.notFound.whatsOn') }}
        >
          <p>{t(link ? 'confirmation.notFound.link' : 'confirmation.notFound.session')}</p>
        </Notice>
      ) : query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorNotice title={t('confirmation.loadError')} headingLevel={2} error={query.error} />
      ) : (
        <>
          {before}
          <ConfirmationView reservation={query.data.reservation} link={link} />
          {extra?.(query.data.reservation, () => void query.refetch())}
        </>
      )}
    </div>
  );
}
