import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LangLink } from '../ui/LangLink';
import { Loading } from '../ui/Loading';
import { Notice } from '../ui/Notice';
import { errorMessage } from '../../lib/apiErrors';
import { useConfig } from '../../lib/config';

/**
 * Back from the gateway's page (`?paymentId=…&status=…`) to a page whose order has no seats
 * (vouchers, donations, memberships): `commit` (the feature's call) finishes the paid order, and
 * the page moves to the order's own address (`?order=…`), which survives a reload. Answers what
 * to show meanwhile; null when the address is no return from a payment.
 */
export function usePaymentReturn({
  path,
  queryKey,
  commit,
}: {
  path: string;
  /** The feature's key for the commit (one per payment id). */
  queryKey: (paymentId: string | null) => readonly unknown[];
  commit: () => Promise<{ reservationIdentifier: string }>;
}): ReactNode {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const appConfig = useConfig();
  const paymentId = params.get('paymentId');
  const status = params.get('status');
  const paid = status === 'captured' || status === 'authorized';
  const done = useQuery({
    queryKey: queryKey(paymentId),
    enabled: paymentId !== null && paid && appConfig.raw !== null,
    retry: false,
    staleTime: Infinity,
    queryFn: async () => {
      const order = await commit();
      const next = new URLSearchParams({ order: order.reservationIdentifier });
      const lang = params.get('lang');
      if (lang) next.set('lang', lang);
      void navigate(`${path}?${next.toString()}`, { replace: true });
      return order;
    },
  });
  if (paymentId === null) return null;
  if (!paid) {
    return (
      <Notice title={t('gifts.notPaid')} tone="error">
        <p>{t('gifts.notPaidBody')}</p>
        <p>
          <LangLink className="button button--primary" to={path}>
            {t('gifts.tryAgain')}
          </LangLink>
        </p>
      </Notice>
    );
  }
  if (done.isError) {
    return (
      <Notice title={t('gifts.commitFailed')} tone="error">
        <p>{errorMessage(t, done.error)}</p>
      </Notice>
    );
  }
  return <Loading />;
}
