// The reservation page with its cancellations and cancel dialog: two features side by side,
// composed here (features never import each other).
import ReservationPage from '../features/order/components/confirmation/ReservationPage';
import { CancelReservation } from '../features/reservation-cancel';

export default function ReservationRoute() {
  return (
    <ReservationPage
      extra={(reservation, refresh) => (
        <CancelReservation reservation={reservation} onChanged={refresh} />
      )}
    />
  );
}
