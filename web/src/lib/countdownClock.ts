/** When the holds end, on the server's clock, and when (on the browser's) the server said so. */
export interface Clock {
  expiresAt: string;
  serverTime: string;
  receivedAt: number;
}

/** An answer with a server clock, stamped with when it arrived (for countdowns). */
export type Timed<T> = T & { receivedAt: number };

export function stamp<T extends { serverTime: string }>(answer: T): Timed<T> {
  return { ...answer, receivedAt: Date.now() };
}

/** When an answer says the holds end, if it does. */
export function clockOf(
  answer: Timed<{ expiresAt?: string | null; serverTime: string }>,
): Clock | null {
  return answer.expiresAt
    ? { expiresAt: answer.expiresAt, serverTime: answer.serverTime, receivedAt: answer.receivedAt }
    : null;
}

/**
 * When the first of several holds is let go, on the server's clock (a member seat is held in each
 * screening of a season, each with its own end); null with none held.
 */
export function earliestClock(
  answer: Timed<{ selections: readonly { expiresAt: string }[]; serverTime: string }>,
): Clock | null {
  const ends = answer.selections.map((s) => s.expiresAt).sort();
  return ends.length > 0
    ? { expiresAt: ends[0], serverTime: answer.serverTime, receivedAt: answer.receivedAt }
    : null;
}

/**
 * Milliseconds left until `expiresAt` on the server's clock: the browser clock is only used to
 * measure how long ago the server said `serverTime`.
 */
export function remainingMs(
  expiresAt: string,
  serverTime: string,
  receivedAt: number,
  now: number,
): number {
  const serverNow = Date.parse(serverTime) + (now - receivedAt);
  return Math.max(0, Date.parse(expiresAt) - serverNow);
}

export function formatClock(ms: number): string {
  const total = Math.ceil(ms / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
