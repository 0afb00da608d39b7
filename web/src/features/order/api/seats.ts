// The seat step's calls, the mutations that hold and release seats, and the one place that owns
// their query and mutation keys.
import { useMemo } from 'react';
import { queryOptions, useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { seatMapKeys } from '../../../lib/api/seatKeys';
import { apiGet, apiSend } from '../../../lib/api/client';
import { channelOf } from '../../../lib/api/orderChannel';
import type { Captcha } from '../../../lib/captcha';
import { stamp } from '../../../lib/countdownClock';
import { withHeld, withoutHeld, type Holds } from '../model/holds';
import type {
  BestAvailableResponse,
  CheckoutResponse,
  LockBody,
  LockResponse,
  MyHoldsResponse,
  SeatRef,
  UnlockResponse,
} from '../../../lib/api/types';

export { stamp, type Timed } from '../../../lib/countdownClock';
export { seatplanQuery } from '../../../lib/api/seats';

/** The seat map's keys (owned by the shared seat map), and this order's holds. */
export const seatKeys = {
  ...seatMapKeys,
  holds: (presentationId: number) => ['myHolds', presentationId] as const,
};

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
  // Through a mini-site, its sales switches judge the lock (decision 0070).
  return apiSend<LockResponse>('PUT', '/seats/lock-seat', {
    recaptchaToken,
    seat,
    ...confirm,
    ...channelOf(seat.PresentationId),
  });
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
    ...channelOf(presentationId),
  });
}

export function extendHold(presentationId: number): Promise<CheckoutResponse> {
  return apiSend<CheckoutResponse>('POST', '/seats/extend', { presentationId });
}

// ---------------------------------------------------------------------------------------------
// Mutations: each updates the holds it changed at once, and asks for the map's states again.

/** Locks and unlocks share a key, so the seats on their way either way can be listed. */
export const seatMutationKeys = {
  seat: (presentationId: number) => ['seat', presentationId] as const,
  best: (presentationId: number) => ['bestAvailable', presentationId] as const,
  extend: (presentationId: number) => ['extendHold', presentationId] as const,
};

/** A seat to lock or unlock, and the key the screen marks it busy by while the call runs. */
export interface SeatMove {
  ref: SeatRef;
  key: string;
}

function useHoldsCache(presentationId: number) {
  const queryClient = useQueryClient();
  return {
    update: (change: (old: Holds | undefined) => Holds) =>
      queryClient.setQueryData<Holds>(seatKeys.holds(presentationId), change),
    refreshHolds: () => queryClient.invalidateQueries({ queryKey: seatKeys.holds(presentationId) }),
    refreshStatus: () =>
      queryClient.invalidateQueries({ queryKey: seatKeys.status(presentationId) }),
  };
}

export function useLockSeat(presentationId: number, captcha: Captcha) {
  const holds = useHoldsCache(presentationId);
  return useMutation({
    mutationKey: seatMutationKeys.seat(presentationId),
    mutationFn: async ({
      ref,
      confirm,
    }: SeatMove & { confirm?: Pick<LockBody, 'confirmWheelchair' | 'confirmLimitedView'> }) =>
      lockSeat(ref, await captcha('lockSeat'), confirm),
    onSuccess: (answer) =>
      holds.update((old) => withHeld(old, answer.lockedSeats, answer.expiresAt, answer.serverTime)),
    onSettled: () => holds.refreshStatus(),
  });
}

export function useUnlockSeat(presentationId: number, captcha: Captcha) {
  const holds = useHoldsCache(presentationId);
  return useMutation({
    mutationKey: seatMutationKeys.seat(presentationId),
    mutationFn: async ({ ref }: SeatMove) => unlockSeat(ref, await captcha('unlockSeat')),
    onSuccess: (answer) =>
      holds.update((old) => withoutHeld(old, answer.unlockedSeats, answer.serverTime)),
    onSettled: () => holds.refreshStatus(),
  });
}

/** The keys of the seats being locked or unlocked right now (by any step of this order). */
export function useSeatsOnTheirWay(presentationId: number): ReadonlySet<string> {
  const keys = useMutationState({
    filters: { mutationKey: seatMutationKeys.seat(presentationId), status: 'pending' },
    select: (mutation) => (mutation.state.variables as SeatMove | undefined)?.key ?? '',
  });
  const joined = keys.join('|');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the keys, not the array's identity
  return useMemo(() => new Set(keys), [joined]);
}

/** Best available seats, locked by the server: the holds are asked for again afterwards. */
export function useBestAvailable(presentationId: number, captcha: Captcha) {
  const holds = useHoldsCache(presentationId);
  return useMutation({
    mutationKey: seatMutationKeys.best(presentationId),
    mutationFn: async (quantity: number) =>
      bestAvailable(presentationId, quantity, await captcha('bestAvailable')),
    onSettled: async () => {
      await holds.refreshHolds();
      void holds.refreshStatus();
    },
  });
}

/** More time for the holds (the countdown ran out). */
export function useExtendHold(presentationId: number) {
  const holds = useHoldsCache(presentationId);
  return useMutation({
    mutationKey: seatMutationKeys.extend(presentationId),
    mutationFn: () => extendHold(presentationId),
    onSuccess: (answer) =>
      holds.update((old) =>
        stamp({
          seats: old?.seats ?? [],
          step: answer.step,
          expiresAt: answer.expiresAt,
          serverTime: answer.serverTime,
        }),
      ),
  });
}
