// The door screen's rules that are not the server's: which answers admit, and when a code the
// camera reads again is the same showing of the same ticket (it reads many frames a second).

import type { DoorResult } from './api';

/** How long the camera ignores the code it just sent: one ticket held up, read once. */
export const SAME_CODE_MS = 4000;

export type Tone = 'ok' | 'warn' | 'stop';

/** Green only for valid; amber for what the holder can put right (wrong door, too early). */
export function toneOf(result: DoorResult): Tone {
  switch (result) {
    case 'valid':
      return 'ok';
    case 'wrongPresentation':
    case 'tooEarly':
      return 'warn';
    default:
      return 'stop';
  }
}

/** How long after a check that failed (the network, the server) the same code is checked again. */
export const RETRY_MS = 1500;

/**
 * A camera reader that passes a code on once per showing: the same code is passed again only
 * after it has been out of sight for `ms` (every read of it moves the window on), so a ticket
 * held in front of the camera is not checked again and again into "already scanned". A check
 * that got no answer is tried again `RETRY_MS` after it failed, though the ticket never left the
 * camera: the usher should not have to take it away and show it again after a blip.
 */
export function onceEach(ms = SAME_CODE_MS) {
  let last: { code: string; at: number } | null = null;
  let retry: { code: string; at: number } | null = null;
  return {
    fresh(code: string, now: number): boolean {
      const again = retry !== null && retry.code === code && now >= retry.at;
      if (again || (retry && retry.code !== code)) retry = null;
      const fresh = again || !last || last.code !== code || now - last.at >= ms;
      last = { code, at: now };
      return fresh;
    },
    /** The check of `code` got no answer at `now`: read again, it is checked again soon. */
    failed(code: string, now: number) {
      retry = { code, at: now + RETRY_MS };
    },
  };
}
