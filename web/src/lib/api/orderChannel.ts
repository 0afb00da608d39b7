// The order's channel (decision 0050): an order started from a mini-site's page
// (`/order/{id}?miniSiteUrl=…`) carries `miniSiteUrl` in every call of the order (presentation,
// ticket groups, ticket by code, seat status, best available, cart, commit), kept per
// presentation in sessionStorage so a reload or the payment's return keeps it.

const storageKey = (presentationId: number) => `kupa.miniSite.${presentationId}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** The order of `presentationId` is now through `url` (or the web shop's, with null). */
export function rememberMiniSite(presentationId: number, url: string | null): void {
  try {
    if (url) storage()?.setItem(storageKey(presentationId), url);
    else storage()?.removeItem(storageKey(presentationId));
  } catch {
    // Full or switched off: the order is the web shop's, nothing breaks.
  }
}

/** The mini-site the order of `presentationId` is through, if any. */
export function miniSiteOf(presentationId: number): string | undefined {
  return storage()?.getItem(storageKey(presentationId)) || undefined;
}

/** `{ miniSiteUrl }` for the calls of the order of `presentationId` (empty for the web shop). */
export function channelOf(presentationId: number): { miniSiteUrl?: string } {
  const miniSiteUrl = miniSiteOf(presentationId);
  return miniSiteUrl ? { miniSiteUrl } : {};
}
