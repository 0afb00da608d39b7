import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PrepaidCheckout } from '../../components/checkout/PrepaidCheckout';
import type { CheckoutConfig } from '../../components/checkout/customerInfo';
import { Loading } from '../../components/ui/Loading';
import { useConfig } from '../../lib/config';
import { gatewayFormUrl } from '../../lib/gatewayPayment';
import { postMembershipCart, type CartMembershipIn } from '../../lib/api/memberships';
import type { SiteConfig } from '../../lib/api/types';
import { asShownError } from './refusal';

/**
 * The buyer's details and the payment of a membership order: POST /cart with the memberships
 * and the details (the ID number required: a member is issued in a person's name, spec section 4),
 * then the gateway's page (`orderType=memberships`), which comes back to `returnPath`.
 */
export function MembershipCheckout({
  lines,
  total,
  summary,
  onBack,
  returnPath,
}: {
  lines: CartMembershipIn[];
  total: number;
  summary: ReactNode;
  onBack: () => void;
  returnPath: string;
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
  if (!config || !site) return <Loading />;
  return (
    <PrepaidCheckout
      config={config}
      total={total}
      summary={summary}
      onBack={onBack}
      hint={t('memberships.idNeeded')}
      onDetails={async (info) => {
        try {
          await postMembershipCart(lines, info, total, lang === 'he' ? 'he' : 'en');
        } catch (e) {
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
