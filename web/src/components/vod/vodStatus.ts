// The three statuses of a video-on-demand item (spec 3).
const VOD_STATUSES = ['available', 'future', 'expired'] as const;
export type VodStatus = (typeof VOD_STATUSES)[number];

/** The server's status word, as one of the three the spec names (unknown reads as expired). */
export function vodStatus(s: string): VodStatus {
  return (VOD_STATUSES as readonly string[]).includes(s) ? (s as VodStatus) : 'expired';
}
