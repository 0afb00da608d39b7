import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  makeCompactStatus,
  makeConfig,
  makePresentation,
  makeSeat,
  makeSeatplan,
} from '../../../../test/fixtures';
import { renderApp, type ApiHandler } from '../../../../test/renderApp';

const presentation = makePresentation({ id: 77, venueId: 11, seatplanId: 7 });
const SERVER_TIME = '2026-07-14T09:00:00Z';

const seat = makeSeat;

// Row 1: four free seats, the first a wheelchair space. Row 2: taken, blocked, free, free.
const seats = [
  seat(0, 0, { hc: true }),
  seat(1, 0),
  seat(2, 0),
  seat(3, 0),
  seat(0, 1),
  seat(1, 1),
  seat(2, 1),
  seat(3, 1),
];
// Row 2's first seat is sold; its second is blocked by the single-seat rule (index 5).
const SECTIONS = [{ id: 11, kind: 'reserved', capacity: 8, remaining: 5, soldOut: false }];
const letters = seats.map((s) => (s.x === 0 && s.y === 1 ? 's' : 'a')).join('');
const compact = makeCompactStatus(77, letters, { blocked: [5], sections: SECTIONS });

const api: ApiHandler = (url) => {
  switch (url.pathname) {
    case '/api/presentations/77':
      return { body: { presentation, serverTime: SERVER_TIME, error: null } };
    case '/api/seats/seatplanV2':
      // The back office's name, in Hebrew: the map is named by the venue's English name.
      return { body: { seatplan: makeSeatplan(seats, { name: 'אולם 3' }) } };
    case '/api/seats/seats-statusV2/compact':
      return { body: compact };
    case '/api/seats/my-holds':
      return { body: { seats: [], step: null, expiresAt: null, serverTime: SERVER_TIME } };
    case '/api/seats/lock-seat':
      return {
        body: {
          lockedSeat: { x: 3, y: 0, sectionId: 11, rowName: '1', seatName: '4' },
          lockedSeats: [{ x: 3, y: 0, sectionId: 11, rowName: '1', seatName: '4' }],
          expiresAt: '2026-07-14T09:10:00Z',
          step: 'seats',
          serverTime: SERVER_TIME,
        },
      };
    default:
      return undefined;
  }
};

function lockCalls(fetchMock: ReturnType<typeof vi.fn>) {
  return fetchMock.mock.calls
    .filter(([input]) => String(input).startsWith('/api/seats/lock-seat'))
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);
}

/** The map once its seats are drawn (they come a moment after its frame: SeatMap.tsx). */
async function findMap() {
  const map = await screen.findByRole('group', { name: 'Seat map: Hall 3' }, { timeout: 5000 });
  await waitFor(() => expect(map.querySelector('.seat')).not.toBeNull());
  return map;
}

async function openMap() {
  const rendered = await renderApp('/order/77?lang=en', { api, config: makeConfig() });
  // The first test of a file loads the order page's code: slow on a busy machine.
  const map = await findMap();
  return { ...rendered, map };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('seat step', () => {
  it('draws every seat with a spoken name and state', async () => {
    const { map } = await openMap();
    expect(
      within(map).getByRole('button', { name: 'Row 1, seat 1, wheelchair space, available' }),
    ).toBeInTheDocument();
    expect(within(map).getByRole('button', { name: 'Row 2, seat 1, taken' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    expect(
      within(map).getByRole('button', {
        name: 'Row 2, seat 2, not available, it would leave a single empty seat',
      }),
    ).toHaveAttribute('aria-disabled', 'true');
    expect(within(map).getAllByRole('button')).toHaveLength(8);
    expect(screen.getByRole('button', { name: 'Zoom in' })).toBeEnabled();
    expect(screen.getByRole('list', { name: 'Legend' })).toBeInTheDocument();
    // The first test of the file waits for the order page's code (openMap).
  }, 15_000);

  it('keeps one seat in the tab order and moves it with the arrow keys', async () => {
    const user = userEvent.setup();
    const { map } = await openMap();
    const start = within(map).getByRole('button', { name: 'Row 2, seat 3, available' });
    // The free seat nearest the best point (x 2, y 1) is the one reached by Tab.
    expect(start).toHaveAttribute('tabindex', '0');
    expect(
      within(map)
        .getAllByRole('button')
        .filter((b) => b.tabIndex === 0),
    ).toHaveLength(1);

    start.focus();
    await user.keyboard('{ArrowRight}');
    expect(within(map).getByRole('button', { name: 'Row 2, seat 4, available' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    const target = within(map).getByRole('button', { name: 'Row 1, seat 4, available' });
    expect(target).toHaveFocus();
    expect(target).toHaveAttribute('tabindex', '0');
    await user.keyboard('{ArrowLeft}{ArrowLeft}{ArrowLeft}');
    expect(
      within(map).getByRole('button', { name: 'Row 1, seat 1, wheelchair space, available' }),
    ).toHaveFocus();
  });

  it('holds a seat with Enter and shows it in the selection with the time left', async () => {
    const user = userEvent.setup();
    const { map, fetchMock } = await openMap();
    within(map).getByRole('button', { name: 'Row 1, seat 4, available' }).focus();
    await user.keyboard('{Enter}');
    expect(
      await within(map).findByRole('button', { name: 'Row 1, seat 4, selected' }),
    ).toHaveAttribute('aria-pressed', 'true');
    expect(lockCalls(fetchMock)).toEqual([
      {
        recaptchaToken: '',
        seat: {
          PresentationId: 77,
          VenueId: 11,
          VenueSeatplanId: 7,
          VenueSectionId: 11,
          TicketGroupId: 1,
          XCoordinate: 3,
          YCoordinate: 0,
        },
      },
    ]);
    expect(screen.getByText('row 1, seat 4')).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent(/Time left: \d+:\d\d/);
  });

  it('does not try to hold a taken or blocked seat', async () => {
    const user = userEvent.setup();
    const { map, fetchMock } = await openMap();
    await user.click(within(map).getByRole('button', { name: 'Row 2, seat 1, taken' }));
    const blocked = within(map).getByRole('button', {
      name: 'Row 2, seat 2, not available, it would leave a single empty seat',
    });
    await user.click(blocked);
    blocked.focus();
    await user.keyboard('{Enter} ');
    expect(lockCalls(fetchMock)).toEqual([]);
  });

  it('asks before holding a wheelchair space and says so to the server', async () => {
    const user = userEvent.setup();
    const { map, fetchMock } = await openMap();
    await user.click(
      within(map).getByRole('button', { name: 'Row 1, seat 1, wheelchair space, available' }),
    );
    const dialog = await screen.findByRole('alertdialog', {
      name: 'This is a wheelchair space. Choose it anyway?',
    });
    expect(lockCalls(fetchMock)).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(lockCalls(fetchMock)).toEqual([]);

    await user.click(
      within(map).getByRole('button', { name: 'Row 1, seat 1, wheelchair space, available' }),
    );
    await user.click(await screen.findByRole('button', { name: 'Choose this seat' }));
    await waitFor(() => expect(lockCalls(fetchMock)).toHaveLength(1));
    expect(lockCalls(fetchMock)[0]).toMatchObject({ confirmWheelchair: true });
  });

  it('says a seat is no longer available when the lock fails', async () => {
    const user = userEvent.setup();
    const failing: ApiHandler = (url) =>
      url.pathname === '/api/seats/lock-seat'
        ? { status: 409, body: { error: { code: 'lock_seat_error', message: 'taken' } } }
        : api(url);
    await renderApp('/order/77?lang=en', { api: failing });
    // The first test of a file loads the order page's code: slow on a busy machine.
    const map = await findMap();
    await user.click(within(map).getByRole('button', { name: 'Row 1, seat 2, available' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This seat is no longer available');
    expect(within(map).getByRole('button', { name: 'Row 1, seat 2, available' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('shows a seat’s row, price level and kind, and says why a grey seat is not for sale', async () => {
    const user = userEvent.setup();
    // The single-seat rule (seating policy 3): the blocked free seat of row 2 is its doing.
    const ruled: ApiHandler = (url) => {
      if (url.pathname === '/api/presentations/77') {
        const withRule = { ...presentation, seatingPolicyId: 3 };
        return { body: { presentation: withRule, serverTime: SERVER_TIME, error: null } };
      }
      if (url.pathname === '/api/presentations/77/ticketGroups') {
        const regular = { id: 101, ticketGroupId: 1, name: 'רגיל', nameEn: 'Regular' };
        const price = { price: 4200, serviceCharge: 500, currency: 'ILS', multiplyFactor: 1 };
        const plain = {
          ...{ memberOnly: false, needsSeniorId: false, refPrompt: '', refPromptEn: '' },
          ...{ requiresTicketId: null, seatKind: null },
        };
        return {
          body: {
            serviceCharge: null,
            ticketGroups: [
              {
                ...{ id: 1, name: 'רגיל', nameEn: 'Standard', isByCodeEnabled: false },
                ...{ tickets: [{ ...regular, ...price, ...plain }], voucherTickets: [] },
              },
            ],
          },
        };
      }
      return api(url);
    };
    const { fetchMock } = await renderApp('/order/77?lang=en', {
      api: ruled,
      config: makeConfig(),
    });
    const map = await findMap();
    const details = screen.getByTestId('seat-details');
    expect(details).toHaveTextContent('Tap or point at a seat');

    // A grey seat says why, to the eye and in its spoken name; the legend says it once for all.
    const grey = within(map).getByRole('button', {
      name: 'Row 2, seat 2, not available, it would leave a single empty seat',
    });
    await user.click(grey);
    expect(details).toHaveTextContent('Row 2, seat 2');
    expect(details).toHaveTextContent(
      'Not available now: choosing it would leave a single empty seat beside it',
    );
    expect(
      screen.getByText(/Grey seats in a free row would leave a single empty seat/),
    ).toBeVisible();
    expect(lockCalls(fetchMock)).toEqual([]);

    // Pointing at a seat shows its row, section, price level and kind.
    await user.hover(
      within(map).getByRole('button', { name: 'Row 1, seat 1, wheelchair space, available' }),
    );
    await waitFor(() => expect(details).toHaveTextContent('Row 1, seat 1'));
    expect(details).toHaveTextContent('Stalls · Standard, from ₪47.00');
    expect(details).toHaveTextContent('Wheelchair · Free');
  });

  it('draws the whole hall first, with each row named at both sides', async () => {
    const { map } = await openMap();
    // The whole hall: no zoom to undo, the drawing at the box's width.
    expect(screen.getByRole('button', { name: 'Zoom out' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Reset' })).toBeDisabled();
    expect(map.getAttribute('style')).toContain('inline-size: 100%');
    const labels = [...map.querySelectorAll('.seat-map__row')].map((el) => el.textContent);
    expect(labels).toEqual(['1', '1', '2', '2']);
  });

  it('shows Continue as disabled until a seat is held, and says why beside it', async () => {
    await openMap();
    const next = screen.getByRole('button', { name: 'Continue' });
    expect(next).toBeDisabled();
    expect(next).toHaveAccessibleDescription('Choose at least one seat to continue.');
  });

  it('asks a general-admission screening for a number of places, not for a tap on a map', async () => {
    const ga: ApiHandler = (url) => {
      if (url.pathname === '/api/seats/seatplanV2') {
        const section = {
          ...{ id: 12, name: 'רחבה', nameEn: 'Floor', kind: 'ga', capacity: 100 },
          ...{ ticketGroupId: 1, priceLevel: 1 },
        };
        const plan = { id: 7, venueId: 11, name: 'Hall 3', width: 0, height: 0, bestX: 0 };
        const screen = { label: 'במה', labelEn: 'Stage' };
        return {
          body: { seatplan: { ...plan, bestY: 0, screen, sections: [section], seats: [] } },
        };
      }
      if (url.pathname === '/api/seats/seats-statusV2/compact') {
        const floor = { id: 12, kind: 'ga', capacity: 100, remaining: 40, soldOut: false };
        return { body: makeCompactStatus(77, '', { sections: [floor] }) };
      }
      return api(url);
    };
    await renderApp('/order/77?lang=en', { api: ga, config: makeConfig() });
    expect(
      await screen.findByRole('heading', { name: 'How many places?' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/map/i)).toBeNull();
    expect(screen.getByRole('button', { name: 'One more place in Floor' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Continue' })).toHaveAccessibleDescription(
      'Choose at least one place to continue.',
    );
  });

  it('when the time runs out on the map, "more time" locks the held seat again (the checkout is over, so no extension)', async () => {
    const user = userEvent.setup();
    const held = { x: 3, y: 0, sectionId: 11, rowName: '1', seatName: '4', seatKinds: [] };
    // The hold ran out at the server's time: the map opens on the expired box.
    let expiresAt = SERVER_TIME;
    const expiring: ApiHandler = (url) => {
      if (url.pathname === '/api/seats/my-holds') {
        return { body: { seats: [held], step: 'seats', expiresAt, serverTime: SERVER_TIME } };
      }
      if (url.pathname === '/api/seats/lock-seat') expiresAt = '2026-07-14T09:10:00Z';
      return api(url);
    };
    const { fetchMock } = await renderApp('/order/77?lang=en', {
      api: expiring,
      config: makeConfig(),
    });
    const alert = await screen.findByText('Time expired', {}, { timeout: 5000 });
    const box = alert.closest('[role="alert"]') as HTMLElement;
    await user.click(within(box).getByRole('button', { name: 'More time' }));

    await waitFor(() => expect(screen.getByRole('timer')).toHaveTextContent(/9:\d\d|10:00/));
    expect(lockCalls(fetchMock).map((b) => b.seat)).toEqual([
      expect.objectContaining({ VenueSectionId: 11, XCoordinate: 3, YCoordinate: 0 }),
    ]);
    const paths = fetchMock.mock.calls.map(([input]) => String(input));
    expect(paths.some((p) => p.startsWith('/api/seats/extend'))).toBe(false);
    expect(screen.queryByText('Time expired')).toBeNull();
  });
});
