// One order, from the seats to the confirmation, as one reducer over named events (the model is
// the payment dialog's, paymentDialog.ts). The page owns it; every step reads it and reports what
// happened, so the priced cart and the clock exist once and cannot drift apart between steps.
//
// What a step is still editing (the tickets, the products) is kept here too, as a draft beside
// what the cart was last posted with: entering a step starts it from what was handed on, so a
// buyer who goes back without continuing finds the choices the cart has.
import type { CustomerInfo } from '../../../components/checkout/customerInfo';
import type { CartResponse, CheckoutResponse, PricedCart } from '../../../lib/api/types';
import { clockOf, type Clock, type Timed } from '../../../lib/countdownClock';
import type { Step } from './steps';
import type { TicketLine, TicketsChoice } from './ticketLines';

/** The most of one product a buyer may take. */
export const MAX_PRODUCT_QUANTITY = 20;

/** The tickets step's lines and member number, as the buyer is choosing them. */
export interface TicketsDraft {
  lines: TicketLine[];
  memberNumber: string;
}

export interface OrderState {
  step: Step;
  /** A reloaded page is finding out where the server's checkout is: no step is shown yet. */
  resuming: boolean;
  /** Whether the complex sells products (a products step between tickets and payment). */
  hasProducts: boolean;
  draft: TicketsDraft;
  /** The tickets the cart was last posted with. */
  choice: TicketsChoice | null;
  /** The cart as the server last priced it (POST /cart). */
  cart: PricedCart | null;
  /** When the holds end, as the server's last answer that said so put it. */
  clock: Clock | null;
  /** Products (id → quantity) as the buyer is choosing them. */
  productsDraft: Record<number, number>;
  /** The products the cart was last posted with. */
  products: Record<number, number>;
  /** The details the server accepted with the cart. */
  customerInfo: CustomerInfo | null;
  /** The paid order. */
  reservation: string | null;
  /** A payment a whole-window gateway sent the buyer back with: settled before anything else. */
  returnedPayment: string | null;
  /**
   * The server's step whose one extension (POST /seats/extend) is spent, or a payment's window
   * (never extended); null while the current step may still be extended. A cart answer at
   * another step gives the new step its own extension.
   */
  extendedStep: string | null;
  /** The seats the last re-claim after the time ran out could not get back (their names). */
  lostSeats: string[] | null;
}

export type OrderEvent =
  /** The reload's resume is over: where to show, and what this tab had kept (all optional). */
  | {
      type: 'resumed';
      step?: Step;
      choice?: TicketsChoice | null;
      products?: Record<number, number>;
      customerInfo?: CustomerInfo | null;
      cart?: Timed<CartResponse> | null;
    }
  /** The buyer moves between steps without posting (continue from the seats, back). */
  | { type: 'wentTo'; step: Step }
  | { type: 'ticketLinesChanged'; lines: TicketLine[] }
  | { type: 'memberNumberApplied'; memberNumber: string }
  /** The cart took the tickets: on to the products, or to the payment. */
  | { type: 'ticketsPriced'; choice: TicketsChoice; answer: Timed<CartResponse> }
  | { type: 'productQuantitySet'; productId: number; quantity: number }
  /** The cart took the products: on to the payment. */
  | { type: 'productsPriced'; products: Record<number, number>; answer: Timed<CartResponse> }
  /** The cart took the buyer's details. */
  | { type: 'detailsSaved'; customerInfo: CustomerInfo; answer: Timed<CartResponse> }
  /** The cart was priced again with other vouchers. */
  | { type: 'cartRepriced'; answer: Timed<CartResponse> }
  /** A payment was started: it keeps the seats for its own window. */
  | { type: 'paymentStarted'; clock: Clock | null }
  | { type: 'paid'; reservation: string }
  /** Back to the seat map with nothing chosen (the time ran out, the payment was lost). */
  | { type: 'restarted' }
  /** The step's one extension was given: the clock runs to its new end. */
  | { type: 'extended'; answer: Timed<CheckoutResponse> }
  /** The server refused an extension (already spent, or past the hold's ceiling). */
  | { type: 'extensionRefused' }
  /**
   * After the time ran out, the seats still free were locked again (a new checkout on the
   * server): on at the tickets step with what was chosen, or, when none came back, at the seats.
   */
  | { type: 'reclaimed'; kept: number; lost: string[] };

const NO_TICKETS: TicketsDraft = { lines: [], memberNumber: '' };

const draftOf = (choice: TicketsChoice | null): TicketsDraft =>
  choice ? { lines: choice.lines, memberNumber: choice.memberNumber } : NO_TICKETS;

export function initialOrderState({
  hasProducts,
  returnedPayment = null,
}: {
  hasProducts: boolean;
  returnedPayment?: string | null;
}): OrderState {
  return {
    step: 'seats',
    resuming: true,
    hasProducts,
    draft: NO_TICKETS,
    choice: null,
    cart: null,
    clock: null,
    productsDraft: {},
    products: {},
    customerInfo: null,
    reservation: null,
    returnedPayment,
    extendedStep: null,
    lostSeats: null,
  };
}

/** The state with a new priced cart; an answer without a timer keeps the one running. */
function priced(state: OrderState, answer: Timed<CartResponse>): OrderState {
  return {
    ...state,
    cart: answer.cart,
    clock: clockOf(answer) ?? state.clock,
    extendedStep: answer.step === state.extendedStep ? state.extendedStep : null,
  };
}

export function orderReducer(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'resumed': {
      const choice = event.choice ?? null;
      const products = event.products ?? {};
      const next: OrderState = {
        ...state,
        resuming: false,
        step: event.step ?? state.step,
        choice,
        draft: draftOf(choice),
        products,
        productsDraft: products,
        customerInfo: event.customerInfo ?? null,
      };
      return event.cart ? priced(next, event.cart) : next;
    }
    case 'wentTo':
      if (event.step === 'tickets') {
        return { ...state, step: 'tickets', draft: draftOf(state.choice), lostSeats: null };
      }
      if (event.step === 'products') {
        return { ...state, step: 'products', productsDraft: state.products };
      }
      return { ...state, step: event.step };
    case 'ticketLinesChanged':
      return { ...state, draft: { ...state.draft, lines: event.lines } };
    case 'memberNumberApplied':
      return { ...state, draft: { ...state.draft, memberNumber: event.memberNumber } };
    case 'ticketsPriced': {
      const step = state.hasProducts ? 'products' : 'payment';
      return {
        ...priced(state, event.answer),
        choice: event.choice,
        draft: draftOf(event.choice),
        step,
        productsDraft: state.products,
        lostSeats: null,
      };
    }
    case 'productQuantitySet': {
      const quantity = Math.max(0, Math.min(MAX_PRODUCT_QUANTITY, event.quantity));
      return { ...state, productsDraft: { ...state.productsDraft, [event.productId]: quantity } };
    }
    case 'productsPriced':
      return {
        ...priced(state, event.answer),
        products: event.products,
        productsDraft: event.products,
        step: 'payment',
      };
    case 'detailsSaved':
      return { ...priced(state, event.answer), customerInfo: event.customerInfo };
    case 'cartRepriced':
      return priced(state, event.answer);
    case 'paymentStarted':
      // A payment's window is its own and is never extended.
      return event.clock ? { ...state, clock: event.clock, extendedStep: 'payment' } : state;
    case 'paid':
      return {
        ...state,
        reservation: event.reservation,
        returnedPayment: null,
        step: 'confirmation',
      };
    case 'restarted':
      return {
        ...initialOrderState({ hasProducts: state.hasProducts }),
        resuming: false,
        reservation: state.reservation,
      };
    case 'extended':
      return {
        ...state,
        // Before the first cart the seat holds carry the clock (and get the new end there).
        clock: state.clock ? (clockOf(event.answer) ?? state.clock) : null,
        extendedStep: event.answer.step,
      };
    case 'extensionRefused':
      return { ...state, extendedStep: state.extendedStep ?? 'refused' };
    case 'reclaimed':
      if (event.kept === 0) {
        return {
          ...initialOrderState({ hasProducts: state.hasProducts }),
          resuming: false,
          reservation: state.reservation,
          lostSeats: event.lost,
        };
      }
      // Time ran out on the seat step itself: the seats kept are held again, on the seat map.
      if (state.step === 'seats') {
        return { ...state, lostSeats: event.lost.length > 0 ? event.lost : null };
      }
      // The server's checkout started again at the seats: the tickets are confirmed again (the
      // lost seats' lines drop out there), on the new holds' clock.
      return {
        ...state,
        step: 'tickets',
        draft: draftOf(state.choice),
        clock: null,
        extendedStep: null,
        lostSeats: event.lost.length > 0 ? event.lost : null,
      };
  }
}
