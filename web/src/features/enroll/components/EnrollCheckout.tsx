import { useState } from 'react';
import { useMemberCheckoutConfig } from '../../../components/checkout/useMemberCheckoutConfig';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PrepaidCheckout } from '../../../components/checkout/PrepaidCheckout';
import { Loading } from '../../../components/ui/Loading';
import {
  enrollKeys,
  postEnrollmentCart,
  type EnrollSeason,
  type EnrollmentCartResponse,
} from '../../../lib/api/enroll';
import { clockOf, stamp, type Clock } from '../../../lib/countdownClock';
import { formatMoney } from '../../../lib/format';
import { gatewayFormUrl } from '../../../lib/gatewayPayment';
import { cartSeats, type EnrollState } from '../model/flow';
import { asShownError, enrollErrorWords } from '../refusal';
import { PresentationName } from '../../../components/ui/PresentationName';

/**
 * The enrolment's details and payment, as every order paid on the gateway's page: the cart
 * priced by the server on arrival (the season's prices, the pass's part, the service charge; a
 * refusal such as a pass with too little left is said here, before any typing), the details form
 * with the ID number (the tickets are the member's), POST /cart again with them, then the
 * gateway's page for the ticket order of the first presentation, which comes back to the
 * enrolment's page to commit.
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
  const locale = lang === 'he' ? 'he' : 'en';
  const langParam = useSearchParams()[0].get('lang');
  const { site, config } = useMemberCheckoutConfig();
  const seats = cartSeats(state);
  const enrollment = {
    membershipId: season.MembershipId,
    seasonId: season.SeasonId,
    memberNumber,
  };
  const pricing = useQuery({
    queryKey: [...enrollKeys.cart(season.MembershipId), memberNumber, seats] as const,
    queryFn: async () => {
      const answer = await postEnrollmentCart(enrollment, seats, null, locale);
      onClock(clockOf(stamp(answer)));
      return answer;
    },
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  // The cart as the details priced it last (the server decides; the same seats, so the same sum).
  const [priced, setPriced] = useState<EnrollmentCartResponse | null>(null);
  if (!config || !site || pricing.isPending) return <Loading />;
  if (pricing.isError) {
    return (
      <section className="enroll-step" aria-labelledby="enroll-refused">
        <h2 id="enroll-refused" className="gift-checkout__heading">
          {t('enroll.details.title')}
        </h2>
        <p role="alert">{enrollErrorWords(t, pricing.error)}</p>
        <p>
          <button type="button" className="button button--ghost" onClick={onBack}>
            {t('enroll.previous')}
          </button>
        </p>
      </section>
    );
  }
  const cart = (priced ?? pricing.data).cart;
  const money = (agorot: number) => formatMoney(agorot, lang, cart.currency);
  const first = seats[0]?.presentationId;
  const summary = (
    <>
      <ul className="enroll-summary">
        {cart.tickets.map((ticket) => {
          const p = season.Presentations.find((x) => x.PresentationId === ticket.presentationId);
          return (
            p && (
              <li key={ticket.presentationId}>
                <PresentationName p={p} lang={lang} /> ·{' '}
                {t('enroll.seats.seat', { row: ticket.rowName, seat: ticket.seatName })} ·{' '}
                {money(ticket.price + ticket.serviceCharge)}
              </li>
            )
          );
        })}
      </ul>
      {cart.memberBalanceTotal > 0 && (
        <p className="gift-checkout__hint">
          {t('enroll.details.fromPass', { amount: money(cart.memberBalanceTotal) })}
        </p>
      )}
    </>
  );
  return (
    <PrepaidCheckout
      config={config}
      total={cart.total}
      currency={cart.currency}
      summary={summary}
      onBack={onBack}
      hint={t('enroll.details.idNeeded')}
      onDetails={async (info) => {
        try {
          const answer = await postEnrollmentCart(enrollment, seats, info, locale);
          setPriced(answer);
          onClock(clockOf(stamp(answer)));
        } catch (e) {
          throw asShownError(t, e);
        }
      }}
      onPay={({ method, numberOfPayments }) =>
        gatewayFormUrl(site, lang, {
          presentationId: first,
          total: cart.total,
          method,
          numberOfPayments,
          returnPath: `/enroll/${season.MembershipId}?first=${first}`,
          langParam,
        })
      }
    />
  );
}
