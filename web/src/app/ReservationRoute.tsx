// The reservation page with its seat change and its cancellations and cancel dialog: three
// features side by side, composed here (features never import each other).
import ReservationPage from '../features/order/components/confirmation/ReservationPage';
import { CancelReservation } from '../features/reservation-cancel';
import { SeatChangeOffer, SeatsChangedNotice } from '../features/seat-change';

export default function ReservationRoute() {
  return (
    <ReservationPage
      before={<SeatsChangedNotice />}
      extra={(reservation, refresh) => (
        <>
          <SeatChangeOffer reservation={reservation} />
          <CancelReservation reservation={reservation} onChanged={refresh} />
        </>
      )}
    />
  );
}
