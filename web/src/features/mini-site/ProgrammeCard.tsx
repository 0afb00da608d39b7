import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import { featurePosterUrl } from '../../lib/api/client';
import type { Presentation } from '../../lib/api/types';
import {
  cinemaDate,
  formatDateTime,
  formatDayMonth,
  formatTime,
  formatWeekday,
} from '../../lib/format';
import { localizedName, placeName } from '../../lib/localized';
import type { FeatureProgramme } from './programme';

/** One film of the mini-site: poster, name, facts, and every screening of it with its day. */
export function ProgrammeCard({
  group,
  site,
  eager,
}: {
  group: FeatureProgramme;
  site: string;
  eager: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const p = group.sample;
  const name = localizedName(lang, p.featureName, p.featureNameEn);
  const nameId = `mini-site-feature-${group.featureId}`;
  const classification = localizedName(lang, p.classification, p.classificationEn);
  return (
    <article className="mini-site-film" aria-labelledby={nameId}>
      <img
        className="mini-site-film__poster"
        src={featurePosterUrl(p, lang)}
        alt=""
        width={200}
        height={300}
        loading={eager ? 'eager' : 'lazy'}
      />
      <div className="mini-site-film__body">
        <h3 id={nameId} className="mini-site-film__name">
          {name}
        </h3>
        <p className="mini-site-film__facts">
          {p.runtime ? <span>{t('whatsOn.minutes', { count: p.runtime })}</span> : null}
          {classification ? <bdi dir="ltr">{classification}</bdi> : null}
          <span>{placeName(lang, p)}</span>
        </p>
      </div>
      <ul className="mini-site-film__times">
        {group.screenings.map((s) => (
          <li key={s.id}>
            <Screening presentation={s} feature={name} site={site} />
          </li>
        ))}
      </ul>
    </article>
  );
}

function Screening({
  presentation: s,
  feature,
  site,
}: {
  presentation: Presentation;
  feature: string;
  site: string;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const day = cinemaDate(s.dateTime);
  const when = `${formatWeekday(day, lang)} ${formatDayMonth(day, lang)}`;
  const time = formatTime(s.dateTime, lang);
  const face = (
    <>
      <span className="mini-site-time__day">{when}</span>
      <time className="mini-site-time__time" dateTime={s.dateTime}>
        {time}
      </time>
    </>
  );
  if (!s.isOnSale) {
    const reason =
      s.saleState === 'notYetStarted' && s.saleStartsAt
        ? t('whatsOn.saleOpens', { date: formatDateTime(s.saleStartsAt, lang) })
        : t('whatsOn.notOnSale');
    return (
      <span className="mini-site-time mini-site-time--off" title={reason}>
        {face}
        <span className="visually-hidden">{reason}</span>
      </span>
    );
  }
  return (
    <LangLink
      className="mini-site-time"
      to={`/order/${s.id}?miniSiteUrl=${encodeURIComponent(site)}`}
      aria-label={t('miniSite.buyAt', { feature, date: when, time })}
    >
      {face}
    </LangLink>
  );
}
