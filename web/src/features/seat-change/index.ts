// The seat change: its screen (a page of its own) and its way in from the reservation page.
export { SeatChangeOffer, SeatsChangedNotice } from './components/SeatChangeOffer';
