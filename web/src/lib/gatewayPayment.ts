// The way to the gateway's page for an order with no seats (vouchers, donations, memberships):
// its payment form, asked with a captcha token, and its address for the whole window.
import { fetchPaymentForm } from './api/payment';
import type { SiteConfig } from './api/types';
import { captchaTokenFor } from './captcha';
import { withLang } from './lang';

export async function gatewayFormUrl(
  site: SiteConfig,
  lang: string,
  order: {
    orderType: string;
    total: number;
    method: string;
    numberOfPayments: number;
    /** The page the gateway comes back to, with the page's ?lang kept. */
    returnPath: string;
    langParam: string | null;
  },
): Promise<string> {
  const form = await fetchPaymentForm(lang === 'he' ? 'he' : 'en', {
    orderType: order.orderType,
    total: order.total,
    method: order.method,
    numberOfPayments: order.numberOfPayments,
    recaptchaToken: await captchaTokenFor(site, 'payment'),
    returnPath: withLang(order.returnPath, order.langParam),
  });
  return form.paymentFormURL;
}
