// Pure helpers of the staff screens.
import type { components } from '../../lib/api/schema';
import { seatKey } from '../../lib/seatAddress';

export type SeatsStatus = components['schemas']['SeatsStatusV2Response'];
export type SeatChange = { sectionId: number; x: number; y: number; state: string };

/** A YYYY-MM-DD day as the user reads it: weekday and day/month. */
export function formatDay(date: string, lang: string): string {
  return new Intl.DateTimeFormat(lang === 'he' ? 'he-IL' : 'en-GB', {
    weekday: 'short',
    day: 'numeric',
    month: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T00:00:00Z`));
}

/** A YYYY-MM-DD day as a short axis label: day/month. */
export function dayLabel(date: string): string {
  return `${Number(date.slice(8, 10))}/${Number(date.slice(5, 7))}`;
}

export function weekday(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

/** The status with an event's changes applied (held, released, sold, expired). */
export function applyChanges(status: SeatsStatus, changes: readonly SeatChange[]): SeatsStatus {
  const byKey = new Map(changes.map((c) => [seatKey(c), c.state]));
  return {
    ...status,
    seats: status.seats.map((s) => {
      const state = byKey.get(seatKey(s));
      if (state === undefined) return s;
      if (state === 'sold') return { ...s, s: 'sold', isAvailable: false };
      if (state === 'held') return { ...s, s: 'heldByOther', isAvailable: false };
      return s.s === 'sold' ? s : { ...s, s: 'available', isAvailable: true };
    }),
  };
}

/** What one `figures` event of GET /PRES-live/events says changed. */
export interface FiguresChanged {
  dates: string[];
  locations: number[];
  presentationIds: number[];
  all: boolean;
}

/**
 * Whether a staff query shows figures the change touches: the calendar (any day), a day's
 * locations (that day), a location's halls or features (that day and location). The
 * presentation box follows its own seat stream.
 */
export function touches(key: readonly unknown[], change: FiguresChanged): boolean {
  if (key[0] !== 'staff') return false;
  const [, kind, date, location] = key;
  const views = ['days', 'locations', 'drill'];
  if (typeof kind !== 'string' || !views.includes(kind)) return false;
  if (change.all) return true;
  if (kind === 'days') return change.dates.length > 0;
  if (typeof date !== 'string' || !change.dates.includes(date)) return false;
  return kind === 'locations' || change.locations.includes(Number(location));
}
