import { renderHook, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SeatsStatusCompactResponse } from './types';
import { seatMapKeys } from './seatKeys';
import { useLiveSeatStatus } from './seats';
import {
  applySeatEvent,
  mergeCompact,
  seatIndexes,
  statusFromCompact,
  type CompactSeatStatus,
} from './seatStatusCompact';

const SECTIONS = [{ id: 1, kind: 'reserved', capacity: 5, remaining: 2, soldOut: false }];
const TIME = '2026-11-27T03:00:00.000Z';
/** Five seats of section 1, row 2, in the plan's order. */
const PLAN = [1, 2, 3, 4, 5].map((x) => ({ si: 1, x, y: 2 }));

function answer(fields: Partial<SeatsStatusCompactResponse>): SeatsStatusCompactResponse {
  return {
    presentationId: 7,
    version: 'e1.1',
    full: true,
    blocked: [],
    boxOffice: [],
    sections: SECTIONS,
    serverTime: TIME,
    ...fields,
  };
}

function cached(letters: string, fields: Partial<CompactSeatStatus> = {}): CompactSeatStatus {
  return {
    presentationId: 7,
    version: 'e1.1',
    etag: 'W/"c-e1.1-x"',
    letters,
    blocked: [],
    boxOffice: [],
    sections: SECTIONS,
    serverTime: TIME,
    ...fields,
  };
}

describe('mergeCompact', () => {
  it('takes a full answer’s letters, version and tag, over anything it had', () => {
    const full = answer({ version: 'e2.9', seats: 'amosa', blocked: [4] });
    const got = mergeCompact(cached('sssss'), { notModified: false, data: full, etag: 'W/"t"' });
    expect(got).toEqual(cached('amosa', { version: 'e2.9', etag: 'W/"t"', blocked: [4] }));
  });

  it('writes a delta’s changes over the letters and ignores an index past the plan', () => {
    const delta = answer({
      version: 'e1.3',
      full: false,
      changes: [
        { i: 0, s: 'o' },
        { i: 3, s: 'a' },
        { i: 5, s: 's' },
        { i: -1, s: 's' },
      ],
      boxOffice: [2],
    });
    const before = cached('aaaoa');
    const got = mergeCompact(before, { notModified: false, data: delta, etag: 'W/"u"' });
    expect(got.letters).toBe('oaaaa');
    expect([got.version, got.etag, got.boxOffice]).toEqual(['e1.3', 'W/"u"', [2]]);
    expect(before.letters, 'the cached status is not mutated').toBe('aaaoa');
  });

  it('keeps the very same status on a 304', () => {
    const before = cached('amosa');
    expect(mergeCompact(before, { notModified: true })).toBe(before);
  });
});

describe('statusFromCompact', () => {
  it('builds V2’s status: states, the buyer’s own holds, single-seat and box-office blocks', () => {
    const status = cached('amosa', { blocked: [0], boxOffice: [4] });
    expect(statusFromCompact(PLAN, status)).toEqual({
      presentationId: 7,
      sections: SECTIONS,
      serverTime: TIME,
      seats: [
        {
          ...{ x: 1, y: 2, si: 1, s: 'available', isAvailable: true, isBlocked: true },
          ...{ isSelected: false, blockReason: 'singleSeat' },
        },
        {
          x: 2,
          y: 2,
          si: 1,
          s: 'heldByMe',
          isAvailable: false,
          isBlocked: false,
          isSelected: true,
        },
        {
          ...{ x: 3, y: 2, si: 1, s: 'heldByOther', isAvailable: false, isBlocked: false },
          isSelected: false,
        },
        { x: 4, y: 2, si: 1, s: 'sold', isAvailable: false, isBlocked: false, isSelected: false },
        {
          ...{ x: 5, y: 2, si: 1, s: 'available', isAvailable: true, isBlocked: true },
          ...{ isSelected: false, blockReason: 'boxOffice' },
        },
      ],
    });
  });

  it('leaves out a seat the letters do not cover (the map draws it not available)', () => {
    expect(statusFromCompact(PLAN, cached('aa')).seats.map((s) => s.x)).toEqual([1, 2]);
  });
});

describe('applySeatEvent', () => {
  const indexes = seatIndexes(PLAN);

  it('turns other buyers’ holds and sales unavailable and releases free, and drops the tag', () => {
    const before = cached('aaoaa');
    const after = applySeatEvent(
      before,
      [
        { sectionId: 1, x: 1, y: 2, state: 'held' },
        { sectionId: 1, x: 2, y: 2, state: 'sold' },
        { sectionId: 1, x: 3, y: 2, state: 'expired' },
      ],
      indexes,
    );
    expect(after.letters).toBe('osaaa');
    expect(after.etag).toBeNull();
    expect(before.letters, 'the cached status is not mutated').toBe('aaoaa');
  });

  it('keeps the buyer’s own hold theirs, a sold seat sold, and ignores seats not in the plan', () => {
    const before = cached('msaaa');
    const after = applySeatEvent(
      before,
      [
        { sectionId: 1, x: 1, y: 2, state: 'held' },
        { sectionId: 1, x: 2, y: 2, state: 'released' },
        { sectionId: 9, x: 1, y: 2, state: 'sold' },
      ],
      indexes,
    );
    expect(after).toBe(before);
  });
});

describe('useLiveSeatStatus', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads in full first, then asks since its version with its tag, and keeps what it has on a 304', async () => {
    const answers: Response[] = [
      Response.json(answer({ version: 'e1.1', seats: 'aaaaa' }), {
        headers: { etag: 'W/"c-e1.1-x"' },
      }),
      Response.json(answer({ version: 'e1.2', full: false, changes: [{ i: 1, s: 'o' }] }), {
        headers: { etag: 'W/"c-e1.2-x"' },
      }),
      new Response(null, { status: 304 }),
    ];
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => answers.shift()!);
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, children);
    const sent = () =>
      fetchMock.mock.calls.map(([url, init]) => {
        const u = new URL(url, 'http://localhost');
        const headers = (init?.headers ?? {}) as Record<string, string>;
        return [u.pathname, u.searchParams.get('since'), headers['If-None-Match'] ?? null];
      });

    const first = renderHook(() => useLiveSeatStatus(7, PLAN), { wrapper });
    await waitFor(() => expect(first.result.current.status.data).toBeDefined());
    expect(first.result.current.status.data!.seats.every((s) => s.s === 'available')).toBe(true);
    first.unmount();

    // A remount (a language switch, another step) goes on from the cached letters.
    const again = renderHook(() => useLiveSeatStatus(7, PLAN), { wrapper });
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(again.result.current.status.data!.seats[1].s).toBe('heldByOther'));

    const before = client.getQueryData(seatMapKeys.status(7));
    await client.invalidateQueries({ queryKey: seatMapKeys.status(7) });
    expect(client.getQueryData(seatMapKeys.status(7)), 'a 304 keeps what it had').toBe(before);
    expect(again.result.current.status.data!.seats.map((s) => s.s[0]).join('')).toBe('ahaaa');

    expect(sent()).toEqual([
      ['/api/seats/seats-statusV2/compact', null, null],
      ['/api/seats/seats-statusV2/compact', 'e1.1', 'W/"c-e1.1-x"'],
      ['/api/seats/seats-statusV2/compact', 'e1.2', 'W/"c-e1.2-x"'],
    ]);
  });
});
