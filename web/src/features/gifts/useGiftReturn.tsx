import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { Notice } from '../../components/ui/Notice';
import { errorMessage } from '../../lib/apiErrors';
import { captchaTokenFor } from '../../lib/captcha';
import { useConfig } from '../../lib/config';
import { commitGift, type GiftOrderType } from '../../lib/api/gifts';
import type { SiteConfig } from '../../lib/api/types';

/**
 * Back from the gateway's page (`?paymentId=…&status=…`): commits the paid order and moves to its
 * own address (`?order=…`), which survives a reload. Answers what to show meanwhile; null when the
 * address is no return from a payment.
 */
export function useGiftReturn(orderType: GiftOrderType, path: string): ReactNode {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const appConfig = useConfig();
  const paymentId = params.get('paymentId');
  const status = params.get('status');
  const paid = status === 'captured' || status === 'authorized';
  const commit = useQuery({
    queryKey: ['gifts', 'commit', paymentId],
    enabled: paymentId !== null && paid && appConfig.raw !== null,
    retry: false,
    staleTime: Infinity,
    queryFn: async () => {
      const token = await captchaTokenFor(appConfig.raw as SiteConfig, 'commit');
      const done = await commitGift(orderType, token);
      const next = new URLSearchParams({ order: done.reservationIdentifier });
      const lang = params.get('lang');
      if (lang) next.set('lang', lang);
      void navigate(`${path}?${next.toString()}`, { replace: true });
      return done;
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
  if (commit.isError) {
    return (
      <Notice title={t('gifts.commitFailed')} tone="error">
        <p>{errorMessage(t, commit.error)}</p>
      </Notice>
    );
  }
  return <Loading />;
}
