import { useTranslation } from 'react-i18next';
import type { Presentation } from '../../../lib/api/types';
import { formatTime } from '../../../lib/format';
import { localizedName, placeName } from '../../../lib/localized';
import { Poster } from './Poster';
import { ShowtimeAction } from './ShowtimeAction';

/** The day's presentations in time order, one row each. */
export function PresentationList({ presentations }: { presentations: readonly Presentation[] }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <ol className="schedule">
      {presentations.map((p, index) => {
        const nameId = `presentation-${p.id}-name`;
        return (
          <li key={p.id} className="schedule__row" aria-labelledby={nameId}>
            {p.isVod ? (
              // Video on demand has a window of availability, not a showtime.
              <span className="schedule__time schedule__time--vod">{t('whatsOn.vodBadge')}</span>
            ) : (
              <time className="schedule__time" dateTime={p.dateTime}>
                {formatTime(p.dateTime, lang)}
              </time>
            )}
            <Poster presentation={p} className="schedule__poster" eager={index < 2} />
            <div className="schedule__info">
              <h2 id={nameId} className="schedule__name">
                {localizedName(lang, p.featureName, p.featureNameEn)}
              </h2>
              <p className="schedule__place">
                {p.isVod ? (
                  placeName(lang, p)
                ) : (
                  <>
                    {placeName(lang, p)}
                    <span aria-hidden="true"> · </span>
                    {localizedName(lang, p.venueName, p.venueNameEn)}
                  </>
                )}
              </p>
            </div>
            <div className="schedule__action">
              <ShowtimeAction presentation={p} variant="button" />
            </div>
          </li>
        );
      })}
    </ol>
  );
}
