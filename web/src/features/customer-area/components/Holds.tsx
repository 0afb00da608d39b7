import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { HoldCard } from '../../../components/holds/HoldCard';
import { holdsQuery } from '../../../lib/api/holds';

/**
 * The customer's unpaid holds ("reserve and pay later"), first in the area while any is open or
 * lately settled: each with its deadline and "Pay now". Nothing at all when there are none.
 */
export function HoldsSection() {
  const { t } = useTranslation();
  const query = useQuery(holdsQuery);
  const holds = (query.data?.holds ?? []).filter(
    // A paid or released hold stays listed until its event, so the customer sees what became of it.
    (h) => h.state === 'open' || Date.parse(h.eventDateTime) > Date.parse(h.serverTime),
  );
  if (holds.length === 0) return null;
  return (
    <section className="area__section" id="area-holds" aria-labelledby="area-holds-title">
      <h2 id="area-holds-title" className="area__heading">
        {t('holds.areaTitle')}
      </h2>
      <ul className="area__cards">
        {holds.map((h) => (
          <li key={h.reservationIdentifier}>
            <HoldCard hold={h} returnTo="/customer-area" />
          </li>
        ))}
      </ul>
    </section>
  );
}
