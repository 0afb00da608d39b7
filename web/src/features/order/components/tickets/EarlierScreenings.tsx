import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../../../../components/ui/DateTime';
import { localizedName } from '../../../../lib/localized';
import { dropScreening, screeningsBesides } from '../../model/earlierScreenings';

/**
 * The screenings already in this cart ("add a screening"): each with its number of seats, and a
 * button to take it out of the cart (its seats are released when their hold runs out).
 */
export function EarlierScreenings({
  currentId,
  disabled,
}: {
  currentId: number;
  disabled: boolean;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const [screenings, setScreenings] = useState(() => screeningsBesides(currentId));
  if (screenings.length === 0) return null;
  return (
    <section className="tickets-step__earlier" aria-labelledby="earlier-screenings-title">
      <h3 id="earlier-screenings-title">{t('orderLines.alsoInOrder')}</h3>
      <ul>
        {screenings.map((s) => {
          const name = localizedName(lang, s.featureName, s.featureNameEn);
          return (
            <li key={s.presentationId}>
              <span>
                {name} · <DateTime iso={s.dateTime} lang={lang} /> ·{' '}
                {t('orderLines.seats', { count: s.part.seats.length })}
              </span>{' '}
              <button
                type="button"
                className="button button--ghost"
                disabled={disabled}
                aria-label={t('orderLines.remove', { name })}
                onClick={() => {
                  dropScreening(s.presentationId);
                  setScreenings(screeningsBesides(currentId));
                }}
              >
                {t('orderLines.removeShort')}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
