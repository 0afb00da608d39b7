// The idle time (spec section 9: 300,000 ms). A buyer who has not touched the page for five
// minutes has left it: what it shows may be stale (seats sold, screenings started), and errors
// of a page nobody looks at (its polling, say) are not the buyer's. Decision 0055.

export const IDLE_TIME_MS = 300_000;

const ACTIVITY = ['pointerdown', 'keydown', 'scroll', 'touchstart', 'visibilitychange'] as const;

export interface IdleWatch {
  /** True when nothing happened for IDLE_TIME_MS. */
  isIdle(): boolean;
  stop(): void;
}

/**
 * Watches the buyer's activity; `onReturn` runs when someone acts on the page again after being
 * idle (the app then reads its data afresh).
 */
export function watchIdle(
  onReturn: () => void,
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
  now: () => number = Date.now,
  idleMs: number = IDLE_TIME_MS,
): IdleWatch {
  let last = now();
  const act = () => {
    const t = now();
    if (t - last >= idleMs) onReturn();
    last = t;
  };
  for (const e of ACTIVITY) target.addEventListener(e, act, { passive: true });
  return {
    isIdle: () => now() - last >= idleMs,
    stop: () => {
      for (const e of ACTIVITY) target.removeEventListener(e, act);
    },
  };
}
