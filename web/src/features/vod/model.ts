// The player's pure rules: which browsers are turned away (spec 8), and the play session kept in
// this tab so a reload goes on watching without spending another viewing.

/**
 * iPhone, iPad and Safari cannot play the film (spec 8: "use a current Chrome"). Every browser on
 * an iPhone or iPad is Safari underneath; an iPad asking for the desktop site calls itself a Mac
 * with a touch screen.
 */
export function isUnsupportedBrowser(userAgent: string, maxTouchPoints = 0): boolean {
  if (/iPhone|iPad|iPod/i.test(userAgent)) return true;
  if (/Macintosh/i.test(userAgent) && maxTouchPoints > 1) return true;
  const safari = /Safari\//.test(userAgent) && /Version\//.test(userAgent);
  const other = /Chrome\/|Chromium\/|CriOS|Edg\/|OPR\/|Firefox\/|FxiOS|SamsungBrowser|Android/.test(
    userAgent,
  );
  return safari && !other;
}

export interface KeptSession {
  streamUrl: string;
  expiresAt: string;
}

const key = (reservationId: string) => `kupa.vod.${reservationId}`;

/** The tab's play session for this purchase, while its link is still good. */
export function keptSession(
  storage: Pick<Storage, 'getItem'> | undefined,
  reservationId: string,
  now: number,
): KeptSession | null {
  try {
    const raw = storage?.getItem(key(reservationId));
    if (!raw) return null;
    const s = JSON.parse(raw) as Partial<KeptSession>;
    if (typeof s.streamUrl !== 'string' || typeof s.expiresAt !== 'string') return null;
    // A minute's margin: a link about to end is not worth starting on.
    if (Date.parse(s.expiresAt) - 60_000 <= now) return null;
    if (!s.streamUrl.startsWith('/api/vod/')) return null;
    return { streamUrl: s.streamUrl, expiresAt: s.expiresAt };
  } catch {
    return null;
  }
}

export function keepSession(
  storage: Pick<Storage, 'setItem'> | undefined,
  reservationId: string,
  session: KeptSession,
): void {
  try {
    storage?.setItem(key(reservationId), JSON.stringify(session));
  } catch {
    // Private mode without storage: a reload asks for a new session.
  }
}
