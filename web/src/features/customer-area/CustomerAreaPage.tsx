import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { ApiError } from '../../lib/api/client';
import { errorMessage } from '../../lib/apiErrors';
import { useDocumentTitle } from '../../lib/documentTitle';
import { withLang } from '../../lib/lang';
import { customerAreaQuery, useAreaFollowsLogin, useAreaLogout } from './api/customerArea';
import { CustomerArea } from './components/CustomerArea';
import './components/CustomerArea.css';

/** Where a visitor who is not logged in goes: the login, coming back here after it. */
export const LOGIN_PATH = '/customer-area/login?returnTo=/customer-area';

/**
 * The customer area, /customer-area: the logged-in customer's tickets, reservations, member
 * cards, video on demand, profile and saved cards. Nobody logged in: on to the login page.
 */
export default function CustomerAreaPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  useDocumentTitle(t('screens.customerArea'));
  const query = useQuery(customerAreaQuery);
  const logout = useAreaLogout();
  const [deleted, setDeleted] = useState(false);
  useAreaFollowsLogin();

  if (deleted) {
    return (
      <Notice
        title={t('customerArea.account.deletedTitle')}
        action={{ to: '/', label: t('customerArea.whatsOn') }}
      >
        <p>{t('customerArea.account.deletedText')}</p>
      </Notice>
    );
  }
  if (query.isPending) return <Loading />;
  if (query.isError) {
    const noAccount = query.error instanceof ApiError && query.error.code === 'CUSTOMER_NOT_FOUND';
    return (
      <Notice
        title={noAccount ? t('customerArea.noAccount.title') : t('customerArea.loadError')}
        tone={noAccount ? 'neutral' : 'error'}
      >
        <p>{noAccount ? t('customerArea.noAccount.text') : errorMessage(t, query.error)}</p>
        {noAccount && (
          <p>
            <button
              type="button"
              className="button button--ghost"
              onClick={() => logout.mutate()}
              disabled={logout.isPending}
            >
              {t('customerArea.logout')}
            </button>
          </p>
        )}
      </Notice>
    );
  }
  if (query.data === null) {
    // "Nobody logged in" may be an answer from before a login (the visitor was sent to the
    // login page and came back): while it is asked again, wait for the fresh answer.
    if (query.isFetching) return <Loading />;
    return <Navigate to={withLang(LOGIN_PATH, params.get('lang'))} replace />;
  }
  return <CustomerArea data={query.data} onDeleted={() => setDeleted(true)} />;
}
