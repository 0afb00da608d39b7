// The products step of the vouchers flow (decision 0035): chain-wide snacks prepaid with the
// vouchers, as quantities per product id, kept in the address (`?extras=5*2,7*1`) like the choice.
import type { GiftProduct } from '../../lib/api/gifts';

/** At most this many of one product, as the server allows. */
export const MAX_EXTRA_QUANTITY = 20;

export type Extras = Record<number, number>;

export function encodeExtras(extras: Extras): string {
  return Object.entries(extras)
    .filter(([, n]) => n > 0)
    .map(([id, n]) => `${id}*${n}`)
    .join(',');
}

export function decodeExtras(text: string | null): Extras {
  const extras: Extras = {};
  for (const part of (text ?? '').split(',')) {
    const m = /^(\d+)\*(\d{1,2})$/.exec(part);
    if (!m) continue;
    const n = Number(m[2]);
    if (n > 0 && n <= MAX_EXTRA_QUANTITY) extras[Number(m[1])] = n;
  }
  return extras;
}

export interface ChosenExtras {
  lines: { id: number; quantity: number }[];
  summary: { id: number; name: string; nameEn: string; price: number; quantity: number }[];
  total: number;
}

/** The products chosen, of those offered (an id no longer offered is left out), and their sum. */
export function chosenExtras(offered: GiftProduct[], extras: Extras): ChosenExtras {
  const chosen: ChosenExtras = { lines: [], summary: [], total: 0 };
  for (const p of offered) {
    const quantity = extras[p.id] ?? 0;
    if (quantity <= 0) continue;
    chosen.lines.push({ id: p.id, quantity });
    chosen.summary.push({ id: p.id, name: p.name, nameEn: p.nameEn, price: p.price, quantity });
    chosen.total += p.price * quantity;
  }
  return chosen;
}
