// Shaping one day's presentations for the two views.
import type { Presentation } from '../../lib/api/types';
import { addDays } from '../../lib/format';

export interface ComplexShowtimes {
  locationId: number;
  presentations: Presentation[];
}

export interface FeatureShowtimes {
  featureId: number;
  /** A presentation of this feature, for its names and facts. */
  sample: Presentation;
  complexes: ComplexShowtimes[];
}

function byTime(a: Presentation, b: Presentation): number {
  return Date.parse(a.dateTime) - Date.parse(b.dateTime) || a.id - b.id;
}

/** Chronological order, for the by-presentation view. */
export function chronological(presentations: readonly Presentation[]): Presentation[] {
  return [...presentations].sort(byTime);
}

/** Features in order of their first showtime; inside each, showtimes grouped by complex. */
export function groupByFeature(presentations: readonly Presentation[]): FeatureShowtimes[] {
  const features = new Map<number, FeatureShowtimes>();
  for (const p of chronological(presentations)) {
    let feature = features.get(p.featureId);
    if (!feature) {
      feature = { featureId: p.featureId, sample: p, complexes: [] };
      features.set(p.featureId, feature);
    }
    let complex = feature.complexes.find((c) => c.locationId === p.locationId);
    if (!complex) {
      complex = { locationId: p.locationId, presentations: [] };
      feature.complexes.push(complex);
    }
    complex.presentations.push(p);
  }
  return [...features.values()];
}

/** The date strip offers at least a fortnight, and more when screenings are on sale further on. */
export const SCHEDULE_DAYS = 14;

/** Today and every following day up to the last day with a screening on sale (`saleDates`). */
export function stripDays(today: string, saleDates: readonly string[]): string[] {
  const last = saleDates.reduce((max, d) => (d > max ? d : max), addDays(today, SCHEDULE_DAYS - 1));
  const days: string[] = [];
  for (let day = today; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}
