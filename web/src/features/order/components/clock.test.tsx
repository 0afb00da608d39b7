// The order's clock on a step (spec section 4: the countdown "offers extension or refresh"): the
// warning of the last minute, the step's one extension at the warning and at zero, the seats lost
// meanwhile, and the step locked once the time is out. Fake timers: no test waits real minutes.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../../lib/i18n';
import { resetUuid } from '../../../lib/api/client';
import type { LockedSeat, Presentation } from '../../../lib/api/types';
import { mockApi } from '../../../test/renderApp';
import { makeConfig, makePresentation } from '../../../test/fixtures';
import { useOrder } from '../hooks/orderContext';
import type { PricedCart } from '../api/payment';
import { initialOrderState, type OrderEvent, type OrderState } from '../model/orderState';
import { OrderHarness } from '../testing/OrderHarness';
import { pricedCartOf } from '../testing/pricedCart';
import { LostSeats } from './LostSeats';
import { ProductsStep } from './products/ProductsStep';

const NOW = Date.parse('2026-07-14T16:50:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

const seat = (x: number): LockedSeat => ({
  sectionId: 5,
  x,
  y: 4,
  rowName: '4',
  seatName: String(x),
  seatKinds: [],
});
const seats = [seat(7), seat(8)];

const presentation: Presentation = makePresentation({
  products: [
    {
      id: 9,
      name: 'פופקורן',
      nameEn: 'Popcorn',
      price: 1500,
      currency: 'ILS',
      img: '/p.png',
    },
  ] as Presentation['products'],
});

const cart: PricedCart = pricedCartOf(8400);

/** At the products step, the server's clock running out `leftMs` from now. */
function atProducts(leftMs: number, overrides: Partial<OrderState> = {}): OrderState {
  return {
    ...initialOrderState({ hasProducts: true }),
    resuming: false,
    step: 'products',
    cart,
    choice: {
      lines: seats.map((s) => ({
        key: `${s.sectionId}:${s.x}:${s.y}`,
        seat: s,
        ticketGroupId: 1,
        ticketId: 31,
        code: null,
        ref1: '',
        ref2: '',
      })),
      groups: [],
      memberNumber: '',
    } as unknown as OrderState['choice'],
    clock: { expiresAt: iso(NOW + leftMs), serverTime: iso(NOW), receivedAt: NOW },
    ...overrides,
  };
}

type Call = { method: string; path: string; body: unknown };

function api(handler: (call: Call) => { status?: number; body: unknown } | undefined) {
  const calls: Call[] = [];
  const fetchMock = mockApi(makeConfig(), () => undefined);
  fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    };
    calls.push(call);
    const answer = url.pathname === '/api/config' ? { body: makeConfig() } : handler(call);
    return new Response(
      JSON.stringify(answer?.body ?? { error: { code: 'notFound', message: 'no mock' } }),
      {
        status: answer ? (answer.status ?? 200) : 404,
        headers: { 'content-type': 'application/json' },
      },
    );
  });
  return calls;
}

/** The page's banner of lost seats, as OrderFlow shows it above the step. */
function Lost() {
  const { state } = useOrder();
  return state.lostSeats ? <LostSeats seats={state.lostSeats} /> : null;
}

function renderStep(initial: OrderState) {
  const events: OrderEvent[] = [];
  const onRestart = vi.fn();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  queryClient.setQueryData(['myHolds', 101], {
    seats,
    step: 'products',
    expiresAt: initial.clock?.expiresAt,
    serverTime: iso(NOW),
    receivedAt: NOW,
  });
  render(
    <QueryClientProvider client={queryClient}>
      <OrderHarness
        presentation={presentation}
        initial={initial}
        onEvent={(e) => events.push(e)}
        onRestart={onRestart}
      >
        <Lost />
        <ProductsStep />
      </OrderHarness>
    </QueryClientProvider>,
  );
  return { events, onRestart };
}

/** Time passes (and the answers of the mocked server arrive). */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** The countdown's live region: what a screen reader hears. */
const liveRegion = () => {
  const region = screen.getByRole('timer').closest('.countdown')?.querySelector('.countdown__live');
  if (!region) throw new Error('no live region beside the timer');
  return region;
};

beforeEach(async () => {
  vi.useFakeTimers({
    now: NOW,
    toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
  });
  await i18n.changeLanguage('he');
  resetUuid();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the step's clock", () => {
  it('warns at one minute left, visibly and once to screen readers, and offers more time', async () => {
    api(() => undefined);
    renderStep(atProducts(65_000));
    expect(screen.getByRole('timer')).toHaveTextContent('1:05');
    expect(screen.queryByText('נותרה פחות מדקה')).toBeNull();
    expect(screen.queryByRole('button', { name: 'עוד זמן' })).toBeNull();
    expect(liveRegion()).toHaveTextContent('נותרו 2 דקות לבחירה');

    await pass(5_000);
    expect(screen.getByRole('timer')).toHaveTextContent('1:00');
    expect(screen.getByText('נותרה פחות מדקה')).toBeVisible();
    expect(screen.getByRole('button', { name: 'עוד זמן' })).toBeEnabled();
    const warned = liveRegion().textContent;
    expect(warned).toMatch(/^נותרה פחות מדקה אפשר לקבל עוד זמן/);

    // The timer ticks on; what is announced does not change with it.
    await pass(10_000);
    expect(screen.getByRole('timer')).toHaveTextContent('0:50');
    expect(liveRegion().textContent).toBe(warned);
  });

  it('gives the step its one extension at the warning, says so for 3 s, and offers it no more', async () => {
    const calls = api(({ method, path }) =>
      method === 'POST' && path === '/api/seats/extend'
        ? {
            body: {
              step: 'products',
              expiresAt: iso(NOW + 30_000 + 300_000),
              extended: true,
              serverTime: iso(NOW + 30_000),
            },
          }
        : undefined,
    );
    const { events } = renderStep(atProducts(60_000));
    await pass(30_000);
    fireEvent.click(screen.getByRole('button', { name: 'עוד זמן' }));
    await pass(0);

    expect(calls.filter((c) => c.path === '/api/seats/extend')).toEqual([
      { method: 'POST', path: '/api/seats/extend', body: { presentationId: 101 } },
    ]);
    expect(events.map((e) => e.type)).toContain('extended');
    expect(screen.getByRole('timer')).toHaveTextContent('5:00');
    expect(screen.queryByText('נותרה פחות מדקה')).toBeNull();
    // The toast stays 3,000 ms (spec section 9).
    expect(screen.getByText('קיבלתם עוד זמן')).toBeInTheDocument();
    await pass(2_999);
    expect(screen.getByText('קיבלתם עוד זמן')).toBeInTheDocument();
    await pass(1);
    expect(screen.queryByText('קיבלתם עוד זמן')).toBeNull();

    // The last minute again: the warning, but the step's extension is spent.
    await pass(240_000);
    expect(screen.getByText('נותרה פחות מדקה', { selector: 'p' })).toBeVisible();
    expect(liveRegion()).toHaveTextContent(/^נותרה פחות מדקה$/);
    expect(screen.queryByRole('button', { name: 'עוד זמן' })).toBeNull();
    // And at zero only a fresh start is offered.
    await pass(60_000);
    const expired = screen.getByRole('alert');
    expect(expired).toHaveTextContent('הזמן הסתיים');
    expect(within(expired).queryByRole('button', { name: 'עוד זמן' })).toBeNull();
    expect(within(expired).getByRole('button', { name: 'בחירת מושבים מחדש' })).toBeEnabled();
  });

  it('says when the hold has had all the time it may have', async () => {
    api(({ path }) =>
      path === '/api/seats/extend'
        ? { status: 409, body: { error: { code: 'holdLimitReached', message: 'ceiling' } } }
        : undefined,
    );
    renderStep(atProducts(30_000));
    fireEvent.click(screen.getByRole('button', { name: 'עוד זמן' }));
    await pass(0);
    expect(screen.getByRole('alert')).toHaveTextContent(
      'אי אפשר להוסיף עוד זמן להזמנה הזאת. השלימו אותה או התחילו מחדש',
    );
    expect(screen.queryByRole('button', { name: 'עוד זמן' })).toBeNull();
  });

  it('locks the step at zero: products cannot be changed, only more time or a fresh start', async () => {
    api(() => undefined);
    const { onRestart } = renderStep(atProducts(2_000));
    const more = screen.getByRole('button', { name: 'עוד פופקורן' });
    expect(more).toBeEnabled();

    await pass(2_000);
    const expired = screen.getByRole('alert');
    expect(expired).toHaveTextContent('הזמן הסתיים');
    for (const button of screen.getAllByRole('button')) {
      if (expired.contains(button)) expect(button).toBeEnabled();
      else expect(button).toBeDisabled();
    }
    expect(within(expired).getByRole('button', { name: 'עוד זמן' })).toBeEnabled();
    fireEvent.click(within(expired).getByRole('button', { name: 'בחירת מושבים מחדש' }));
    expect(onRestart).toHaveBeenCalledOnce();
  });

  it('at zero takes back the seats still free, and names the ones that were taken', async () => {
    const calls = api(({ method, path, body }) => {
      if (method !== 'PUT' || path !== '/api/seats/lock-seat') return undefined;
      const x = (body as { seat: { XCoordinate: number } }).seat.XCoordinate;
      if (x === 8) {
        return { status: 409, body: { error: { code: 'lock_seat_error', message: 'taken' } } };
      }
      return {
        body: {
          lockedSeat: seat(7),
          lockedSeats: [seat(7)],
          expiresAt: iso(NOW + 600_000),
          step: 'seats',
          serverTime: iso(NOW + 1_000),
        },
      };
    });
    const { events } = renderStep(atProducts(1_000));
    await pass(1_000);
    const expired = screen.getByRole('alert');
    fireEvent.click(within(expired).getByRole('button', { name: 'עוד זמן' }));
    await pass(0);

    // Locked again through the normal lock call, one seat at a time, with its ticket group.
    const locks = calls.filter((c) => c.path === '/api/seats/lock-seat');
    expect(locks.map((c) => (c.body as { seat: unknown }).seat)).toEqual([
      expect.objectContaining({
        VenueSectionId: 5,
        XCoordinate: 7,
        YCoordinate: 4,
        TicketGroupId: 1,
      }),
      expect.objectContaining({
        VenueSectionId: 5,
        XCoordinate: 8,
        YCoordinate: 4,
        TicketGroupId: 1,
      }),
    ]);
    expect(events.at(-1)).toEqual({ type: 'reclaimed', kept: 1, lost: ['שורה 4, מושב 8'] });
    // On at the tickets step with the seat kept; the taken one named.
    expect(screen.getByRole('alert')).toHaveTextContent('המושב הזה נתפס בינתיים: שורה 4, מושב 8');
    expect(screen.queryByText('הזמן הסתיים')).toBeNull();
  });
});
