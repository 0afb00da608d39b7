import type { ReactNode } from 'react';
import { PaymentReturnNotice } from '../../components/checkout/PaymentReturn';
import { captchaTokenFor } from '../../lib/captcha';
import { useConfig } from '../../lib/config';
import { usePaymentReturn } from '../../lib/paymentReturn';
import { commitGift, type GiftOrderType } from '../../lib/api/gifts';
import type { SiteConfig } from '../../lib/api/types';

/**
 * Back from the gateway's page: commits the paid voucher or donation order and moves to its own
 * address (`?order=…`). Answers what to show meanwhile; null when the address is no return.
 */
export function useGiftReturn(orderType: GiftOrderType, path: string): ReactNode {
  const site = useConfig().raw as SiteConfig | null;
  const state = usePaymentReturn({
    path,
    queryKey: (paymentId) => ['gifts', 'commit', paymentId],
    commit: async () => commitGift(orderType, await captchaTokenFor(site as SiteConfig, 'commit')),
  });
  return state.kind === 'none' ? null : <PaymentReturnNotice state={state} path={path} />;
}
