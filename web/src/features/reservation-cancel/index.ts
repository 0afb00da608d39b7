// The cancel reservation dialog and the reservation's cancellations, for the reservation page
// and (later) the customer area.
export { CancelReservation } from './components/CancelReservation';
export { CancelReservationDialog } from './components/CancelReservationDialog';
