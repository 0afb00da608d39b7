// Back from the gateway's page (`?paymentId=…&status=…`) to a page whose order has no seats
// (vouchers, donations, memberships): the feature's `commit` finishes the paid order, and the page
// moves to the order's own address (`?order=…`), which survives a reload.
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { useConfig } from './config';
import { withLang } from './lang';

export type PaymentReturn =
  | { kind: 'none' }
  | { kind: 'notPaid' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'committing' };

export function usePaymentReturn({
  path,
  queryKey,
  commit,
  orderPath,
}: {
  path: string;
  /** The feature's key for the commit (one per payment id). */
  queryKey: (paymentId: string | null) => readonly unknown[];
  commit: () => Promise<{ reservationIdentifier: string }>;
  /** Where a paid order is shown; by default the page's own `?order=` address. */
  orderPath?: (reservationIdentifier: string) => string;
}): PaymentReturn {
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
      const lang = params.get('lang');
      if (orderPath) {
        void navigate(withLang(orderPath(order.reservationIdentifier), lang), { replace: true });
        return order;
      }
      const next = new URLSearchParams({ order: order.reservationIdentifier });
      if (lang) next.set('lang', lang);
      void navigate(`${path}?${next.toString()}`, { replace: true });
      return order;
    },
  });
  if (paymentId === null) return { kind: 'none' };
  if (!paid) return { kind: 'notPaid' };
  if (done.isError) return { kind: 'failed', error: done.error };
  return { kind: 'committing' };
}
