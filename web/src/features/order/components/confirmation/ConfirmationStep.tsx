import { Navigate, useSearchParams } from 'react-router';
import { withLang } from '../../../../lib/lang';
import { reservationPath } from '../../api/payment';

/**
 * The order's last step: once paid, the order moves to the reservation's own address (replacing
 * this entry, so Back does not return to a finished checkout and a reload keeps the tickets).
 */
export function ConfirmationStep({ reservationIdentifier }: { reservationIdentifier: string }) {
  const [params] = useSearchParams();
  return (
    <Navigate replace to={withLang(reservationPath(reservationIdentifier), params.get('lang'))} />
  );
}
