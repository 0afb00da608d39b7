import { useEffect, useState } from 'react';
import { remainingMs } from './countdownClock';

/** Milliseconds left on the clock, ticking each second; null when there is no clock. */
export function useRemaining(
  expiresAt: string | null | undefined,
  serverTime: string,
  receivedAt: number,
): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!expiresAt) return;
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, [expiresAt]);
  if (!expiresAt) return null;
  return remainingMs(expiresAt, serverTime, receivedAt, Math.max(now, receivedAt));
}
