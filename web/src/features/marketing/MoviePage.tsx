import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { LangLink } from '../../components/ui/LangLink';
import { Loading } from '../../components/ui/Loading';
import { featurePosterUrl } from '../../lib/api/client';
import { errorMessage } from '../../lib/apiErrors';
import { useDocumentTitle } from '../../lib/documentTitle';
import { formatLongDate, formatTime } from '../../lib/format';
import { localizedName } from '../../lib/localized';
import { useFeature, useUpcoming } from './api';
import { bookable, byComplex, byDay } from './model/schedule';
import './marketing.css';

/** Days of screenings shown before "more days". */
const FIRST_DAYS = 4;

/** The movie page: the feature's facts in the page's language, and its screenings by day. */
export default function MoviePage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const featureId = Number(useParams().featureId);
  const feature = useFeature(featureId);
  const upcoming = useUpcoming(featureId);
  const [allDays, setAllDays] = useState(false);
  const f = feature.data;
  useDocumentTitle(f ? localizedName(lang, f.name, f.nameEn) : t('marketing.movie.title'));

  if (feature.isPending) return <Loading block />;
  if (feature.isError) return <p role="alert">{errorMessage(t, feature.error)}</p>;
  if (!f) {
    return (
      <article className="mk-page">
        <h1 className="page-title">{t('marketing.movie.notFound')}</h1>
        <LangLink to="/search" className="mk-link">
          {t('marketing.search.title')}
        </LangLink>
      </article>
    );
  }
  const word = (he: string, en: string) => localizedName(lang, he, en) || t('marketing.movie.none');
  const facts: [string, string][] = [
    [t('marketing.movie.originalLanguage'), word(f.originalLanguage, f.originalLanguageEn)],
    [t('marketing.movie.dubbing'), word(f.dubbing, f.dubbingEn)],
    [t('marketing.movie.subtitles'), word(f.subtitles, f.subtitlesEn)],
    [
      t('marketing.movie.releaseDate'),
      /^\d{4}-\d{2}-\d{2}$/.test(f.releaseDate)
        ? formatLongDate(f.releaseDate, lang)
        : f.releaseDate,
    ],
    [t('marketing.movie.runtime'), t('marketing.movie.minutes', { count: f.runtime })],
    [t('marketing.movie.classification'), word(f.classification, f.classificationEn)],
  ];
  const days = byDay(bookable(upcoming.data?.presentations ?? []));
  const name = localizedName(lang, f.name, f.nameEn);
  return (
    <article className="mk-page mk-movie" aria-labelledby="mk-title">
      <div className="mk-movie__head">
        <img
          className="mk-movie__poster"
          src={featurePosterUrl({ featureId: f.id, featureImageUrl: f.imageUrl }, lang)}
          srcSet={f.imageSrcset ?? undefined}
          sizes={f.imageSrcset ? '200px' : undefined}
          alt=""
          width={200}
          height={300}
        />
        <div>
          <h1 id="mk-title" className="page-title">
            {name}
          </h1>
          {lang === 'he' && f.nameEn && (
            <p className="mk-movie__alt">
              <bdi lang="en">{f.nameEn}</bdi>
            </p>
          )}
          <p>{localizedName(lang, f.synopsis, f.synopsisEn)}</p>
          {f.trailerUrl && (
            <p>
              <a className="mk-link" href={f.trailerUrl} target="_blank" rel="noopener noreferrer">
                {t('marketing.movie.trailer')}
              </a>
            </p>
          )}
          <dl className="mk-facts">
            {facts.map(([k, v]) => (
              <div key={k} className="mk-facts__row">
                <dt>{k}</dt>
                <dd>
                  <bdi>{v}</bdi>
                </dd>
              </div>
            ))}
          </dl>
        </div>
      </div>
      <section aria-labelledby="mk-screenings">
        <h2 id="mk-screenings">{t('marketing.movie.screenings')}</h2>
        {upcoming.isPending ? (
          <Loading />
        ) : days.length === 0 ? (
          <p>{t('marketing.movie.noScreenings')}</p>
        ) : (
          (allDays ? days : days.slice(0, FIRST_DAYS)).map((day) => (
            <div key={day.date} className="mk-day">
              <h3>{formatLongDate(day.date, lang)}</h3>
              {byComplex(day.presentations).map((group) => (
                <div key={group[0].locationId} className="mk-day__place">
                  <h4>{localizedName(lang, group[0].locationName, group[0].locationNameEn)}</h4>
                  <ul className="mk-times">
                    {group.map((p) => (
                      <li key={p.id}>
                        <LangLink to={`/order/${p.id}`} className="mk-time">
                          <strong>{formatTime(p.dateTime, lang)}</strong>
                          <span>{localizedName(lang, p.venueName, p.venueNameEn)}</span>
                        </LangLink>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </div>
          ))
        )}
        {!allDays && days.length > FIRST_DAYS && (
          <button type="button" className="button button--ghost" onClick={() => setAllDays(true)}>
            {t('marketing.movie.moreDays', { count: days.length - FIRST_DAYS })}
          </button>
        )}
      </section>
    </article>
  );
}
