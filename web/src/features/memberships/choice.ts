// The memberships a buyer chose, checked as the server will check them (the server decides; this
// keeps "Continue" honest and says why it is not yet possible): quantities per price
// (`membershipId:priceId`), at most maxQuantityForMembership new members of one membership, or
// at most TOP_UP_MAX top-ups of one member number; one currency; each required reference present
// and matching its pattern.
import type {
  CartMembershipIn,
  CartMembershipPriceIn,
  Membership,
  MembershipPrice,
  MembershipReference,
} from '../../lib/api/memberships';
import { referenceField } from '../../lib/api/memberships';

/** The server's cap on top-ups of one member number in one order (the contract's). */
export const TOP_UP_MAX = 10;

/** The answers to a price's prompts by their key (reference1, reference2). */
export type ReferenceAnswers = Partial<Record<string, string>>;

export interface MembershipChoice {
  quantities: Record<string, number>;
  /** The answers to a price's prompts, by `membershipId:priceId`. */
  references: Record<string, ReferenceAnswers>;
}

export type ChoiceProblem = 'none' | 'tooMany' | 'currencies';

/** A chosen price whose prompts the buyer must answer (the "member details" step). */
export interface NeedsDetails {
  key: string;
  membership: Membership;
  price: MembershipPrice;
}

export interface ChosenMemberships {
  /** The choice can go on (the references are the next step's). */
  ok: boolean;
  problem: ChoiceProblem | null;
  /** Units per membership id. */
  counts: Record<number, number>;
  count: number;
  total: number;
  currency: string;
  lines: CartMembershipIn[];
  summary: {
    key: string;
    name: string;
    nameEn: string;
    price: number;
    value: number;
    series: boolean;
    quantity: number;
  }[];
  needsDetails: NeedsDetails[];
  /** The seated memberships chosen for new members: each needs its seat held (the seats step). */
  seated: Membership[];
}

export const priceKey = (m: Membership, p: MembershipPrice) =>
  `${m.MembershipId}:${p.MembershipPriceId}`;

export const isSeries = (m: Membership) => m.MembershipTypeId === 2;

/** The memberships a page offers: in top-up mode only those that can be topped up. */
export function offered(memberships: Membership[], topUp: string | null): Membership[] {
  return topUp === null ? memberships : memberships.filter((m) => m.topUp && isSeries(m));
}

export function chosenMemberships(
  memberships: Membership[],
  choice: MembershipChoice,
  max: number,
  topUp: string | null,
): ChosenMemberships {
  const counts: Record<number, number> = {};
  const currencies = new Set<string>();
  const lines: CartMembershipIn[] = [];
  const summary: ChosenMemberships['summary'] = [];
  const needsDetails: NeedsDetails[] = [];
  const seated: Membership[] = [];
  let count = 0;
  let total = 0;
  for (const m of offered(memberships, topUp)) {
    const prices: CartMembershipPriceIn[] = [];
    for (const p of m.prices) {
      const key = priceKey(m, p);
      const n = choice.quantities[key] ?? 0;
      if (n <= 0) continue;
      counts[m.MembershipId] = (counts[m.MembershipId] ?? 0) + n;
      count += n;
      total += n * p.Price;
      currencies.add(p.currency.CurrencyCode);
      summary.push({
        key,
        name: m.Name,
        nameEn: m.NameEn,
        price: p.Price,
        value: p.value,
        series: isSeries(m),
        quantity: n,
      });
      if (topUp === null) {
        const answers = choice.references[key] ?? {};
        const line: CartMembershipPriceIn = {
          MembershipPriceId: p.MembershipPriceId,
          selectedQuantity: n,
        };
        for (const r of p.references) {
          const field = referenceField(r);
          if (field) line[field] = (answers[field] ?? '').trim();
        }
        prices.push(line);
        if (p.references.length > 0) needsDetails.push({ key, membership: m, price: p });
      } else {
        prices.push({ MembershipPriceId: p.MembershipPriceId, selectedQuantity: n });
      }
    }
    if (prices.length === 0) continue;
    if (topUp === null && m.seats) seated.push(m);
    lines.push(
      topUp === null
        ? { MembershipId: m.MembershipId, prices }
        : { MembershipId: m.MembershipId, prices: [], topups: { [topUp]: prices } },
    );
  }
  let problem: ChoiceProblem | null = null;
  if (count === 0) problem = 'none';
  else if (topUp !== null ? count > TOP_UP_MAX : Object.values(counts).some((n) => n > max)) {
    problem = 'tooMany';
  } else if (currencies.size > 1) problem = 'currencies';
  return {
    ok: problem === null,
    problem: count === 0 ? null : problem,
    counts,
    count,
    total,
    currency: [...currencies][0] ?? 'ILS',
    lines,
    summary,
    needsDetails,
    seated,
  };
}

/** Whether one more unit of this membership may be chosen. */
export function canAddMore(
  chosen: ChosenMemberships,
  m: Membership,
  max: number,
  topUp: string | null,
): boolean {
  return topUp === null ? (chosen.counts[m.MembershipId] ?? 0) < max : chosen.count < TOP_UP_MAX;
}

/**
 * What is wrong with an answer to a prompt: missing, or not matching its pattern (the server's
 * regex; a pattern this browser cannot read is left to the server).
 */
export function referenceProblem(
  r: MembershipReference,
  value: string | undefined,
): 'required' | 'pattern' | null {
  const text = (value ?? '').trim();
  if (text === '') return 'required';
  if (!r.pattern) return null;
  let re: RegExp;
  try {
    re = new RegExp(r.pattern, 'u');
  } catch {
    return null;
  }
  return re.test(text) ? null : 'pattern';
}

/** The index of the first chosen price whose answers are not yet right, or -1. */
export function firstUnanswered(chosen: ChosenMemberships, choice: MembershipChoice): number {
  return chosen.needsDetails.findIndex((d) =>
    d.price.references.some((r) => referenceProblem(r, choice.references[d.key]?.[r.key]) !== null),
  );
}

/**
 * The quantities as a short text for the page's address (`?choice=`), so a reload and the auth
 * step's trip through the login page keep them: `membershipId:priceId*n`, joined by commas.
 */
export function encodeChoice(choice: MembershipChoice): string {
  return Object.entries(choice.quantities)
    .filter(([, n]) => n > 0)
    .map(([key, n]) => `${key}*${n}`)
    .join(',');
}

/**
 * The answers to the prompts for the address (`?refs=`), as JSON: they are free text (a student
 * card number), so no separator of ours is safe in them. Nothing answered is the empty text.
 */
export function encodeReferences(choice: MembershipChoice): string {
  const kept = Object.fromEntries(
    Object.entries(choice.references).filter(
      ([key, a]) => (choice.quantities[key] ?? 0) > 0 && Object.values(a).some((v) => v),
    ),
  );
  return Object.keys(kept).length === 0 ? '' : JSON.stringify(kept);
}

/** The choice an address carries; what cannot be read is left out. */
export function decodeChoice(text: string | null, refs: string | null): MembershipChoice {
  const choice: MembershipChoice = { quantities: {}, references: {} };
  for (const part of (text ?? '').split(',')) {
    const m = /^(\d+):(\d+)\*(\d{1,2})$/.exec(part);
    if (!m || Number(m[3]) <= 0) continue;
    choice.quantities[`${m[1]}:${m[2]}`] = Number(m[3]);
  }
  const parsed = parseJson(refs);
  if (parsed && typeof parsed === 'object') {
    for (const [key, answers] of Object.entries(parsed as Record<string, unknown>)) {
      if (!/^\d+:\d+$/.test(key) || !answers || typeof answers !== 'object') continue;
      const kept: ReferenceAnswers = {};
      for (const k of ['reference1', 'reference2'] as const) {
        const v = (answers as Record<string, unknown>)[k];
        if (typeof v === 'string') kept[k] = v.slice(0, 100);
      }
      choice.references[key] = kept;
    }
  }
  return choice;
}

function parseJson(text: string | null): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
