import { useState, type ReactNode } from 'react';
import { useMemberCheckoutConfig } from '../../components/checkout/useMemberCheckoutConfig';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PrepaidCheckout } from '../../components/checkout/PrepaidCheckout';
import { Loading } from '../../components/ui/Loading';
import { gatewayFormUrl } from '../../lib/gatewayPayment';
import {
  postMembershipCart,
  type CartMembershipIn,
  type MembershipCartResponse,
} from '../../lib/api/memberships';
import { clockOf, stamp, type Timed } from '../../lib/countdownClock';
import { HoldClock } from './HoldClock';
import { OrderSeats } from './OrderSeats';
import { missingSeatsOf } from './seats';
import { asShownError } from './refusal';

/**
 * The buyer's details and the payment of a membership order: POST /cart with the memberships
 * and the details (the ID number required: a member is issued in a person's name, spec section 4),
 * then the gateway's page (`orderType=memberships`), which comes back to `returnPath`. A seated
 * membership's priced cart names the seats held and runs on their hold; the cart's refusal of a
 * seat no longer held sends the buyer back to that membership's seats (`onSeatsMissing`).
 */
export function MembershipCheckout({
  lines,
  total,
  summary,
  onBack,
  returnPath,
  onSeatsMissing,
}: {
  lines: CartMembershipIn[];
  total: number;
  summary: ReactNode;
  onBack: () => void;
  returnPath: string;
  onSeatsMissing: (membershipId: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const langParam = useSearchParams()[0].get('lang');
  const { site, config } = useMemberCheckoutConfig();
  const [priced, setPriced] = useState<Timed<MembershipCartResponse> | null>(null);
  // A priced cart without `cart` (an older server, a test double) has no seats to name.
  const seats = priced?.cart?.seats ?? [];
  if (!config || !site) return <Loading />;
  return (
    <PrepaidCheckout
      config={config}
      total={total}
      currency={priced?.cart?.currency}
      summary={
        <>
          {summary}
          {seats.length > 0 && <OrderSeats seats={seats} />}
          {seats.length > 0 && <HoldClock clock={priced && clockOf(priced)} />}
        </>
      }
      onBack={onBack}
      hint={t('memberships.idNeeded')}
      onDetails={async (info) => {
        try {
          const answer = await postMembershipCart(lines, info, total, lang === 'he' ? 'he' : 'en');
          setPriced(stamp(answer));
        } catch (e) {
          const missing = missingSeatsOf(e);
          if (missing) onSeatsMissing(missing.membershipId);
          throw asShownError(t, e);
        }
      }}
      onPay={({ method, numberOfPayments }) =>
        gatewayFormUrl(site, lang, {
          orderType: 'memberships',
          total,
          method,
          numberOfPayments,
          returnPath,
          langParam,
        })
      }
    />
  );
}
