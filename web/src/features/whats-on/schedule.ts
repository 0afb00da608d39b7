// Shaping one day's presentations for the two views.
import type { Presentation } from '../../lib/api/types';

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

export const SCHEDULE_DAYS = 14;
