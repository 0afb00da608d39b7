// A mini-site's programme: its presentations by feature (in order of each feature's first
// screening), each feature's screenings in start order. Pure.
import type { Presentation } from '../../lib/api/types';

export interface FeatureProgramme {
  featureId: number;
  /** A presentation of the feature, for its names and facts. */
  sample: Presentation;
  screenings: Presentation[];
}

export function programme(presentations: readonly Presentation[]): FeatureProgramme[] {
  const sorted = [...presentations].sort(
    (a, b) => Date.parse(a.dateTime) - Date.parse(b.dateTime) || a.id - b.id,
  );
  const byFeature = new Map<number, FeatureProgramme>();
  for (const p of sorted) {
    const entry = byFeature.get(p.featureId);
    if (entry) entry.screenings.push(p);
    else byFeature.set(p.featureId, { featureId: p.featureId, sample: p, screenings: [p] });
  }
  return [...byFeature.values()];
}

/** The page's colours as CSS custom properties (none: the site's own). */
export function lookStyle(
  colors: { primary: string; background: string; text: string } | null | undefined,
): Record<string, string> {
  if (!colors) return {};
  return {
    '--mini-site-primary': colors.primary,
    '--mini-site-background': colors.background,
    '--mini-site-text': colors.text,
  };
}
