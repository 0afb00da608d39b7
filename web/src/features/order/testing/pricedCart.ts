import type { PricedCart } from '../api/payment';

/** A priced cart of one regular seat (row 4, seat 7 of presentation 101) and no products. */
export const onePricedSeat: PricedCart = {
  presentationId: 101,
  presentationIds: [101],
  currency: 'ILS',
  tickets: [
    {
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
    },
  ],
  products: [],
  ticketsTotal: 4200,
  productsTotal: 0,
  serviceCharge: 500,
  serviceChargeName: 'דמי טיפול',
  total: 4700,
  priceBreakdown: {
    tickets: 4700,
    ticketsServiceCharge: 500,
    orderServiceCharge: 0,
    products: 0,
    total: 4700,
  },
  amountDue: 4700,
  voucherPayments: [],
  orderType: 'tickets',
  systemVouchers: [],
  donations: [],
};
