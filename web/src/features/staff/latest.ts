// The stale-response guard of spec section 4 ("a stale feature-data response is ignored if a
// newer request started"): each request takes a ticket; only the newest ticket's answer counts.

export interface LatestGuard {
  /** Starts a request; keep the ticket to ask later whether its answer still counts. */
  begin(): number;
  /** Whether no newer request began after this one. */
  isLatest(ticket: number): boolean;
}

export function createLatestGuard(): LatestGuard {
  let newest = 0;
  return {
    begin: () => {
      newest += 1;
      return newest;
    },
    isLatest: (ticket) => ticket === newest,
  };
}

/**
 * Runs `load` and hands its answer to `apply` only if no newer call of this runner began in the
 * meantime; an older answer arriving late is dropped. Answers whether it was applied.
 */
export function latestOnly<T>(
  guard: LatestGuard = createLatestGuard(),
): (load: () => Promise<T>, apply: (value: T) => void) => Promise<boolean> {
  return async (load, apply) => {
    const ticket = guard.begin();
    const value = await load();
    if (!guard.isLatest(ticket)) return false;
    apply(value);
    return true;
  };
}
