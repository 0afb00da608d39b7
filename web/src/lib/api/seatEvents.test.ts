import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SeatStatusShort, SeatsStatusV2Response } from './types';
import { seatMapKeys as seatKeys } from './seats';
import { applySeatChanges, RELOAD_AFTER_EVENTS_MS, useSeatEvents } from './seatEvents';

function seat(x: number, s: string, extra: Partial<SeatStatusShort> = {}): SeatStatusShort {
  return {
    si: 1,
    x,
    y: 2,
    s,
    isAvailable: s === 'available',
    isBlocked: false,
    isSelected: s === 'heldByMe',
    ...extra,
  };
}

function status(...seats: SeatStatusShort[]): SeatsStatusV2Response {
  return { presentationId: 7, sections: [], seats, serverTime: '2026-11-22T10:00:00Z' };
}

describe('applySeatChanges', () => {
  it('turns other buyers’ holds and sales unavailable and releases free again', () => {
    const before = status(
      seat(1, 'available'),
      seat(2, 'available'),
      seat(3, 'heldByOther'),
      seat(4, 'available'),
    );
    const after = applySeatChanges(before, [
      { sectionId: 1, x: 1, y: 2, state: 'held' },
      { sectionId: 1, x: 2, y: 2, state: 'sold' },
      { sectionId: 1, x: 3, y: 2, state: 'expired' },
    ]);
    expect(after.seats.map((s) => [s.s, s.isAvailable])).toEqual([
      ['heldByOther', false],
      ['sold', false],
      ['available', true],
      ['available', true],
    ]);
    expect(before.seats[0].s, 'the cached status is not mutated').toBe('available');
  });

  it('keeps the buyer’s own hold theirs and a sold seat sold', () => {
    const before = status(seat(1, 'heldByMe'), seat(2, 'sold'));
    const after = applySeatChanges(before, [
      { sectionId: 1, x: 1, y: 2, state: 'held' },
      { sectionId: 1, x: 2, y: 2, state: 'released' },
      { sectionId: 9, x: 1, y: 2, state: 'sold' },
    ]);
    expect(after).toBe(before);
  });
});

/** A stand-in for the browser's EventSource that the test drives. */
class FakeSource {
  static last: FakeSource | null = null;
  listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();
  closed = false;
  url: string;
  constructor(url: string) {
    this.url = url;
    FakeSource.last = this;
  }
  addEventListener(name: string, fn: (e: MessageEvent<string>) => void) {
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), fn]);
  }
  emit(name: string, data = '{}') {
    for (const fn of this.listeners.get(name) ?? []) fn({ data } as MessageEvent<string>);
  }
  close() {
    this.closed = true;
  }
}

describe('useSeatEvents', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('EventSource', FakeSource);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('applies events to the cached status, reloads it after a burst, and closes on unmount', () => {
    const client = new QueryClient();
    client.setQueryData(seatKeys.status(7), status(seat(1, 'available')));
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, children);
    const { result, unmount } = renderHook(() => useSeatEvents(7), { wrapper });
    const source = FakeSource.last!;
    expect(source.url).toBe('/api/seats/events?presentationId=7');
    expect(result.current).toBe('connecting');

    act(() => source.emit('ready', '{"presentationId":7}'));
    expect(result.current).toBe('live');
    act(() =>
      source.emit(
        'seats',
        JSON.stringify({
          presentationId: 7,
          emittedAtMs: 1,
          changes: [{ sectionId: 1, x: 1, y: 2, state: 'held' }],
        }),
      ),
    );
    expect(client.getQueryData<SeatsStatusV2Response>(seatKeys.status(7))!.seats[0].s).toBe(
      'heldByOther',
    );
    expect(invalidate).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(RELOAD_AFTER_EVENTS_MS));
    expect(invalidate).toHaveBeenCalledTimes(1);

    act(() => source.emit('error'));
    expect(result.current).toBe('down');
    act(() => source.emit('resync'));
    act(() => vi.advanceTimersByTime(1));
    expect(invalidate).toHaveBeenCalledTimes(2);

    unmount();
    expect(source.closed).toBe(true);
  });
});
