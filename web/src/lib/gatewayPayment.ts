// The way to the gateway's page for an order paid in the whole window (vouchers, donations,
// memberships, an enrolment's tickets): its payment form, asked with a captcha token, and its
// address for the whole window.
import { fetchPaymentForm } from './api/payment';
import type { SiteConfig } from './api/types';
import { captchaTokenFor } from './captcha';
import { withLang } from './lang';

export async function gatewayFormUrl(
  site: SiteConfig,
  lang: string,
  order: {
    /** Which cart is paid: an order type, or a ticket order by its (first) presentation. */
    orderType?: string;
    presentationId?: number;
    total: number;
    method: string;
    numberOfPayments: number;
    /** The page the gateway comes back to, with the page's ?lang kept. */
    returnPath: string;
    langParam: string | null;
  },
): Promise<string> {
  const form = await fetchPaymentForm(lang === 'he' ? 'he' : 'en', {
    ...(order.orderType !== undefined ? { orderType: order.orderType } : {}),
    ...(order.presentationId !== undefined ? { presentationId: order.presentationId } : {}),
    total: order.total,
    method: order.method,
    numberOfPayments: order.numberOfPayments,
    recaptchaToken: await captchaTokenFor(site, 'payment'),
    returnPath: withLang(order.returnPath, order.langParam),
  });
  return form.paymentFormURL;
}
