// A membership's checkout (bought on its page or enrolled into by season): the site's
// configuration as it is, and the one its details form reads, where the ID number is always asked
// (a member is known by it).
import { useMemo } from 'react';
import type { SiteConfig } from '../../lib/api/types';
import { useConfig } from '../../lib/config';
import type { CheckoutConfig } from './customerInfo';

/** Both null until the configuration has come. */
export function useMemberCheckoutConfig(): {
  site: SiteConfig | null;
  config: CheckoutConfig | null;
} {
  const site = useConfig().raw as SiteConfig | null;
  const config = useMemo<CheckoutConfig | null>(
    () =>
      site && {
        ...site,
        customerInfo: { ...site.customerInfo, ssn: { isRequired: true, isIncluded: true } },
      },
    [site],
  );
  return { site, config };
}
