import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { EnrollSelection } from '../../lib/api/enroll';
import type { MembershipCatalogue } from '../../lib/api/memberships';
import type { SeatShort, SeatStatusShort } from '../../lib/api/types';
import { makeCustomerLogin, makeSeat, makeSeatplan } from '../../test/fixtures';
import { fillDetails } from '../../test/checkoutDetails';
import { renderApp, type ApiHandler } from '../../test/renderApp';
import { orderSeat, thursday, thursdaySeats } from './testing/seated';

/** A busy machine renders the first page slowly (the app's lazy routes, the config). */
const SLOW = { timeout: 10_000 };

const seat = (x: number, y: number, extra: Partial<SeatShort> = {}) =>
  makeSeat(x, y, { si: 61, vi: 6, sp: 6, tg: 10, ...extra });
// Row 1: seats 1–4; row 2: seats 1–3 and a wheelchair space (seat 4).
const seats = [0, 1, 2, 3].flatMap((x) => [seat(x, 0), seat(x, 1, { hc: x === 3 })]);
const plan = makeSeatplan(seats);
const ids = thursdaySeats.presentations.map((p) => p.PresentationId);

const catalogue: MembershipCatalogue = { memberships: [thursday()], maxQuantityForMembership: 1 };

const login = makeCustomerLogin('2026-11-26');

const err = (status: number, code: string, params?: unknown) => ({
  status,
  body: { error: { code, message: code, ...(params ? { params } : {}) } },
});

interface Server {
  /** The seat this buyer holds in each screening. */
  held: Map<number, EnrollSelection>;
  /** Seats someone else holds in one screening or more: `x:y`. */
  taken: Set<string>;
  calls: { method: string; path: string; body: Record<string, unknown> | null }[];
}

/** The membership seat calls as the contract says: one seat, all screenings or none. */
function seatServer(
  opts: { loggedIn?: boolean; cart?: (server: Server) => { status: number; body: unknown } } = {},
): { api: ApiHandler; server: Server } {
  const server: Server = { held: new Map(), taken: new Set(), calls: [] };
  const selections = () => [...server.held.values()];
  const status = (s: SeatShort): SeatStatusShort => {
    const mine = ids.every(
      (id) => server.held.get(id)?.x === s.x && server.held.get(id)?.y === s.y,
    );
    const free = !server.taken.has(`${s.x}:${s.y}`);
    return {
      x: s.x,
      y: s.y,
      si: s.si,
      s: mine ? 'heldByMe' : free ? 'available' : 'heldByOther',
      isAvailable: free || mine,
      isBlocked: false,
      isSelected: mine,
    };
  };
  const api: ApiHandler = (url, init) => {
    const method = init?.method ?? 'GET';
    const body = init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null;
    if (url.pathname !== '/api/config') server.calls.push({ method, path: url.pathname, body });
    if (url.pathname === '/api/memberships') return { body: catalogue };
    if (url.pathname === '/api/customer/me') {
      return opts.loggedIn === false ? err(401, 'loginError') : { body: login };
    }
    if (url.pathname === '/api/membership/seatplan') {
      return {
        body: {
          seasonId: 2,
          seatplan: plan,
          sections: [],
          seats: seats.map(status),
          selections: selections(),
          serverTime: '2026-11-26T10:00:00Z',
        },
      };
    }
    if (url.pathname === '/api/membership/lock-seat' && body) {
      const s = seats.find((x) => x.x === body.x && x.y === body.y)!;
      if (server.taken.has(`${s.x}:${s.y}`)) return err(409, 'lock_seat_error');
      if (s.hc && !body.confirmWheelchair) return err(422, 'seatConfirmationRequired');
      for (const id of ids) {
        server.held.set(id, { ...thursdayHeld(id), x: s.x, y: s.y, rowName: s.r, seatName: s.n });
      }
      return { body: { selections: selections(), serverTime: '2026-11-26T10:00:00Z' } };
    }
    if (url.pathname === '/api/membership/unlock-seat' && body) {
      server.held.clear();
      return { body: { selections: [], serverTime: '2026-11-26T10:00:00Z' } };
    }
    if (url.pathname === '/api/cart' && method === 'POST') {
      if (opts.cart) return opts.cart(server);
      return {
        body: {
          cart: {
            total: 24000,
            currency: 'ILS',
            seats: selections().map((h) => orderSeat(h.presentationId, h.rowName, h.seatName)),
          },
          expiresAt: '2026-11-26T10:10:00Z',
          serverTime: '2026-11-26T10:00:00Z',
          step: 'customerInfo',
        },
      };
    }
    return undefined;
  };
  return { api, server };
}

const NAME = 'Thursday subscription – three films, your own seat';
const next = () => screen.getByRole('button', { name: 'Next' });
const locks = (server: Server) =>
  server.calls.filter((c) => c.path === '/api/membership/lock-seat');

describe('the seats step of a seated membership', { timeout: 30_000 }, () => {
  it('lists on its card the screenings its price includes a seat in', async () => {
    await renderApp('/memberships?lang=en', { api: seatServer({ loggedIn: false }).api });
    const card = (await screen.findByRole('region', { name: NAME }, SLOW)) as HTMLElement;
    expect(
      within(card).getByText('The price includes a fixed seat in 3 screenings:'),
    ).toBeInTheDocument();
    const list = within(card).getByRole('list', { name: "The season's screenings" });
    const items = within(list).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Film 911');
    expect(items[0]).toHaveTextContent('Hall 3 – Studio');
    // 18:30 UTC on 3 December is 20:30 in Jerusalem.
    expect(items[0]).toHaveTextContent('20:30');
  });

  it('comes after the login, and the login comes back to it', async () => {
    const { api } = seatServer({ loggedIn: false });
    await renderApp('/memberships?lang=en&choice=4:401*1&step=seats&at=0', { api });
    expect(
      await screen.findByRole('heading', { name: 'Log in to your account' }, SLOW),
    ).toBeInTheDocument();
    const steps = screen.getByRole('list', { name: /steps/i });
    expect(within(steps).getByText('Choose a seat')).toBeInTheDocument();
    const logIn = new URL(
      screen.getByRole('link', { name: 'Log in' }).getAttribute('href') ?? '',
      'http://localhost',
    );
    expect(logIn.searchParams.get('returnTo')).toMatch(/step=seats/);
  });

  it('holds one seat in every screening, moves it, says a refusal, and goes on to the cart with it', async () => {
    const { api, server } = seatServer();
    const { getRouter } = await renderApp('/memberships?lang=en', { api });
    const user = userEvent.setup();
    const card = (await screen.findByRole('region', { name: NAME }, SLOW)) as HTMLElement;
    await user.click(within(card).getByRole('button', { name: /^More:/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(
      await screen.findByRole('heading', { name: `Your seat in ${NAME}` }, SLOW),
    ).toBeInTheDocument();
    const steps = screen.getByRole('list', { name: /steps/i });
    expect(within(steps).getByText('Choose a seat')).toHaveAttribute('aria-current', 'step');
    expect(next()).toBeDisabled();
    expect(screen.getByText('Choose a seat on the map to go on.')).toBeInTheDocument();
    const list = screen.getByRole('list', { name: "The season's screenings" });
    expect(within(list).getAllByText('No seat')).toHaveLength(3);

    await user.click(await screen.findByRole('button', { name: 'Row 1, seat 2, available' }));
    expect(await screen.findByText('Your seat: row 1, seat 2')).toBeInTheDocument();
    expect(locks(server)[0].body).toMatchObject({
      membershipId: 4,
      venueId: 6,
      seatplanId: 6,
      sectionId: 61,
      x: 1,
      y: 0,
    });
    expect(within(list).getAllByText('Row 1, seat 2')).toHaveLength(3);
    expect(screen.getByRole('timer')).toHaveTextContent(/Your seat is held for \d+:\d\d/);
    expect(next()).toBeEnabled();

    // Another seat: held in its place (the server lets the old one go).
    await user.click(await screen.findByRole('button', { name: 'Row 1, seat 4, available' }));
    expect(await screen.findByText('Your seat: row 1, seat 4')).toBeInTheDocument();

    // A seat someone takes while the map is not yet told: refused in words, the seat unchanged.
    server.taken.add('2:1');
    await user.click(screen.getByRole('button', { name: 'Row 2, seat 3, available' }));
    expect(
      await screen.findByText(/That seat was just taken in one of the screenings/),
    ).toBeInTheDocument();
    expect(screen.getByText('Your seat: row 1, seat 4')).toBeInTheDocument();

    await user.click(next());
    await waitFor(() =>
      expect(new URLSearchParams(getRouter()?.state.location.search).get('step')).toBe('checkout'),
    );
    await fillDetails(user);
    const summary = await screen.findByRole('region', { name: 'Your seats' });
    expect(within(summary).getAllByRole('listitem')).toHaveLength(3);
    expect(within(summary).getAllByText('Stalls, row 1, seat 4')).toHaveLength(3);
  });

  it('asks before holding a wheelchair space, and sends the yes with the lock', async () => {
    const { api, server } = seatServer();
    await renderApp('/memberships?lang=en&choice=4:401*1&step=seats&at=0', { api });
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: /^Row 2, seat 4.*available/ }, SLOW),
    );
    const ask = await screen.findByRole('alertdialog');
    expect(locks(server)).toHaveLength(0);
    await user.click(within(ask).getByRole('button', { name: 'Choose this seat' }));
    expect(await screen.findByText('Your seat: row 2, seat 4')).toBeInTheDocument();
    expect(locks(server)[0].body).toMatchObject({ x: 3, y: 1, confirmWheelchair: true });
  });

  it('sends the buyer back to the seats when the cart finds no seat held', async () => {
    const { api, server } = seatServer({
      cart: () =>
        err(422, 'formValidation', { reason: 'membershipSeats', membershipId: 4, missing: [913] }),
    });
    server.held.set(911, { ...thursdayHeld(911) });
    const { getRouter } = await renderApp('/memberships?lang=en&choice=4:401*1&step=checkout', {
      api,
    });
    const user = userEvent.setup();
    await fillDetails(user);
    expect(
      await screen.findByText(/Your seat in .* is no longer held in every screening/),
    ).toBeInTheDocument();
    expect(new URLSearchParams(getRouter()?.state.location.search).get('step')).toBe('seats');
    expect(screen.getByRole('heading', { name: `Your seat in ${NAME}` })).toBeInTheDocument();
    expect(
      await screen.findByText(
        'The seat is no longer held in every screening: choose a seat again to go on.',
      ),
    ).toBeInTheDocument();
    expect(next()).toBeDisabled();
  });

  it('gives the seat back when the buyer takes the membership out of the choice', async () => {
    const { api, server } = seatServer();
    for (const id of ids) server.held.set(id, { ...thursdayHeld(id), x: 2, y: 1 });
    await renderApp('/memberships?lang=en&choice=4:401*1', { api });
    const user = userEvent.setup();
    const card = (await screen.findByRole('region', { name: NAME }, SLOW)) as HTMLElement;
    await user.click(within(card).getByRole('button', { name: /^Fewer:/ }));
    await waitFor(() =>
      expect(
        server.calls.find((c) => c.path === '/api/membership/unlock-seat')?.body,
      ).toMatchObject({ membershipId: 4, venueId: 6, seatplanId: 6, sectionId: 61, x: 2, y: 1 }),
    );
    expect(server.held.size).toBe(0);
  });

  it('lists on the confirmation the seats the order sold', async () => {
    const order = {
      reservationIdentifier: 'M-7',
      reservationNumber: '7',
      orderType: 'memberships',
      currency: 'ILS',
      total: 24000,
      paidAt: '2026-11-26T10:05:00Z',
      donations: [],
      products: [],
      systemVouchers: [],
      members: [
        {
          memberNumber: '400001',
          name: 'מנוי חמישי',
          nameEn: NAME,
          membershipId: 4,
          membershipTypeId: 1,
          startDate: '2026-11-26',
          endDate: '2027-11-25',
          balance: 0,
          topUp: false,
        },
      ],
      seats: ids.map((id) => orderSeat(id, '5', '7')),
    };
    await renderApp('/memberships?lang=en&order=M-7', {
      api: (url) => (url.pathname === '/api/gift-orders/M-7' ? { body: order } : undefined),
    });
    const seatsList = await screen.findByRole('region', { name: 'Your fixed seats' }, SLOW);
    const items = within(seatsList).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[2]).toHaveTextContent('Film 913');
    expect(items[2]).toHaveTextContent('Stalls, row 5, seat 7');
    expect(within(items[2]).getByRole('link', { name: 'E-ticket' })).toHaveAttribute(
      'href',
      expect.stringContaining('/edocument/doc-913'),
    );
    expect(screen.getByText('400001')).toBeInTheDocument();
  });
});

function thursdayHeld(presentationId: number): EnrollSelection {
  return {
    expiresAt: '2026-11-26T10:10:00Z',
    presentationId,
    sectionId: 61,
    x: 0,
    y: 0,
    rowName: '1',
    seatName: '1',
  };
}
