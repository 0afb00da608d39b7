// Live seat changes (GET /api/seats/events, server-sent events; docs/decisions/0010): other
// buyers' holds, releases, sales and expiries reach the seat map without polling. Each change is
// applied to the cached seat status (its letters, lib/api/seatStatusCompact) at once; the status
// is then read again (the changes since its version) shortly after, because the server alone
// decides which seats the single-seat rule blocks. Polling stays as the fallback while the
// stream is down.
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { API_BASE } from './client';
import { seatMapKeys, type SeatChange } from './seatKeys';
import { applySeatEvent, type CompactSeatStatus } from './seatStatusCompact';

export interface SeatEvent {
  presentationId: number;
  emittedAtMs: number;
  changes: SeatChange[];
}

/** After a burst of changes, reload the status once (the blocked seats) this long after the last. */
export const RELOAD_AFTER_EVENTS_MS = 1500;

/** Whether the stream is live: 'connecting', 'live' (events arrive) or 'down' (polling only). */
export type LiveState = 'connecting' | 'live' | 'down';

/**
 * Subscribes the seat status of a presentation to the event stream while mounted. Returns the
 * stream's state, so the caller can poll more often while it is down. `indexes` (the plan's seat
 * index by `section:x:y`) lets an event change the cached letters at once; without it (the plan
 * not there yet) an event only brings the next read sooner.
 */
export function useSeatEvents(
  presentationId: number,
  indexes?: ReadonlyMap<string, number>,
): LiveState {
  const queryClient = useQueryClient();
  const indexesRef = useRef(indexes);
  useEffect(() => {
    indexesRef.current = indexes;
  }, [indexes]);
  const [live, setLive] = useState<LiveState>(() =>
    typeof EventSource === 'undefined' ? 'down' : 'connecting',
  );
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const key = seatMapKeys.status(presentationId);
    const source = new EventSource(
      `${API_BASE}/seats/events?presentationId=${encodeURIComponent(presentationId)}`,
    );
    let reload: ReturnType<typeof setTimeout> | undefined;
    const reloadSoon = (ms: number) => {
      clearTimeout(reload);
      reload = setTimeout(() => void queryClient.invalidateQueries({ queryKey: key }), ms);
    };
    let opened = false;
    source.addEventListener('ready', () => {
      setLive('live');
      // After a reconnect, changes may have been missed while the stream was down.
      if (opened) reloadSoon(0);
      opened = true;
    });
    source.addEventListener('seats', (e) => {
      let event: SeatEvent;
      try {
        event = JSON.parse((e as MessageEvent<string>).data) as SeatEvent;
      } catch {
        return;
      }
      if (event.presentationId !== presentationId) return;
      const seats = indexesRef.current;
      if (seats) {
        queryClient.setQueryData<CompactSeatStatus>(key, (old) =>
          old ? applySeatEvent(old, event.changes, seats) : old,
        );
      }
      reloadSoon(RELOAD_AFTER_EVENTS_MS);
    });
    source.addEventListener('resync', () => reloadSoon(0));
    // The browser reconnects by itself (the server asks for 1 s); until then, poll.
    source.addEventListener('error', () => setLive('down'));
    return () => {
      clearTimeout(reload);
      source.close();
    };
  }, [presentationId, queryClient]);
  return live;
}
