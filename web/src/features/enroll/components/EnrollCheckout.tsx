import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PrepaidCheckout } from '../../../components/checkout/PrepaidCheckout';
import type { CheckoutConfig } from '../../../components/checkout/customerInfo';
import { Loading } from '../../../components/ui/Loading';
import { postEnrollmentCart, type EnrollSeason } from '../../../lib/api/enroll';
import type { SiteConfig } from '../../../lib/api/types';
import { useConfig } from '../../../lib/config';
import { clockOf, stamp, type Clock } from '../../../lib/countdownClock';
import { formatMoney } from '../../../lib/format';
import { gatewayFormUrl } from '../../../lib/gatewayPayment';
import { cartSeats, priceOf, type EnrollState } from '../model/flow';
import { asShownError } from '../refusal';
import { PresentationName } from './PresentationName';

/**
 * The enrolment's details and payment, as every order paid on the gateway's page: the details
 * form with the ID number (the tickets are the member's), POST /cart with `enrollment` and the
 * member's seat in each chosen presentation, then the gateway's page for the ticket order of the
 * first presentation, which comes back to the enrolment's page to commit.
 */
export function EnrollCheckout({
  season,
  memberNumber,
  state,
  onBack,
  onClock,
}: {
  season: EnrollSeason;
  memberNumber: string;
  state: EnrollState;
  onBack: () => void;
  /** The priced cart's hold: the details step has its own time. */
  onClock: (clock: Clock | null) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const langParam = useSearchParams()[0].get('lang');
  const site = useConfig().raw as SiteConfig | null;
  const config = useMemo<CheckoutConfig | null>(
    () =>
      site && {
        ...site,
        customerInfo: { ...site.customerInfo, ssn: { isRequired: true, isIncluded: true } },
      },
    [site],
  );
  const seats = cartSeats(state);
  const price = state.ticket ? priceOf(season, state.ticket, state.chosen) : null;
  // The server's total once it priced the cart (it decides), the season's prices until then.
  const [priced, setPriced] = useState<number | null>(null);
  if (!config || !site || !price) return <Loading />;
  const total = priced ?? price.money;
  const money = (agorot: number) => formatMoney(agorot, lang);
  const first = seats[0]?.presentationId;
  const summary = (
    <>
      <ul className="enroll-summary">
        {seats.map((s) => {
          const p = season.Presentations.find((x) => x.PresentationId === s.presentationId);
          const held = state.selections[s.presentationId];
          return (
            p && (
              <li key={s.presentationId}>
                <PresentationName p={p} lang={lang} /> ·{' '}
                {t('enroll.seats.seat', { row: held?.rowName, seat: held?.seatName })}
              </li>
            )
          );
        })}
      </ul>
      {price.fromPass > 0 && (
        <p className="gift-checkout__hint">
          {t('enroll.details.fromPass', { amount: money(price.fromPass) })}
        </p>
      )}
    </>
  );
  return (
    <PrepaidCheckout
      config={config}
      total={total}
      summary={summary}
      onBack={onBack}
      hint={t('enroll.details.idNeeded')}
      onDetails={async (info) => {
        try {
          const answer = await postEnrollmentCart(
            { membershipId: season.MembershipId, seasonId: season.SeasonId, memberNumber },
            seats,
            info,
            lang === 'he' ? 'he' : 'en',
          );
          setPriced(answer.cart.total);
          onClock(clockOf(stamp(answer)));
        } catch (e) {
          throw asShownError(t, e);
        }
      }}
      onPay={({ method, numberOfPayments }) =>
        gatewayFormUrl(site, lang, {
          presentationId: first,
          total,
          method,
          numberOfPayments,
          returnPath: `/enroll/${season.MembershipId}?first=${first}`,
          langParam,
        })
      }
    />
  );
}
