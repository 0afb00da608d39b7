import { useTranslation } from 'react-i18next';
import type { EnrollSelection } from '../../lib/api/enroll';
import type { MembershipSeats } from '../../lib/api/memberships';
import { localizedName } from '../../lib/localized';
import { selectionsBy } from '../../lib/memberSeat';
import { ScreeningLine } from './ScreeningLine';

/**
 * The screenings a seated membership's price includes a seat in; with `selections`, the seat
 * held in each, or that there is none yet.
 */
export function SeasonScreenings({
  seats,
  selections,
  label,
}: {
  seats: MembershipSeats;
  selections?: readonly EnrollSelection[];
  label: string;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const held = selections ? selectionsBy(selections) : null;
  return (
    <ul className="membership-screenings" aria-label={label}>
      {seats.presentations.map((p) => {
        const s = held?.[p.PresentationId];
        return (
          <ScreeningLine
            key={p.PresentationId}
            lang={lang}
            film={localizedName(lang, p.featureName, p.featureNameEn)}
            dateTime={p.dateTime}
            hall={localizedName(lang, p.venueName, p.venueNameEn)}
            seat={
              held
                ? s
                  ? t('membershipSeats.seat', { row: s.rowName, seat: s.seatName })
                  : t('membershipSeats.noSeat')
                : undefined
            }
            missing={held !== null && !s}
          />
        );
      })}
    </ul>
  );
}
