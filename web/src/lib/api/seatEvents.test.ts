import { act, renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { seatMapKeys as seatKeys } from './seatKeys';
import { RELOAD_AFTER_EVENTS_MS, useSeatEvents } from './seatEvents';
import { seatIndexes, type CompactSeatStatus } from './seatStatusCompact';

function status(letters: string): CompactSeatStatus {
  return {
    presentationId: 7,
    version: 'e.1',
    etag: 'W/"c-e.1-0"',
    letters,
    blocked: [],
    boxOffice: [],
    sections: [],
    serverTime: '2026-11-22T10:00:00Z',
  };
}

/** Seats x = 1, 2, 3, 4 of section 1, row y = 2, in the plan's order. */
const indexes = seatIndexes([1, 2, 3, 4].map((x) => ({ si: 1, x, y: 2 })));

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
    client.setQueryData(seatKeys.status(7), status('aaaa'));
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(QueryClientProvider, { client }, children);
    const { result, unmount } = renderHook(() => useSeatEvents(7, indexes), { wrapper });
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
    const after = client.getQueryData<CompactSeatStatus>(seatKeys.status(7))!;
    expect(after.letters).toBe('oaaa');
    expect(after.etag, 'the next read asks for the changes, not a 304').toBeNull();
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
