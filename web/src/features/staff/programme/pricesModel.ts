// Pure helpers of the prices panel (decision 0070): money typed in shekels, a service charge in
// words' parts, and the changes of one ticket.
import type { PriceChange, ServiceChargeRule } from './api';

/** "47", "47.5" or "47.50" shekels as agorot; null for anything else (negative, three decimals). */
export function parseShekels(value: string): number | null {
  const m = /^\s*(\d{1,6})(?:[.,](\d{1,2}))?\s*$/.exec(value);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** "10" or "2.5" percent as basis points (0 to 10000); null for anything else. */
export function parsePercent(value: string): number | null {
  const m = /^\s*(\d{1,3})(?:[.,](\d{1,2}))?\s*$/.exec(value);
  if (!m) return null;
  const bp = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return bp <= 10_000 ? bp : null;
}

/** A service charge as the panel says it: the amount or percentage, and per ticket or order. */
export function chargeParts(
  rule: ServiceChargeRule,
  money: (agorot: number) => string,
): { value: string; perTicket: boolean } {
  const value =
    rule.amount != null
      ? money(rule.amount)
      : `${((rule.percentBp ?? 0) / 100).toLocaleString('en', { maximumFractionDigits: 2 })}%`;
  return { value, perTicket: rule.perTicket };
}

/** The scheduled changes of one ticket, by day. */
export function changesOf(changes: readonly PriceChange[], ticketId: number): PriceChange[] {
  return changes
    .filter((c) => c.ticketId === ticketId)
    .sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
}
