import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { HoldCard } from '../../components/holds/HoldCard';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { ApiError } from '../../lib/api/client';
import { holdQuery, type HoldState } from '../../lib/api/holds';
import { useDocumentTitle } from '../../lib/documentTitle';
import './HoldPage.css';
import { ErrorNotice } from '../../components/ui/ErrorNotice';

/**
 * A hold's confirmation, /hold/{id}: what the order moves to once the seats are reserved to pay
 * later, with the deadline and "Pay now"; the payment page comes back here. Only its customer,
 * logged in, sees it.
 */
export default function HoldPage() {
  const { t } = useTranslation();
  const id = useParams().reservationId ?? '';
  useDocumentTitle(t('holds.pageTitle'));
  const query = useQuery({ ...holdQuery(id), enabled: id !== '' });
  const status = query.error instanceof ApiError ? query.error.status : null;

  if (id === '' || status === 404) {
    return (
      <Notice
        title={t('holds.notFound')}
        tone="error"
        action={{ to: '/customer-area', label: t('holds.toArea') }}
      />
    );
  }
  if (status === 401) {
    return (
      <Notice
        title={t('holds.logIn')}
        action={{
          to: `/customer-area/login?returnTo=${encodeURIComponent(`/hold/${id}`)}`,
          label: t('holds.logInButton'),
        }}
      />
    );
  }
  if (query.isPending) return <Loading />;
  if (query.isError) {
    return <ErrorNotice title={t('holds.loadError')} error={query.error} />;
  }
  const hold = query.data.hold;
  const state = hold.state as HoldState;
  return (
    <div className="hold-page">
      <h1 className="page-title">{t(`holds.pageHeading.${state}`)}</h1>
      {state === 'open' && <p className="hold-page__lead">{t('holds.reservedLead')}</p>}
      <HoldCard hold={hold} returnTo={`/hold/${id}`} headingLevel={2} />
      <p>
        <LangLink className="button button--ghost" to="/customer-area">
          {t('holds.toArea')}
        </LangLink>
      </p>
    </div>
  );
}
