import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Loading } from '../ui/Loading';
import { formatMoney } from '../../lib/format';
import { ErrorNotice } from '../ui/ErrorNotice';

interface PaidOrderHead {
  reservationNumber: string;
  total: number;
  currency: string;
}

/**
 * A paid prepaid order's page (vouchers, donations, memberships): the state of reading it, then
 * its title, number and the amount paid above what `children` lists. The caller reads the order
 * (components make no API calls) and hands the query's result in.
 */
export function PaidOrder<T extends PaidOrderHead>({
  read,
  title,
  children,
}: {
  read: UseQueryResult<T>;
  title: (order: T) => string;
  children: (order: T) => ReactNode;
}) {
  const { t, i18n } = useTranslation();
  if (read.isPending) return <Loading />;
  if (read.isError) {
    return <ErrorNotice title={t('gifts.orderNotFound')} error={read.error} />;
  }
  const order = read.data;
  return (
    <div className="gift-confirmation">
      <h1 className="page-title">{title(order)}</h1>
      <p>
        {t('gifts.orderNumber')}{' '}
        <bdi dir="ltr" className="gift-confirmation__number">
          {order.reservationNumber}
        </bdi>
        {' · '}
        {t('gifts.paid')} {formatMoney(order.total, i18n.language, order.currency)}
      </p>
      {children(order)}
    </div>
  );
}
