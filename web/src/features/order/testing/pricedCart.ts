import type { PricedCart } from '../api/payment';

type PricedTicket = PricedCart['tickets'][number];

/** A regular ticket (42.00, 5.00 service charge) of a seat of section 5, row 4, seat 7. */
export function pricedTicket(overrides: Partial<PricedTicket> = {}): PricedTicket {
  return {
    presentationId: 101,
    sectionId: 5,
    sectionName: 'אולם',
    rowName: '4',
    seatName: '7',
    x: 7,
    y: 4,
    ticketId: 31,
    ticketName: 'רגיל',
    ticketNameEn: 'Regular',
    code: null,
    price: 4200,
    serviceCharge: 500,
    isMultiplyFactorSubTicket: false,
    memberBalance: 0,
    ...overrides,
  };
}

/**
 * A priced cart of presentation 101 with no tickets listed, no products and no service charge:
 * `total` in all (tickets), all of it due.
 */
export function pricedCartOf(total: number): PricedCart {
  return {
    presentationId: 101,
    presentationIds: [101],
    memberBalanceTotal: 0,
    seats: [],
    currency: 'ILS',
    tickets: [],
    products: [],
    ticketsTotal: total,
    productsTotal: 0,
    serviceCharge: 0,
    serviceChargeName: 'דמי טיפול',
    total,
    priceBreakdown: {
      tickets: total,
      ticketsServiceCharge: 0,
      orderServiceCharge: 0,
      products: 0,
      total,
    },
    amountDue: total,
    voucherPayments: [],
    orderType: 'tickets',
    systemVouchers: [],
    donations: [],
    memberships: [],
  };
}

/** A priced cart of one regular seat (row 4, seat 7 of presentation 101) and no products. */
export const onePricedSeat: PricedCart = {
  ...pricedCartOf(4700),
  tickets: [pricedTicket()],
  ticketsTotal: 4200,
  serviceCharge: 500,
  priceBreakdown: {
    tickets: 4700,
    ticketsServiceCharge: 500,
    orderServiceCharge: 0,
    products: 0,
    total: 4700,
  },
};
