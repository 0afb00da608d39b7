import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CartBody, LockedSeat, Ticket } from '../../../../lib/api/types';
import {
  makeCompactStatus,
  makeConfig,
  makePresentation,
  makeSeat,
  makeSeatplan,
  makeTicket,
} from '../../../../test/fixtures';
import { renderApp, type ApiHandler } from '../../../../test/renderApp';

const SERVER_TIME = '2026-07-14T09:00:00Z';
const popcorn = {
  id: 1,
  name: 'פופקורן קטן',
  nameEn: 'Small popcorn',
  category: 'popcorn',
  price: 1800,
  currency: 'ILS',
  img: '/api/products/1/image',
  selectedQuantity: 0,
};
const presentation = makePresentation({ id: 77, venueId: 11, seatplanId: 7, products: [popcorn] });

const seat = (x: number) => makeSeat(x, 0);

function ticket(id: number, name: string, price: number, extra: Partial<Ticket> = {}): Ticket {
  return makeTicket(id, {
    name,
    nameEn: name,
    price,
    serviceCharge: 500,
    pricePolicyId: 9000 + id,
    ...extra,
  });
}

const tickets = [
  ticket(101, 'Regular', 4200),
  ticket(102, 'Child', 3400, { oldPrice: 4200 }),
  ticket(103, 'Senior', 3000, { needsSeniorId: true }),
  ticket(108, 'Wheelchair', 3400, { seatKind: 'wheelchair' }),
  ticket(109, 'Wheelchair companion', 0, { seatKind: 'companion', requiresTicketId: 108 }),
];
const codeTicket = { ...ticket(112, 'Discount code', 3500), code: 'KUPA10' };

const held: LockedSeat[] = [
  { x: 1, y: 0, sectionId: 11, rowName: '1', seatName: '2', seatKinds: [] },
  { x: 2, y: 0, sectionId: 11, rowName: '1', seatName: '3', seatKinds: [] },
];
/** Seat 2 a wheelchair place, seat 3 beside it (so it serves a companion while both are held). */
const wheelchairPair: LockedSeat[] = [
  { ...held[0], seatKinds: ['wheelchair'] },
  { ...held[1], seatKinds: ['companion'] },
];

const pricedCart = {
  presentationId: 77,
  tickets: [],
  products: [],
  ticketsTotal: 7600,
  productsTotal: 0,
  serviceChargeName: 'דמי טיפול',
  serviceCharge: 1000,
  total: 8600,
  priceBreakdown: {
    tickets: 8600,
    ticketsServiceCharge: 1000,
    orderServiceCharge: 0,
    products: 0,
    total: 8600,
  },
  amountDue: 8600,
  currency: 'ILS',
  voucherPayments: [],
  orderType: 'tickets',
  systemVouchers: [],
  donations: [],
};

function makeApi(overrides: ApiHandler = () => undefined): ApiHandler {
  return (url) => {
    const special = overrides(url);
    if (special) return special;
    switch (url.pathname) {
      case '/api/presentations/77':
        return { body: { presentation, serverTime: SERVER_TIME, error: null } };
      case '/api/seats/seatplanV2':
        return { body: { seatplan: makeSeatplan([0, 1, 2, 3].map(seat), { name: 'Hall 3' }) } };
      case '/api/seats/seats-statusV2/compact':
        return {
          body: makeCompactStatus(77, 'amma', {
            sections: [{ id: 11, kind: 'reserved', capacity: 4, remaining: 2, soldOut: false }],
          }),
        };
      case '/api/seats/my-holds':
        return {
          body: {
            seats: held,
            step: 'seats',
            expiresAt: '2026-07-14T09:10:00Z',
            serverTime: SERVER_TIME,
          },
        };
      case '/api/presentations/77/ticketGroups':
        return {
          body: {
            serviceCharge: null,
            ticketGroups: [
              {
                ...{ id: 1, name: 'רגיל', nameEn: 'Standard', isByCodeEnabled: true },
                ...{ tickets, voucherTickets: [] },
              },
            ],
          },
        };
      case '/api/presentations/77/ticket':
        return {
          body: {
            ticket: codeTicket,
            msg: 'קוד הנחה',
            msgEn: 'Discount code – ₪35 a ticket',
            ticketCode: {
              ...{ code: 'KUPA10', kind: 'discountCode', validFrom: null, validTo: null },
              ...{ usesLeft: 10, balance: null, minTickets: 0, cardPrefix: '' },
            },
            serverTime: SERVER_TIME,
          },
        };
      case '/api/cart':
        return {
          body: {
            cart: pricedCart,
            expiresAt: '2026-07-14T09:15:00Z',
            step: 'products',
            serverTime: SERVER_TIME,
          },
        };
      default:
        return undefined;
    }
  };
}

function cartBodies(fetchMock: ReturnType<typeof vi.fn>): CartBody[] {
  return fetchMock.mock.calls
    .filter(([input]) => String(input).startsWith('/api/cart'))
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as CartBody);
}

/** The ticket chosen for a seat (its own list, the per-seat change). */
const choiceOf = (seatGroup: HTMLElement) => within(seatGroup).getByRole('combobox');
const chooser = () => screen.getByRole('group', { name: 'How many tickets of each kind?' });
const typeRow = (name: string) =>
  within(chooser())
    .getAllByRole('listitem')
    .find(
      (li) => li.querySelector('.tickets-step__ticket-name')?.textContent === name,
    ) as HTMLElement;

async function openTickets(api: ApiHandler = makeApi()) {
  const rendered = await renderApp('/order/77?lang=en', { api, config: makeConfig() });
  const user = userEvent.setup();
  // The first test of a file loads the order page's code: slow on a busy machine.
  await screen.findByRole('group', { name: 'Seat map: Hall 3' }, { timeout: 5000 });
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await screen.findByRole('heading', { name: 'Choose your tickets' });
  const first = await screen.findByRole('group', { name: 'Stalls row 1, seat 2' });
  const second = screen.getByRole('group', { name: 'Stalls row 1, seat 3' });
  return { ...rendered, user, first, second };
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

// The order page's code loads in the first test: slow on a busy machine.
describe('tickets step', { timeout: 15_000 }, () => {
  it('offers each held seat its group’s tickets and posts the chosen ones', async () => {
    const { user, first, second, fetchMock } = await openTickets();
    // The regular ticket is chosen by default; the child ticket shows its old price struck out
    // (both with the service charge, like for like).
    expect(choiceOf(first)).toHaveValue('101');
    expect(choiceOf(second)).toHaveValue('101');
    expect(typeRow('Child')).toHaveTextContent(/Child.*Instead of.*47\.00.*39\.00/);
    // "1 regular, 1 child": the child ticket goes to a seat by itself.
    await user.click(screen.getByRole('button', { name: 'One more “Child” ticket' }));
    expect(choiceOf(first)).toHaveValue('101');
    expect(choiceOf(second)).toHaveValue('102');
    expect(screen.getByText('1 × Regular, 1 × Child')).toBeInTheDocument();
    expect(screen.getByText('₪86.00')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Add extras' });
    const [body] = cartBodies(fetchMock);
    expect(body.step).toBe('products');
    expect(body.cart.presentations[0].seats.map((s) => [s.XCoordinate, s.ticket.ticketId])).toEqual(
      [
        [1, 101],
        [2, 102],
      ],
    );

    // Products: a popcorn, the running total, then the cart again with step customerInfo.
    await user.click(screen.getByRole('button', { name: 'One more Small popcorn' }));
    expect(screen.getByText('₪104.00')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(cartBodies(fetchMock)).toHaveLength(2));
    const second2 = cartBodies(fetchMock)[1];
    expect(second2.step).toBe('customerInfo');
    expect(second2.cart.products).toEqual([{ id: 1, quantity: 1 }]);
  });

  it('asks a senior ticket for an ID before posting', async () => {
    const { user, first, fetchMock } = await openTickets();
    // A seat's own change: the first seat becomes a senior's.
    await user.selectOptions(choiceOf(first), '103');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please complete the marked seats')).toBeInTheDocument();
    expect(cartBodies(fetchMock)).toHaveLength(0);
    await user.type(within(first).getByLabelText('ID number (senior citizen)'), '123456782');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(cartBodies(fetchMock)).toHaveLength(1));
    expect(cartBodies(fetchMock)[0].cart.presentations[0].seats[0].ticket.seniorId).toBe(
      '123456782',
    );
  });

  it('fills the seats without a code with a code’s ticket, and restores them on removal', async () => {
    const { user, first, second, fetchMock } = await openTickets();
    await user.selectOptions(choiceOf(second), '102');

    await user.click(screen.getByRole('button', { name: 'Have a voucher or a code?' }));
    await user.click(screen.getByRole('button', { name: 'Discount code' }));
    await user.type(screen.getByRole('textbox', { name: 'Discount code' }), 'kupa10');
    await user.click(screen.getByRole('button', { name: 'Apply' }));

    await waitFor(() =>
      expect(within(first).getByText('Code KUPA10: Discount code – ₪35 a ticket')).toBeVisible(),
    );
    expect(within(second).getByText('Code KUPA10: Discount code – ₪35 a ticket')).toBeVisible();
    expect(within(first).queryByRole('combobox')).toBeNull();
    const lookup = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .find((u) => u.pathname === '/api/presentations/77/ticket');
    expect(lookup?.searchParams.get('ticketCode')).toBe('kupa10');
    expect(lookup?.searchParams.get('ticketGroupId')).toBe('1');
    expect(lookup?.searchParams.get('sectionId')).toBe('11');

    await user.click(screen.getByRole('button', { name: 'Remove code KUPA10' }));
    expect(choiceOf(first)).toHaveValue('101');
    expect(choiceOf(second)).toHaveValue('102');
  });

  it('explains a code the server does not know', async () => {
    const { user } = await openTickets(
      makeApi((url) =>
        url.pathname === '/api/presentations/77/ticket'
          ? { status: 422, body: { error: { code: 'codeNotFound', message: 'no' } } }
          : undefined,
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Have a voucher or a code?' }));
    await user.type(screen.getByRole('textbox', { name: 'Voucher or code' }), 'NOPE');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('Code not found')).toBeInTheDocument();
  });

  it('shows the cart’s rule errors in words, with their numbers', async () => {
    let answer = {
      status: 422,
      body: {
        error: { code: 'couponNeedsMoreTickets', message: 'x', params: { missing: 2 } },
      },
    };
    const { user } = await openTickets(
      makeApi((url) => (url.pathname === '/api/cart' ? answer : undefined)),
    );
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Add 2 more tickets to redeem the coupon')).toBeInTheDocument();

    answer = {
      status: 422,
      body: {
        error: {
          code: 'ticketMaxQuantity',
          message: 'x',
          params: { ticketId: 102, max: 1 } as never,
        },
      },
    };
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('You can choose at most 1 “Child” tickets')).toBeInTheDocument();
  });
  it('shows each ticket at its full price, the service charge in it said beside', async () => {
    const { first } = await openTickets();
    // Regular: ₪42 and a ₪5 service charge.
    expect(typeRow('Regular').querySelector('.tickets-step__ticket')).toHaveTextContent(
      /^Regular\s*₪47\.00\s*incl\. ₪5\.00 service charge$/,
    );
    expect(within(first).getByRole('option', { name: 'Regular · ₪47.00' })).toBeInTheDocument();
    // The running subtotal of two regular tickets, at full prices, says what it includes.
    const footer = screen.getByText('Tickets:').closest('div') as HTMLElement;
    expect(within(footer).getByText('₪94.00')).toBeInTheDocument();
    expect(within(footer).getByText('incl. ₪10.00 service charge')).toBeInTheDocument();
    expect(within(footer).queryByText(/per order/)).toBeNull();
  });

  it('says so on the tickets step when the service charge is per order', async () => {
    const { first } = await openTickets(
      makeApi((url) =>
        url.pathname === '/api/presentations/77/ticketGroups'
          ? {
              body: {
                serviceCharge: {
                  ...{ perTicket: false, amount: 1000, percentBp: null, currency: 'ILS' },
                  ...{ name: 'דמי טיפול', nameEn: 'Service charge' },
                },
                ticketGroups: [
                  {
                    ...{ id: 1, name: 'רגיל', nameEn: 'Standard', isByCodeEnabled: true },
                    tickets: tickets.map((tk) => ({ ...tk, serviceCharge: 0 })),
                    voucherTickets: [],
                  },
                ],
              },
            }
          : undefined,
      ),
    );
    expect(typeRow('Regular').querySelector('.tickets-step__ticket')).toHaveTextContent(
      /^Regular\s*₪42\.00$/,
    );
    expect(within(first).getByRole('option', { name: 'Regular · ₪42.00' })).toBeInTheDocument();
    expect(screen.getByText('₪84.00')).toBeInTheDocument();
    expect(screen.getByText('+ service charge per order: ₪10.00')).toBeInTheDocument();
  });

  it('offers a wheelchair ticket for a wheelchair place, not for an ordinary seat', async () => {
    const { first, second } = await openTickets(
      makeApi((url) =>
        url.pathname === '/api/seats/my-holds'
          ? {
              body: {
                seats: [wheelchairPair[0], held[1]],
                step: 'seats',
                expiresAt: '2026-07-14T09:10:00Z',
                serverTime: SERVER_TIME,
              },
            }
          : undefined,
      ),
    );
    const wheelchair = { name: /^Wheelchair(?! companion)/ };
    expect(within(first).getByRole('option', wheelchair)).toBeInTheDocument();
    expect(within(second).queryByRole('option', wheelchair)).toBeNull();
    // Seat 3 is not beside a held wheelchair place here: no companion ticket either.
    expect(screen.queryByRole('option', { name: /^Wheelchair companion/ })).toBeNull();
    expect(
      screen.queryByRole('button', { name: 'One more “Wheelchair companion” ticket' }),
    ).toBeNull();
    // The default stays the regular ticket, on the wheelchair place too.
    expect(choiceOf(first)).toHaveValue('101');
    expect(choiceOf(second)).toHaveValue('101');
  });

  it('offers a companion ticket beside a held wheelchair place, and asks again once it is released', async () => {
    let holds: LockedSeat[] = wheelchairPair;
    const { user, first, second, fetchMock } = await openTickets(
      makeApi((url) => {
        if (url.pathname === '/api/seats/my-holds') {
          const body = { seats: holds, step: 'seats', expiresAt: '2026-07-14T09:10:00Z' };
          return { body: { ...body, serverTime: SERVER_TIME } };
        }
        if (url.pathname === '/api/seats/unlock-seat') {
          // Without its wheelchair place, seat 3 is an ordinary seat again.
          holds = [held[1]];
          return { body: { serverTime: SERVER_TIME, unlockedSeats: [wheelchairPair[0]] } };
        }
        return undefined;
      }),
    );
    const companion = { name: /^Wheelchair companion/ };
    expect(within(first).queryByRole('option', companion)).toBeNull();
    expect(within(second).queryByRole('option', { name: /^Wheelchair(?! companion)/ })).toBeNull();
    await user.click(
      screen.getByRole('button', { name: 'One more “Wheelchair companion” ticket' }),
    );
    expect(choiceOf(second)).toHaveValue('109');
    expect(choiceOf(first)).toHaveValue('101');

    await user.click(screen.getByRole('button', { name: 'Release Stalls row 1, seat 2' }));
    await waitFor(() => expect(within(second).queryByRole('option', companion)).toBeNull());
    expect(choiceOf(second)).toHaveValue('');

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please complete the marked seats')).toBeInTheDocument();
    expect(within(second).getByText('Choose a ticket for this seat')).toBeInTheDocument();
    expect(cartBodies(fetchMock)).toHaveLength(0);
  });

  it('explains a ticket the server refuses for its kind of seat', async () => {
    const { user, first } = await openTickets(
      makeApi((url) => {
        if (url.pathname === '/api/seats/my-holds') {
          const body = { seats: wheelchairPair, step: 'seats', expiresAt: '2026-07-14T09:10:00Z' };
          return { body: { ...body, serverTime: SERVER_TIME } };
        }
        if (url.pathname === '/api/cart') {
          const error = { code: 'ticketSeatKind', message: 'x', params: { ticketId: 108 } };
          return { status: 422, body: { error } };
        }
        return undefined;
      }),
    );
    await user.click(screen.getByRole('button', { name: 'One more “Wheelchair” ticket' }));
    expect(choiceOf(first)).toHaveValue('108');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText(
        '“Wheelchair” is sold only for a wheelchair place. Please choose another ticket instead',
      ),
    ).toBeInTheDocument();
  });

  it('puts “2 regular, 1 child” on three seats and posts one ticket per seat', async () => {
    const three: LockedSeat[] = [
      ...held,
      { x: 3, y: 0, sectionId: 11, rowName: '1', seatName: '4', seatKinds: [] },
    ];
    const { user, fetchMock } = await openTickets(
      makeApi((url) =>
        url.pathname === '/api/seats/my-holds'
          ? {
              body: {
                ...{ seats: three, step: 'seats', expiresAt: '2026-07-14T09:10:00Z' },
                serverTime: SERVER_TIME,
              },
            }
          : undefined,
      ),
    );
    const count = (name: string) => within(chooser()).getByLabelText(`Number of “${name}” tickets`);
    expect(count('Regular')).toHaveTextContent('3');
    await user.click(screen.getByRole('button', { name: 'One more “Child” ticket' }));
    expect(count('Regular')).toHaveTextContent('2');
    expect(count('Child')).toHaveTextContent('1');
    expect(screen.getByText('2 × Regular, 1 × Child')).toBeInTheDocument();
    // Every seat has a ticket; taking the child off gives its seat back to the regular ticket.
    expect(screen.getByText(/All 3 seats have a ticket/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'One “Child” ticket less' }));
    expect(count('Regular')).toHaveTextContent('3');
    await user.click(screen.getByRole('button', { name: 'One more “Child” ticket' }));

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(cartBodies(fetchMock)).toHaveLength(1));
    const seats = cartBodies(fetchMock)[0].cart.presentations[0].seats;
    expect(seats.map((s) => [s.XCoordinate, s.ticket.ticketId])).toEqual([
      [1, 101],
      [2, 101],
      [3, 102],
    ]);
  });

  it('puts a wheelchair ticket on the wheelchair place and a sofa ticket on both sofa seats', async () => {
    const sofaTicket = ticket(202, 'Couple on a sofa', 12000, {
      ...{ seatKind: 'sofa', multiplyFactor: 2, serviceCharge: 1000 },
    });
    const mixed: LockedSeat[] = [
      { x: 0, y: 0, sectionId: 11, rowName: '1', seatName: '1', seatKinds: ['wheelchair'] },
      { x: 1, y: 0, sectionId: 11, rowName: '1', seatName: '2', seatKinds: [] },
      { x: 2, y: 0, sectionId: 11, rowName: '1', seatName: '3', seatKinds: ['sofa'] },
      { x: 3, y: 0, sectionId: 11, rowName: '1', seatName: '4', seatKinds: ['sofa'] },
    ];
    const { user, fetchMock } = await openTickets(
      makeApi((url) => {
        if (url.pathname === '/api/seats/my-holds') {
          const body = { seats: mixed, step: 'seats', expiresAt: '2026-07-14T09:10:00Z' };
          return { body: { ...body, serverTime: SERVER_TIME } };
        }
        if (url.pathname === '/api/presentations/77/ticketGroups') {
          const group = { id: 1, name: 'רגיל', nameEn: 'Standard', isByCodeEnabled: true };
          const all = [...tickets, sofaTicket];
          return {
            body: {
              serviceCharge: null,
              ticketGroups: [{ ...group, tickets: all, voucherTickets: [] }],
            },
          };
        }
        return undefined;
      }),
    );
    const seat = (n: number) => screen.getByRole('group', { name: `Stalls row 1, seat ${n}` });
    const count = (name: string) => within(chooser()).getByLabelText(`Number of “${name}” tickets`);

    await user.click(screen.getByRole('button', { name: 'One more “Wheelchair” ticket' }));
    expect(choiceOf(seat(1))).toHaveValue('108');
    // The ordinary seat is not offered the wheelchair ticket, nor the sofa one.
    expect(within(seat(2)).queryByRole('option', { name: /^Wheelchair/ })).toBeNull();
    expect(within(seat(2)).queryByRole('option', { name: /^Couple on a sofa/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'One more “Wheelchair” ticket' })).toBeDisabled();

    // One sofa ticket covers both sofa seats; there is no room for a second.
    await user.click(screen.getByRole('button', { name: 'One more “Couple on a sofa” ticket' }));
    expect(choiceOf(seat(3))).toHaveValue('202');
    expect(choiceOf(seat(4))).toHaveValue('202');
    expect(choiceOf(seat(2))).toHaveValue('101');
    expect(count('Couple on a sofa')).toHaveTextContent('1');
    expect(count('Regular')).toHaveTextContent('1');
    expect(
      screen.getByRole('button', { name: 'One more “Couple on a sofa” ticket' }),
    ).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(cartBodies(fetchMock)).toHaveLength(1));
    const posted = cartBodies(fetchMock)[0].cart.presentations[0].seats;
    expect(posted.map((s) => s.ticket.ticketId)).toEqual([108, 101, 202, 202]);
  });

  it('keeps the buyer’s tickets through a reload, but never a senior’s ID number', async () => {
    const first = await openTickets();
    await first.user.click(screen.getByRole('button', { name: 'One more “Child” ticket' }));
    await first.user.selectOptions(choiceOf(first.first), '103');
    await first.user.type(
      within(first.first).getByLabelText('ID number (senior citizen)'),
      '123456782',
    );
    const kept = JSON.stringify({ ...window.sessionStorage });
    expect(kept).toContain('kupa.tickets.77');
    expect(kept).not.toContain('123456782');
    first.unmount();

    // The reload: the same tab, the order page again, straight back on the tickets step.
    await renderApp('/order/77?lang=en', { api: makeApi(), config: makeConfig() });
    await screen.findByRole('heading', { name: 'Choose your tickets' }, { timeout: 5000 });
    const again = await screen.findByRole('group', { name: 'Stalls row 1, seat 2' });
    const other = screen.getByRole('group', { name: 'Stalls row 1, seat 3' });
    await waitFor(() => expect(choiceOf(other)).toHaveValue('102'));
    expect(choiceOf(again)).toHaveValue('103');
    expect(within(again).getByLabelText('ID number (senior citizen)')).toHaveValue('');
  });
});
