import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LangLink } from '../../../components/ui/LangLink';
import type { Feature } from '../../../lib/api/types';
import { localizedName, placeName } from '../../../lib/localized';
import type { FeatureShowtimes } from '../schedule';
import { Poster } from './Poster';
import { ShowtimeAction } from './ShowtimeAction';

/** One feature of the day: poster, name, facts, and its showtimes grouped by complex. */
export function FeatureCard({
  group,
  feature,
  eager = false,
}: {
  group: FeatureShowtimes;
  feature?: Feature;
  /** Among the first cards of the page: its poster loads at once. */
  eager?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const p = group.sample;
  const nameId = `feature-${group.featureId}-name`;
  const name = localizedName(lang, p.featureName, p.featureNameEn);
  const category = localizedName(lang, p.featureCategoryName, p.featureCategoryNameEn);
  const runtime = feature?.runtime ?? p.runtime;
  const classification = localizedName(
    lang,
    feature?.classification ?? p.classification,
    feature?.classificationEn ?? p.classificationEn,
  );
  // Feature details come from a second call; the card shows without them.
  const synopsis = feature ? localizedName(lang, feature.synopsis, feature.synopsisEn) : '';
  const facts: { key: string; node: ReactNode }[] = [];
  if (category) facts.push({ key: 'category', node: category });
  if (runtime) facts.push({ key: 'runtime', node: t('whatsOn.minutes', { count: runtime }) });
  // "16+" is a left-to-right token: isolated, a Hebrew line does not turn it into "+16".
  if (classification) {
    facts.push({ key: 'classification', node: <bdi dir="ltr">{classification}</bdi> });
  }

  return (
    <article className="feature-card" aria-labelledby={nameId}>
      <Poster presentation={p} className="feature-card__poster" eager={eager} />
      <div className="feature-card__head">
        <h2 id={nameId} className="feature-card__name">
          {/* The film's own page: its facts in full and every screening. */}
          <LangLink to={`/movie/${group.featureId}`} className="feature-card__name-link">
            {name}
          </LangLink>
        </h2>
        {facts.length > 0 && (
          <ul className="feature-card__facts">
            {facts.map((fact) => (
              <li key={fact.key}>{fact.node}</li>
            ))}
          </ul>
        )}
        {synopsis && <p className="feature-card__synopsis">{synopsis}</p>}
      </div>
      <div className="feature-card__times">
        {group.complexes.map((complex) => {
          const first = complex.presentations[0];
          const complexName = placeName(lang, first);
          const headingId = `feature-${group.featureId}-complex-${complex.locationId}`;
          return (
            <section
              key={complex.locationId}
              className="feature-card__complex"
              aria-labelledby={headingId}
            >
              <h3 id={headingId} className="feature-card__complex-name">
                {complexName}
              </h3>
              <ul className="showtimes">
                {complex.presentations.map((presentation) => (
                  <li key={presentation.id}>
                    <ShowtimeAction presentation={presentation} variant="chip" />
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </article>
  );
}
