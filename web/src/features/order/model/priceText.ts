// The one way every order screen shows a price (issue "prices that hold"): each ticket at its full
// price (price + service charge) with the service charge it includes itemised beside it; then the
// server's breakdown (tickets at full prices, of which the service charges; a per-order service
// charge on its own line; products; total). The PDF and the mail say the same.
import type { TFunction } from 'i18next';
import type { PriceBreakdown, ServiceCharge } from '../../../lib/api/types';
import { formatMoney, intlLocale } from '../../../lib/format';
import { serviceChargeLabel } from './serviceChargeLabel';

export interface PriceOptions {
  currency: string;
  /** The business's (Hebrew) name for its service charge; the translated name when none. */
  chargeName?: string | null;
}

/** A price as shown: the full amount, and the service charge in it. */
export interface PriceText {
  /** "₪47.00": the price with its service charge. */
  full: string;
  /** "incl. ₪5.00 service charge"; null when the price carries none. */
  included: string | null;
}

/** What the buyer pays for a ticket (or tickets): its price and the service charge on it. */
export function fullPrice(item: { price: number; serviceCharge: number }): number {
  return item.price + item.serviceCharge;
}

/** The charge's name inside a sentence ("incl. ₪5.00 service charge"). */
function chargeInSentence(t: TFunction, lang: string, name: string | null | undefined): string {
  return serviceChargeLabel(name, lang, t('order.prices.serviceCharge'));
}

/**
 * A ticket's price (or the sum of several: `price` and `serviceCharge` in agorot) at its full
 * amount, with the service charge it includes.
 */
export function priceText(
  t: TFunction,
  lang: string,
  item: { price: number; serviceCharge: number },
  options: PriceOptions,
): PriceText {
  return {
    full: formatMoney(fullPrice(item), lang, options.currency),
    included:
      item.serviceCharge > 0
        ? t('order.prices.included', {
            amount: formatMoney(item.serviceCharge, lang, options.currency),
            charge: chargeInSentence(t, lang, options.chargeName),
          })
        : null,
  };
}

export interface BreakdownLine {
  id: 'tickets' | 'orderServiceCharge' | 'products' | 'total';
  label: string;
  amount: string;
  /** Said beside the amount: the service charge the tickets include. */
  note: string | null;
}

/**
 * An order summary's lines, from the server's breakdown: the tickets at full prices (of which the
 * service charges), a per-order service charge only when there is one, the products when any,
 * and the total. Nothing is added up here: the server's lines already add up.
 */
export function breakdownLines(
  t: TFunction,
  lang: string,
  breakdown: PriceBreakdown,
  options: PriceOptions,
): BreakdownLine[] {
  const money = (agorot: number) => formatMoney(agorot, lang, options.currency);
  const lines: BreakdownLine[] = [
    {
      id: 'tickets',
      label: t('order.prices.tickets'),
      amount: money(breakdown.tickets),
      note:
        breakdown.ticketsServiceCharge > 0
          ? t('order.prices.ofWhich', {
              amount: money(breakdown.ticketsServiceCharge),
              charge: chargeInSentence(t, lang, options.chargeName),
            })
          : null,
    },
  ];
  if (breakdown.orderServiceCharge > 0) {
    lines.push({
      id: 'orderServiceCharge',
      label: t('order.prices.orderServiceCharge', {
        charge: serviceChargeLabel(options.chargeName, lang, t('checkout.summary.serviceCharge')),
      }),
      amount: money(breakdown.orderServiceCharge),
      note: null,
    });
  }
  if (breakdown.products > 0) {
    lines.push({
      id: 'products',
      label: t('order.prices.products'),
      amount: money(breakdown.products),
      note: null,
    });
  }
  lines.push({
    id: 'total',
    label: t('order.prices.total'),
    amount: money(breakdown.total),
    note: null,
  });
  return lines;
}

/**
 * The breakdown once the products the buyer is choosing are in the order: the products step
 * shows it before the cart is posted again. A per-order service charge does not depend on the
 * products, so only the products and the total change.
 */
export function withProducts(breakdown: PriceBreakdown, products: number): PriceBreakdown {
  return {
    ...breakdown,
    products,
    total: breakdown.tickets + breakdown.orderServiceCharge + products,
  };
}

/**
 * "+ service charge per order: ₪10.00" (or a percentage of the tickets' price) when the business
 * charges per order; null when it charges per ticket (already in each ticket's full price) or not
 * at all.
 */
export function perOrderChargeText(
  t: TFunction,
  lang: string,
  charge: ServiceCharge | null | undefined,
): string | null {
  if (!charge || charge.perTicket) return null;
  const name = chargeInSentence(t, lang, charge.name);
  if (charge.amount != null && charge.amount > 0) {
    return t('order.prices.perOrder', {
      charge: name,
      amount: formatMoney(charge.amount, lang, charge.currency),
    });
  }
  if (charge.percentBp != null && charge.percentBp > 0) {
    const percent = new Intl.NumberFormat(intlLocale(lang), {
      style: 'percent',
      maximumFractionDigits: 2,
    }).format(charge.percentBp / 10_000);
    return t('order.prices.perOrderPercent', { charge: name, percent });
  }
  return null;
}
