import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EnrollMember, EnrollSelection } from '../../lib/api/enroll';
import type { SeatShort, SeatStatusShort } from '../../lib/api/types';
import { makeCustomerLogin, makeSeat, makeSeatplan } from '../../test/fixtures';
import { fillDetails } from '../../test/checkoutDetails';
import { renderApp, type ApiHandler } from '../../test/renderApp';
import { demoSeason } from './testing/season';

/** A busy machine renders the first page slowly (the app's lazy routes, the config). */
const SLOW = { timeout: 10_000 };

const season = demoSeason();

const seat = (x: number, y: number) => makeSeat(x, y, { si: 61, vi: 6, sp: 6, tg: 10 });
const seats = [0, 1, 2, 3].flatMap((x) => [seat(x, 0), seat(x, 1)]);
const plan = makeSeatplan(seats);

const login = makeCustomerLogin('2026-11-26', {
  customerInfo: { CustomerId: 1, FirstName: 'Dana', LastName: 'Levi' },
  mobileNumber: '0524318876',
});

const dana: EnrollMember = {
  memberNumber: '200001',
  name: 'דנה לוי',
  nameEn: 'Dana Levi',
  balance: 23100,
  startDate: '2026-01-01',
  endDate: '2027-01-01',
  isAvailable: true,
  enrolled: false,
};

interface Server {
  /** What the session holds, by presentation. */
  held: Map<number, EnrollSelection>;
  /** Seats someone else holds, by presentation: `x:y`. */
  taken: Map<number, Set<string>>;
  calls: { method: string; path: string; body: unknown }[];
}

const err = (status: number, code: string, params?: unknown) => ({
  status,
  body: { error: { code, message: code, ...(params ? { params } : {}) } },
});

/** A small enrolment server: the member seat and each presentation's seat, held in memory. */
function enrolServer(
  opts: {
    loggedIn?: boolean;
    members?: EnrollMember[];
    memberRefusal?: string;
    cart?: { status: number; body: unknown };
  } = {},
): { api: ApiHandler; server: Server } {
  const server: Server = { held: new Map(), taken: new Map(), calls: [] };
  const ids = season.Presentations.map((p) => p.PresentationId);
  const free = (id: number, s: SeatShort) => !server.taken.get(id)?.has(`${s.x}:${s.y}`);
  const mine = (id: number, s: SeatShort) => {
    const h = server.held.get(id);
    return h !== undefined && h.x === s.x && h.y === s.y;
  };
  const status =
    (presentationId: number | null) =>
    (s: SeatShort): SeatStatusShort => {
      const among = presentationId === null ? ids : [presentationId];
      const selected = among.every((id) => mine(id, s));
      const available = among.every((id) => free(id, s) || mine(id, s));
      return {
        x: s.x,
        y: s.y,
        si: s.si,
        s: selected ? 'heldByMe' : available ? 'available' : 'heldByOther',
        isAvailable: available,
        isBlocked: false,
        isSelected: selected,
      };
    };
  const selections = () =>
    [...server.held.values()].sort((a, b) => a.presentationId - b.presentationId);
  const api: ApiHandler = (url, init) => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
    if (url.pathname !== '/api/config') server.calls.push({ method, path: url.pathname, body });
    if (url.pathname === '/api/customer/me') {
      return opts.loggedIn === false ? err(401, 'loginError') : { body: login };
    }
    if (url.pathname === '/api/enroll/2') {
      if (url.searchParams.get('memberNumber') && opts.memberRefusal) {
        return err(409, opts.memberRefusal);
      }
      return { body: { enrollMembership: season, members: opts.members ?? [dana] } };
    }
    if (url.pathname === '/api/enroll/2/seatplan') {
      const p = url.searchParams.get('presentationId');
      const presentationId = p === null ? null : Number(p);
      return {
        body: {
          seatplan: plan,
          sections: [],
          seats: seats.map(status(presentationId)),
          selections: selections(),
          serverTime: '2026-11-26T10:00:00Z',
        },
      };
    }
    if (url.pathname === '/api/enroll/2/lock-seat' && body) {
      const presentationId = body.presentationId as number | null;
      const among = presentationId === null ? ids : [presentationId];
      const s = seats.find((x) => x.x === body.x && x.y === body.y)!;
      if (!among.every((id) => free(id, s))) return err(409, 'lock_seat_error');
      for (const id of among) {
        server.held.set(id, {
          expiresAt: '2026-11-26T10:10:00Z',
          presentationId: id,
          sectionId: 61,
          x: s.x,
          y: s.y,
          rowName: s.r,
          seatName: s.n,
        });
      }
      return { body: { selections: selections(), serverTime: '2026-11-26T10:00:00Z' } };
    }
    if (url.pathname === '/api/enroll/2/unlock-seat' && body) {
      server.held.delete(body.presentationId as number);
      return { body: { selections: selections(), serverTime: '2026-11-26T10:00:00Z' } };
    }
    if (url.pathname === '/api/cart' && method === 'POST') {
      if (opts.cart) return opts.cart;
      const cart = (body as { cart: { presentations: { presentationId: number }[] } }).cart;
      const tickets = cart.presentations.map(({ presentationId }) => ({
        ...server.held.get(presentationId)!,
        price: 1500,
        memberBalance: 1500,
        serviceCharge: 500,
      }));
      return {
        body: {
          cart: {
            total: 2000 * tickets.length,
            amountDue: 2000 * tickets.length,
            memberBalanceTotal: 1500 * tickets.length,
            currency: 'ILS',
            tickets,
          },
          expiresAt: '2026-11-26T10:15:00Z',
          serverTime: '2026-11-26T10:00:00Z',
          step: 'customerInfo',
        },
      };
    }
    return undefined;
  };
  return { api, server };
}

const next = () => screen.getByRole('button', { name: 'Next' });

describe('the enrolment flow', { timeout: 30_000 }, () => {
  it('sends a visitor nobody knows to log in, and back to the enrolment', async () => {
    const { api, server } = enrolServer({ loggedIn: false });
    await renderApp('/enroll/2?lang=en', { api });
    expect(
      await screen.findByRole('heading', { name: 'Log in to your account' }, SLOW),
    ).toBeInTheDocument();
    const logIn = new URL(
      screen.getByRole('link', { name: 'Log in' }).getAttribute('href') ?? '',
      'http://localhost',
    );
    expect(logIn.searchParams.get('returnTo')).toBe('/enroll/2?lang=en');
    // The season is the logged-in customer's to ask for.
    expect(server.calls.some((c) => c.path === '/api/enroll/2')).toBe(false);
  });

  it('goes from the member seat through the ticket, the screenings and a seat in each to the cart', async () => {
    const { api, server } = enrolServer();
    await renderApp('/enroll/2?lang=en', { api });
    const user = userEvent.setup();
    expect(
      await screen.findByRole('heading', { name: 'Your seat for the season' }, SLOW),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { name: 'Israeli Cinema Premieres – winter season', level: 1 }),
    ).toBeInTheDocument();
    expect(next()).toBeDisabled();
    expect(screen.getByText('Choose your seat to go on.')).toBeInTheDocument();

    // The member seat: one seat, held in all three screenings at once.
    await user.click(await screen.findByRole('button', { name: 'Row 1, seat 2, available' }));
    expect(await screen.findByText('Your seat: row 1, seat 2')).toBeInTheDocument();
    const lock = server.calls.find((c) => c.path === '/api/enroll/2/lock-seat');
    expect(lock?.body).toMatchObject({
      memberNumber: '200001',
      seasonId: 1,
      presentationId: null,
      sectionId: 61,
      x: 1,
      y: 0,
      ticketGroupId: 10,
    });
    expect(screen.getByRole('timer')).toHaveTextContent(/Time left to choose: \d+:\d\d/);
    await user.click(next());

    // The ticket: the season member ticket, ₪15 of its ₪30 from the pass.
    expect(await screen.findByRole('heading', { name: 'Your ticket' })).toBeInTheDocument();
    const member = screen.getByRole('radio', {
      name: /^Season member ₪30\.00 a screening · ₪15\.00 of it from your pass/,
    });
    expect(member).toBeChecked();
    await user.click(screen.getByRole('radio', { name: /^Season member – senior/ }));
    await user.click(member);
    await user.click(next());

    // The screenings: the required ones checked and fixed, the optional one not taken.
    expect(
      await screen.findByRole('heading', { name: "The season's screenings" }),
    ).toBeInTheDocument();
    const boxes = screen.getAllByRole('checkbox');
    expect(boxes).toHaveLength(3);
    expect(boxes[0]).toBeDisabled();
    expect(boxes[0]).toBeChecked();
    expect(boxes[1]).toBeDisabled();
    expect(boxes[2]).toBeEnabled();
    expect(boxes[2]).not.toBeChecked();
    await user.click(next());

    // Leaving the optional screening out released its seat there.
    await screen.findByRole('heading', { name: 'A seat in each screening' });
    const unlock = server.calls.find((c) => c.path === '/api/enroll/2/unlock-seat');
    expect(unlock?.body).toMatchObject({ presentationId: 903, x: 1, y: 0 });
    const switcher = screen.getByRole('list', { name: 'Screenings' });
    const tabs = within(switcher).getAllByRole('button');
    expect(tabs).toHaveLength(2);
    expect(tabs[0]).toHaveAttribute('aria-pressed', 'true');
    expect(tabs[0]).toHaveTextContent('Row 1, seat 2');

    // Another seat in the second screening only.
    await user.click(tabs[1]);
    expect(tabs[1]).toHaveAttribute('aria-pressed', 'true');
    await user.click(await screen.findByRole('button', { name: 'Row 2, seat 4, available' }));
    await waitFor(() => expect(tabs[1]).toHaveTextContent('Row 2, seat 4'));
    expect(tabs[0]).toHaveTextContent('Row 1, seat 2');
    const moved = server.calls.filter((c) => c.path === '/api/enroll/2/lock-seat').at(-1);
    expect(moved?.body).toMatchObject({ presentationId: 902, x: 3, y: 1 });

    // Back to add the optional screening: its seat was released, so it needs one now.
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await user.click(screen.getAllByRole('checkbox')[2]);
    expect(screen.getAllByRole('checkbox')[2]).toBeChecked();
    await user.click(next());
    const three = within(await screen.findByRole('list', { name: 'Screenings' })).getAllByRole(
      'button',
    );
    expect(three).toHaveLength(3);
    expect(three[2]).toHaveTextContent('No seat yet');
    expect(three[2]).toHaveAttribute('aria-pressed', 'true');
    expect(next()).toBeDisabled();
    expect(screen.getByText('Choose a seat in every screening to go on.')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Row 1, seat 4, available' }));
    await waitFor(() => expect(three[2]).toHaveTextContent('Row 1, seat 4'));
    await user.click(next());

    // Details with the ID number, and the cart with the enrolment.
    expect(await screen.findByText(/an ID number is needed/)).toBeInTheDocument();
    expect(screen.getByText(/₪45\.00 from your pass/)).toBeInTheDocument();
    expect(screen.getByText(/Total to pay/)).toHaveTextContent('₪60.00');
    await fillDetails(user);
    await screen.findByRole('button', { name: /^Pay / });
    const carts = server.calls.filter((c) => c.path === '/api/cart');
    // Priced on arrival, then again with the details.
    expect(carts).toHaveLength(2);
    expect(carts[0].body).toMatchObject({ cart: { customerInfo: null } });
    expect(carts[1].body).toMatchObject({ cart: { customerInfo: { ssn: '000000018' } } });
    const cart = carts[1];
    expect(cart?.body).toMatchObject({
      cart: {
        enrollment: { membershipId: 2, seasonId: 1, memberNumber: '200001' },
        presentations: [
          {
            presentationId: 901,
            seats: [
              { XCoordinate: 1, YCoordinate: 0, VenueSectionId: 61, ticket: { ticketId: 1001 } },
            ],
          },
          {
            presentationId: 902,
            seats: [
              { XCoordinate: 3, YCoordinate: 1, VenueSectionId: 61, ticket: { ticketId: 1001 } },
            ],
          },
          {
            presentationId: 903,
            seats: [
              { XCoordinate: 3, YCoordinate: 0, VenueSectionId: 61, ticket: { ticketId: 1001 } },
            ],
          },
        ],
      },
      step: 'customerInfo',
    });
  });

  it('says a seat not free in every screening in its own words, and keeps the seat held', async () => {
    const { api, server } = enrolServer();
    server.taken.set(903, new Set(['0:0']));
    await renderApp('/enroll/2?lang=en', { api });
    const user = userEvent.setup();
    // Free in the member-seat map? No: it is taken in one of the three, so not offered.
    expect(
      await screen.findByRole('button', { name: /^Row 1, seat 1, (?!available)/ }, SLOW),
    ).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Row 1, seat 2, available' }));
    await screen.findByText('Your seat: row 1, seat 2');
    // Someone takes seat 3 in 902 meanwhile; the map still shows it free.
    server.taken.set(902, new Set(['2:0']));
    await user.click(screen.getByRole('button', { name: 'Row 1, seat 3, available' }));
    expect(await screen.findByRole('alert', {}, SLOW)).toHaveTextContent(
      'That seat is not free in every screening it is needed for.',
    );
    expect(screen.getByText('Your seat: row 1, seat 2')).toBeInTheDocument();
  });

  it('says at the details step that the pass has too little left, before any typing', async () => {
    const { api, server } = enrolServer({ cart: err(409, 'memberNoneAvailable') });
    await renderApp('/enroll/2?lang=en', { api });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Row 1, seat 2, available' }, SLOW));
    await screen.findByText('Your seat: row 1, seat 2');
    for (const heading of ['Your ticket', "The season's screenings", 'A seat in each screening']) {
      await user.click(next());
      await screen.findByRole('heading', { name: heading });
    }
    await user.click(next());
    expect(
      await screen.findByText('The pass balance does not cover the part of the tickets it pays.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Details and payment', level: 2 })).toBeVisible();
    expect(screen.queryByLabelText(/^ID number/)).toBeNull();
    expect(server.calls.filter((c) => c.path === '/api/cart')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByRole('heading', { name: 'A seat in each screening' })).toBeVisible();
  });

  it('shows a member already enrolled as such, and the server refusal in words', async () => {
    const { api } = enrolServer({
      members: [
        { ...dana, enrolled: true },
        { ...dana, memberNumber: '200009', name: 'יואב לוי', nameEn: 'Yoav Levi' },
      ],
      memberRefusal: 'CUSTOMER_NO_MOBILE',
    });
    await renderApp('/enroll/2?lang=en', { api });
    const user = userEvent.setup();
    expect(
      await screen.findByRole('heading', { name: 'Which member enrols?' }, SLOW),
    ).toBeInTheDocument();
    const items = within(document.querySelector('.enroll-members') as HTMLElement).getAllByRole(
      'listitem',
    );
    expect(items[0]).toHaveTextContent('Already enrolled');
    expect(within(items[0]).queryByRole('button')).toBeNull();
    await user.click(within(items[1]).getByRole('button', { name: 'Enrol member 200009' }));
    expect(
      await screen.findByText(
        'The tickets are sent by text message: add a mobile number to your account first.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(
      await screen.findByRole('heading', { name: 'Which member enrols?' }),
    ).toBeInTheDocument();
  });

  it('answers an enrolled member in Hebrew: already enrolled', async () => {
    const { api } = enrolServer({ memberRefusal: 'ALREADY_ENROLLED' });
    await renderApp('/enroll/2?member=200001', { api });
    expect(await screen.findByText('המנוי הזה כבר רשום לעונה.', {}, SLOW)).toBeInTheDocument();
  });

  it('has no season to offer when the server answers none', async () => {
    await renderApp('/enroll/2?lang=en', {
      api: (url) =>
        url.pathname === '/api/customer/me'
          ? { body: login }
          : url.pathname === '/api/enroll/2'
            ? err(404, 'notFound')
            : undefined,
    });
    expect(
      await screen.findByText(
        'There is no season open for enrolment in this membership now.',
        {},
        SLOW,
      ),
    ).toBeInTheDocument();
  });
});
