// Pure helpers of the programme grid: which cell a screening sits in, and the week's days.
import { addDays, cinemaDate, formatTime } from '../../../lib/format';
import type { Screening } from './api';

/** The seven calendar days of the week from `from`. */
export function weekDays(from: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(from, i));
}

/** Screenings by hall and local day (Asia/Jerusalem), each cell in start order. */
export function cells(screenings: readonly Screening[]): Map<string, Screening[]> {
  const out = new Map<string, Screening[]>();
  for (const s of [...screenings].sort((a, b) => a.startsAt.localeCompare(b.startsAt))) {
    const key = cellKey(s.venueId, cinemaDate(s.startsAt));
    out.set(key, [...(out.get(key) ?? []), s]);
  }
  return out;
}

export function cellKey(venueId: number, day: string): string {
  return `${venueId}:${day}`;
}

/** "19:30–21:38" in Asia/Jerusalem. */
export function timeRange(s: Screening, lang: string): string {
  return `${formatTime(s.startsAt, lang)}–${formatTime(s.endsAt, lang)}`;
}

/** The local HH:MM of an instant, as a time input wants it. */
export function localTime(iso: string): string {
  return formatTime(iso, 'en');
}

/** A datetime-local input's value ("2026-12-03T18:00") as the server's local form, or undefined. */
export function localDateTime(value: string): string | undefined {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? value : undefined;
}
