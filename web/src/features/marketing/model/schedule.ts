// Screenings as the movie page and the quick order read them (pure). Video on demand has no
// date or time to choose; a sale that ended is not shown.
import { cinemaDate } from '../../../lib/format';
import type { Presentation } from '../../../lib/api/types';

/** The screenings a buyer can still pick, in start order. */
export function bookable(presentations: readonly Presentation[]): Presentation[] {
  return presentations
    .filter((p) => !p.isVod && p.saleState !== 'ended')
    .slice()
    .sort((a, b) => a.dateTime.localeCompare(b.dateTime) || a.id - b.id);
}

export interface Day {
  /** YYYY-MM-DD in Asia/Jerusalem. */
  date: string;
  presentations: Presentation[];
}

/** Screenings grouped by local day, days in order. */
export function byDay(presentations: readonly Presentation[]): Day[] {
  const days = new Map<string, Presentation[]>();
  for (const p of presentations) {
    const date = cinemaDate(p.dateTime);
    days.set(date, [...(days.get(date) ?? []), p]);
  }
  return [...days.entries()].map(([date, list]) => ({ date, presentations: list }));
}

/** One day's screenings grouped by complex, complexes in first-screening order. */
export function byComplex(presentations: readonly Presentation[]): Presentation[][] {
  const groups = new Map<number, Presentation[]>();
  for (const p of presentations) groups.set(p.locationId, [...(groups.get(p.locationId) ?? []), p]);
  return [...groups.values()];
}

/** Distinct values in first-seen order. */
function distinct<T, K>(items: readonly T[], key: (t: T) => K): T[] {
  const seen = new Set<K>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export interface QuickOrderPick {
  locationId?: number;
  featureId?: number;
  date?: string;
}

/** What each of the quick order's four steps offers, given what was picked before it. */
export function quickOrderChoices(all: readonly Presentation[], pick: QuickOrderPick) {
  const list = bookable(all);
  const atComplex = list.filter((p) => p.locationId === pick.locationId);
  const ofFeature = atComplex.filter((p) => p.featureId === pick.featureId);
  const onDate = ofFeature.filter((p) => cinemaDate(p.dateTime) === pick.date);
  return {
    complexes: distinct(list, (p) => p.locationId),
    features: pick.locationId === undefined ? [] : distinct(atComplex, (p) => p.featureId),
    dates: pick.featureId === undefined ? [] : byDay(ofFeature).map((d) => d.date),
    times: pick.date === undefined ? [] : onDate,
  };
}
