// Spec 5: "Senior citizen lookup needs an ID". The server checks the ID on every POST /cart, and
// the priced cart does not repeat it, so the later posts (details, vouchers) must send it again.
import { describe, expect, it } from 'vitest';
import type { TicketGroup } from '../../../lib/api/types';
import { makeTicket } from '../../../test/fixtures';
import { cartBodyFrom, type PricedCart } from '../api/payment';
import { seniorIdsOf, syncLines } from './ticketLines';

const ticket = makeTicket;
const groups: TicketGroup[] = [
  {
    id: 1,
    name: 'g',
    nameEn: 'g',
    isByCodeEnabled: true,
    voucherTickets: [],
    tickets: [ticket(101), ticket(104, { needsSeniorId: true })],
  },
];
const seat = (x: number) => ({
  ...{ x, y: 2, sectionId: 11, rowName: '3', seatName: `${x}` },
  seatKinds: [],
});
const priced = (x: number, ticketId: number) => ({
  presentationId: 7,
  sectionId: 11,
  x,
  y: 2,
  sectionName: 'Hall',
  rowName: '3',
  seatName: `${x}`,
  ticketId,
  ticketName: '',
  ticketNameEn: '',
  price: 1000,
  serviceCharge: 0,
  isMultiplyFactorSubTicket: false,
  memberBalance: 0,
});
const cart: PricedCart = {
  presentationId: 7,
  presentationIds: [7],
  memberBalanceTotal: 0,
  seats: [],
  tickets: [priced(4, 101), priced(5, 104)],
  products: [],
  ticketsTotal: 2000,
  productsTotal: 0,
  serviceCharge: 0,
  serviceChargeName: 'דמי טיפול',
  total: 2000,
  priceBreakdown: {
    tickets: 2000,
    ticketsServiceCharge: 0,
    orderServiceCharge: 0,
    products: 0,
    total: 2000,
  },
  voucherPayments: [],
  orderType: 'tickets',
  systemVouchers: [],
  donations: [],
  memberships: [],
  amountDue: 2000,
  currency: 'ILS',
};

describe('a senior citizen ticket re-posted with the details', () => {
  const lines = syncLines([], [seat(4), seat(5)], () => 1, groups).map((l) =>
    l.key === '11:5:2' ? { ...l, ticketId: 104, seniorId: ' 123456782 ' } : l,
  );

  it('keeps the ID typed on the tickets step, by seat', () => {
    expect(seniorIdsOf(lines, groups)).toEqual({ '11:5:2': '123456782' });
  });

  it('sends the ID again on the seat that has the senior ticket, and on no other', () => {
    const body = cartBodyFrom(cart, {
      locale: 'he',
      customerInfo: null,
      seniorIds: seniorIdsOf(lines, groups),
    });
    const seats = body.cart.presentations[0].seats;
    expect(seats.map((s) => [s.XCoordinate, s.ticket.seniorId])).toEqual([
      [4, null],
      [5, '123456782'],
    ]);
  });

  it('drops an ID the buyer typed for a ticket they then changed to a regular one', () => {
    const changed = lines.map((l) => ({ ...l, ticketId: 101 }));
    expect(seniorIdsOf(changed, groups)).toEqual({});
  });
});
