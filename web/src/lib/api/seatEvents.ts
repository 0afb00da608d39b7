// Live seat changes (GET /api/seats/events, server-sent events; docs/decisions/0010): other
// buyers' holds, releases, sales and expiries reach the seat map without polling. Each change is
// applied to the cached seat status at once; the status is then reloaded shortly after, because
// the server alone decides which seats the single-seat rule blocks. Polling stays as the fallback
// while the stream is down.
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { API_BASE } from './client';
import type { SeatsStatusV2Response } from './types';
import { seatMapKeys } from './seats';

export type SeatChangeState = 'held' | 'released' | 'sold' | 'expired';

export interface SeatChange {
  sectionId: number;
  x: number;
  y: number;
  state: SeatChangeState;
}

export interface SeatEvent {
  presentationId: number;
  emittedAtMs: number;
  changes: SeatChange[];
}

/** After a burst of changes, reload the status once (the blocked seats) this long after the last. */
export const RELOAD_AFTER_EVENTS_MS = 1500;

/**
 * The status with the changes applied. A hold is someone else's unless the status already says
 * it is this buyer's (the buyer's own lock answer updates their seats first).
 */
export function applySeatChanges(
  status: SeatsStatusV2Response,
  changes: readonly SeatChange[],
): SeatsStatusV2Response {
  const byKey = new Map(changes.map((c) => [`${c.sectionId}:${c.x}:${c.y}`, c.state]));
  let changed = false;
  const seats = status.seats.map((seat) => {
    const state = byKey.get(`${seat.si}:${seat.x}:${seat.y}`);
    if (state === undefined) return seat;
    const mine = seat.isSelected || seat.s === 'heldByMe';
    let next = seat;
    if (state === 'sold') {
      next = { ...seat, s: 'sold', isAvailable: false, isSelected: false };
    } else if (state === 'held') {
      if (!mine) next = { ...seat, s: 'heldByOther', isAvailable: false };
    } else if (seat.s !== 'sold') {
      next = { ...seat, s: 'available', isAvailable: true, isSelected: false };
    }
    if (next !== seat) changed = true;
    return next;
  });
  return changed ? { ...status, seats } : status;
}

/** Whether the stream is live: 'connecting', 'live' (events arrive) or 'down' (polling only). */
export type LiveState = 'connecting' | 'live' | 'down';

/**
 * Subscribes the seat status of a presentation to the event stream while mounted. Returns the
 * stream's state, so the caller can poll more often while it is down.
 */
export function useSeatEvents(presentationId: number): LiveState {
  const queryClient = useQueryClient();
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
      queryClient.setQueryData<SeatsStatusV2Response>(key, (old) =>
        old ? applySeatChanges(old, event.changes) : old,
      );
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
