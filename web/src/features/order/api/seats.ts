// The seat step's calls and the one place that owns their query keys.
import { queryOptions } from '@tanstack/react-query';
import { apiGet, apiSend } from '../../../lib/api/client';
import type { Captcha } from '../../../lib/captcha';
import { stamp } from '../model/countdownClock';
import type {
  BestAvailableResponse,
  CheckoutResponse,
  LockBody,
  LockResponse,
  MyHoldsResponse,
  SeatRef,
  SeatplanV2Response,
  SeatsStatusV2Response,
  UnlockResponse,
} from '../../../lib/api/types';

/** How often the map asks again while the live event stream is down. */
export const STATUS_POLL_MS = 5000;
/** How often it asks while events arrive: a safety net only. */
export const STATUS_POLL_LIVE_MS = 30_000;

export { stamp, type Timed } from '../model/countdownClock';

export const seatKeys = {
  plan: (venueId: number, seatplanId: number) => ['seatplan', venueId, seatplanId] as const,
  status: (presentationId: number) => ['seatsStatus', presentationId] as const,
  holds: (presentationId: number) => ['myHolds', presentationId] as const,
};

export function seatplanQuery(venueId: number, seatplanId: number, captcha: Captcha) {
  return queryOptions({
    queryKey: seatKeys.plan(venueId, seatplanId),
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
    queryKey: seatKeys.status(presentationId),
    queryFn: ({ signal }) =>
      apiGet<SeatsStatusV2Response>('/seats/seats-statusV2', { presentationId }, signal),
    refetchInterval: pollMs,
    staleTime: 0,
  });
}

export function myHoldsQuery(presentationId: number) {
  return queryOptions({
    queryKey: seatKeys.holds(presentationId),
    queryFn: async ({ signal }) =>
      stamp(await apiGet<MyHoldsResponse>('/seats/my-holds', { presentationId }, signal)),
    staleTime: 0,
  });
}

export function lockSeat(
  seat: SeatRef,
  recaptchaToken: string,
  confirm: Pick<LockBody, 'confirmWheelchair' | 'confirmLimitedView'> = {},
): Promise<LockResponse> {
  return apiSend<LockResponse>('PUT', '/seats/lock-seat', { recaptchaToken, seat, ...confirm });
}

export function unlockSeat(seat: SeatRef, recaptchaToken: string): Promise<UnlockResponse> {
  return apiSend<UnlockResponse>('PUT', '/seats/unlock-seat', { recaptchaToken, seat });
}

export function bestAvailable(
  presentationId: number,
  quantity: number,
  recaptchaToken: string,
): Promise<BestAvailableResponse> {
  return apiGet<BestAvailableResponse>('/seats/best-available', {
    presentationId,
    quantity,
    maxMatches: 5,
    resultsPerMatch: 1,
    isBestPerPresentation: 1,
    isLock: 1,
    recaptchaToken,
  });
}

export function extendHold(presentationId: number): Promise<CheckoutResponse> {
  return apiSend<CheckoutResponse>('POST', '/seats/extend', { presentationId });
}
