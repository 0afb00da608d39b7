// A presentation's seat plan and the live state of its seats: the queries (and the one place that
// owns their keys) and the hook that keeps the state live through the seat event stream, with
// polling as the safety net. Shared by the order's seat step and the seat-change screen.
import { useCallback, useMemo } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGetRevalidated, apiSend } from './client';
import type { Captcha } from '../captcha';
import type {
  SeatplanV2Response,
  SeatsStatusCompactResponse,
  SeatsStatusV2Response,
} from './types';
import {
  mergeCompact,
  seatIndexes,
  statusFromCompact,
  type CompactSeatStatus,
} from './seatStatusCompact';
import { useSeatEvents } from './seatEvents';
import { seatMapKeys } from './seatKeys';
import { channelOf } from './orderChannel';

/** How often the map asks again while the live event stream is down. */
export const STATUS_POLL_MS = 5000;
/** How often it asks while events arrive: a safety net only. */
export const STATUS_POLL_LIVE_MS = 30_000;

/**
 * The seat plan; with the presentation, each seat's ticket group (`tg`) is the one that
 * screening sells (a screening may sell its own group in place of its hall's main one).
 */
export function seatplanQuery(
  venueId: number,
  seatplanId: number,
  captcha: Captcha,
  presentationId?: number,
) {
  return queryOptions({
    queryKey: seatMapKeys.plan(venueId, seatplanId, presentationId),
    queryFn: async ({ signal }) =>
      apiSend<SeatplanV2Response>(
        'POST',
        '/seats/seatplanV2',
        { recaptchaToken: await captcha('seatplan') },
        presentationId === undefined
          ? { venueId, seatplanId }
          : { venueId, seatplanId, presentationId },
        signal,
      ),
    staleTime: Infinity,
  });
}

/**
 * The seat status of a presentation in the compact form (decision 0060): the first read in full,
 * then each read (a poll, a seat event's reload, an invalidation after a lock) asks `since` the
 * cached version with the cached ETag, and only the changes (or a 304) come back. The cache keeps
 * the letters per presentation, so a remount or a language switch goes on from them.
 */
export function seatsStatusQuery(presentationId: number, pollMs: number | false = STATUS_POLL_MS) {
  return queryOptions({
    queryKey: seatMapKeys.status(presentationId),
    queryFn: async ({ signal, client, queryKey }): Promise<CompactSeatStatus> => {
      const prev = client.getQueryData<CompactSeatStatus>(queryKey);
      const answer = await apiGetRevalidated<SeatsStatusCompactResponse>(
        '/seats/seats-statusV2/compact',
        { presentationId, since: prev?.version, ...channelOf(presentationId) },
        prev?.etag,
        signal,
      );
      return mergeCompact(prev, answer);
    },
    refetchInterval: pollMs,
    staleTime: 0,
  });
}

type PlanSeats = readonly { si: number; x: number; y: number }[];

/**
 * The seat status of a presentation, live: the event stream applies changes at once, polling
 * is the safety net (faster while the stream is down). `?seatPoll=off` leaves the stream alone
 * to update the map (the two-node test proves the stream carries changes). `live` is the stream's
 * state (the map's `data-live`, which the end-to-end tests wait for). `status.data` is in V2's
 * shape, built from `planSeats` (the seat plan's `seats`) and the cached letters; undefined
 * until the plan is there.
 */
export function useLiveSeatStatus(presentationId: number, planSeats: PlanSeats | undefined) {
  const indexes = useMemo(() => (planSeats ? seatIndexes(planSeats) : undefined), [planSeats]);
  const live = useSeatEvents(presentationId, indexes);
  const pollOff =
    typeof window !== 'undefined' &&
    new URLSearchParams(window.location.search).get('seatPoll') === 'off';
  const select = useCallback(
    (c: CompactSeatStatus): SeatsStatusV2Response | undefined =>
      planSeats ? statusFromCompact(planSeats, c) : undefined,
    [planSeats],
  );
  const status = useQuery({
    ...seatsStatusQuery(
      presentationId,
      pollOff ? false : live === 'live' ? STATUS_POLL_LIVE_MS : STATUS_POLL_MS,
    ),
    select,
  });
  return { status, live };
}
