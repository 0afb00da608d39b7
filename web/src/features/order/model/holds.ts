// The seats this session holds (GET /seats/my-holds), as the lock and unlock answers change them:
// those answers are newer than the last time the holds were asked for.
import type { LockedSeat, MyHoldsResponse } from '../../../lib/api/types';
import { stamp, type Timed } from '../../../lib/countdownClock';
import { seatKey } from '../../../lib/seatAddress';

export type Holds = Timed<MyHoldsResponse>;

const without = (holds: Holds | undefined, seats: readonly LockedSeat[]) =>
  (holds?.seats ?? []).filter((s) => !seats.some((n) => seatKey(n) === seatKey(s)));

/** The holds with `seats` just locked, until the lock answer's `expiresAt`. */
export function withHeld(
  holds: Holds | undefined,
  seats: LockedSeat[],
  expiresAt: string,
  serverTime: string,
): Holds {
  const kept = without(holds, seats);
  return stamp({ seats: [...kept, ...seats], expiresAt, serverTime, step: holds?.step ?? 'seats' });
}

/** The holds without `seats` just released; none left, no timer and no step. */
export function withoutHeld(
  holds: Holds | undefined,
  seats: readonly LockedSeat[],
  serverTime: string,
): Holds {
  const kept = without(holds, seats);
  return stamp({
    seats: kept,
    expiresAt: kept.length > 0 ? holds?.expiresAt : null,
    serverTime,
    step: kept.length > 0 ? holds?.step : null,
  });
}
