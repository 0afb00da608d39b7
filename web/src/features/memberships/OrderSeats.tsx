import { useTranslation } from 'react-i18next';
import { LangLink } from '../../components/ui/LangLink';
import type { MembershipOrderSeat } from '../../lib/api/memberships';
import { localizedName } from '../../lib/localized';
import { ScreeningLine } from './ScreeningLine';

/**
 * The seats a seated membership's order holds (its priced cart) or sold (the paid order): each
 * screening with the seat in it, and once paid its digital ticket.
 */
export function OrderSeats({
  seats,
  title,
  level = 3,
  tickets = false,
}: {
  seats: readonly MembershipOrderSeat[];
  title?: string;
  /** Paid: each seat links its digital ticket (the e-document the door scans). */
  tickets?: boolean;
  /** The heading's level where the list stands (the paid order's page: a section of its own). */
  level?: 2 | 3;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  return (
    <section className="membership-order-seats" aria-labelledby="membership-order-seats">
      <Heading id="membership-order-seats" className="membership-order-seats__title">
        {title ?? t('membershipSeats.summaryTitle')}
      </Heading>
      <ul className="membership-screenings">
        {seats.map((s) => (
          <ScreeningLine
            key={s.presentationId}
            lang={lang}
            film={localizedName(lang, s.featureName, s.featureNameEn)}
            dateTime={s.dateTime}
            hall={localizedName(lang, s.venueName, s.venueNameEn)}
            seat={t('membershipSeats.summarySeat', {
              section: localizedName(lang, s.sectionName, s.sectionNameEn),
              row: s.rowName,
              seat: s.seatName,
            })}
            after={
              tickets && s.documentKey ? (
                <LangLink
                  className="membership-screenings__ticket"
                  to={`/edocument/${s.documentKey}`}
                >
                  {t('customerArea.tickets.edocument')}
                </LangLink>
              ) : undefined
            }
          />
        ))}
      </ul>
    </section>
  );
}
