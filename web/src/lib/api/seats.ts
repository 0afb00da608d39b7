// A presentation's seat plan and the live state of its seats: the queries (and the one place that
// owns their keys) and the hook that keeps the state live through the seat event stream, with
// polling as the safety net. Shared by the order's seat step and the seat-change screen.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, apiSend } from './client';
import type { Captcha } from '../captcha';
import type { SeatplanV2Response, SeatsStatusV2Response } from './types';
import { useSeatEvents } from './seatEvents';
import { channelOf } from './orderChannel';

/** How often the map asks again while the live event stream is down. */
export const STATUS_POLL_MS = 5000;
/** How often it asks while events arrive: a safety net only. */
export const STATUS_POLL_LIVE_MS = 30_000;

export const seatMapKeys = {
  plan: (venueId: number, seatplanId: number) => ['seatplan', venueId, seatplanId] as const,
  status: (presentationId: number) => ['seatsStatus', presentationId] as const,
};

export function seatplanQuery(venueId: number, seatplanId: number, captcha: Captcha) {
  return queryOptions({
    queryKey: seatMapKeys.plan(venueId, seatplanId),
    queryFn: async ({ signal }) =>
      apiSend<SeatplanV2Response>(
        'POST',
        '/seats/seatplanV2',
        { recaptchaToken: await captcha('seatplan') },
        { venueId, seatplanId },
        signal,
      ),
    staleTime: Infinity,
  });
}

export function seatsStatusQuery(presentationId: number, pollMs: number | false = STATUS_POLL_MS) {
  return queryOptions({
    queryKey: seatMapKeys.status(presentationId),
    queryFn: ({ signal }) =>
      apiGet<SeatsStatusV2Response>(
        '/seats/seats-statusV2',
        { presentationId, ...channelOf(presentationId) },
        signal,
      ),
    refetchInterval: pollMs,
    staleTime: 0,
  });
}

/**
 * The seat status of a presentation, live: the event stream applies changes at once, polling
 * is the safety net (faster while the stream is down). `?seatPoll=off` leaves the stream alone
 * to update the map (the two-node test proves the stream carries changes). `live` is the stream's
 * state (the map's `data-live`, which the end-to-end tests wait for).
 */
export function useLiveSeatStatus(presentationId: number) {
  const live = useSeatEvents(presentationId);
  const pollOff =
    typeof window !== 'undefined' &&
    new URLSearchParams(window.location.search).get('seatPoll') === 'off';
  const status = useQuery(
    seatsStatusQuery(
      presentationId,
      pollOff ? false : live === 'live' ? STATUS_POLL_LIVE_MS : STATUS_POLL_MS,
    ),
  );
  return { status, live };
}
