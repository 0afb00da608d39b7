// The vouchers a buyer chose on the vouchers page, checked as the server will check them (the
// server decides; this only keeps "Continue" honest): quantities per price (`classId:priceId`, or
// `classId:open` for the open price with its amount in shekels), at most maxQuantityForVouchers.
import type { components } from '../../lib/api/schema';
import type { VoucherClass } from '../../lib/api/gifts';

type CartVoucherIn = components['schemas']['CartVoucherIn'];

export interface VoucherChoice {
  quantities: Record<string, number>;
  /** The open price's amount per class, as typed (whole shekels). */
  amounts: Record<number, string>;
}

export type ChoiceProblem = 'none' | 'tooMany' | 'openAmount';

export interface Chosen {
  ok: boolean;
  problem: ChoiceProblem | null;
  count: number;
  total: number;
  lines: CartVoucherIn[];
  summary: { key: string; name: string; nameEn: string; price: number; quantity: number }[];
}

export function chosenVouchers(
  classes: VoucherClass[],
  choice: VoucherChoice,
  max: number,
): Chosen {
  let count = 0;
  let total = 0;
  let problem: ChoiceProblem | null = null;
  const lines: CartVoucherIn[] = [];
  const summary: Chosen['summary'] = [];
  for (const c of classes) {
    if (c.boxOfficeOnly) continue;
    const prices: CartVoucherIn['Prices'] = [];
    for (const p of c.prices) {
      const n = choice.quantities[`${c.id}:${p.id}`] ?? 0;
      if (n <= 0) continue;
      prices.push({ SystemVoucherPriceId: p.id, selectedQuantity: n });
      summary.push({
        key: `${c.id}:${p.id}`,
        name: c.name,
        nameEn: c.nameEn,
        price: p.price,
        quantity: n,
      });
      count += n;
      total += n * p.price;
    }
    const open = choice.quantities[`${c.id}:open`] ?? 0;
    if (c.openPrice && open > 0) {
      const shekels = Number(choice.amounts[c.id] ?? '');
      const agorot = Math.round(shekels * 100);
      if (!Number.isInteger(shekels) || agorot < c.openPrice.min || agorot > c.openPrice.max) {
        problem = 'openAmount';
      } else {
        prices.push({ Price: agorot, selectedQuantity: open });
        summary.push({
          key: `${c.id}:open`,
          name: c.name,
          nameEn: c.nameEn,
          price: agorot,
          quantity: open,
        });
        total += open * agorot;
      }
      count += open;
    }
    if (prices.length > 0) lines.push({ SystemVoucherId: c.id, Prices: prices });
  }
  if (count === 0) problem = problem ?? 'none';
  if (count > max) problem = 'tooMany';
  return {
    ok: problem === null,
    problem: count === 0 ? null : problem,
    count,
    total,
    lines,
    summary,
  };
}

/**
 * The choice as a short text for the page's address (`?choice=`), so the auth step's round trip
 * through the login page (and a reload) keeps it: `classId:priceId*n` per price, the open price
 * as `classId:open*n*shekels`, joined by commas. Nothing chosen is the empty text.
 */
export function encodeChoice(choice: VoucherChoice): string {
  return Object.entries(choice.quantities)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => {
      if (!key.endsWith(':open')) return `${key}*${n}`;
      const amount = choice.amounts[Number(key.split(':')[0])] ?? '';
      return `${key}*${n}*${amount}`;
    })
    .join(',');
}

/** The choice an address carries; what cannot be read is left out. */
export function decodeChoice(text: string | null): VoucherChoice {
  const choice: VoucherChoice = { quantities: {}, amounts: {} };
  for (const part of (text ?? '').split(',')) {
    const m = /^(\d+):(\d+|open)\*(\d{1,2})(?:\*(\d{0,6}))?$/.exec(part);
    if (!m) continue;
    const n = Number(m[3]);
    if (n <= 0) continue;
    choice.quantities[`${m[1]}:${m[2]}`] = n;
    if (m[2] === 'open') choice.amounts[Number(m[1])] = m[4] ?? '';
  }
  return choice;
}
