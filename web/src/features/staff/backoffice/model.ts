// The audit's before and after as a readable diff: the fields that changed (all of them for an
// addition), each with its old and new value.
export type DiffRow = { field: string; before: unknown; after: unknown };

export function diff(before: unknown, after: unknown): DiffRow[] {
  const b = (before ?? {}) as Record<string, unknown>;
  const a = (after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  return fields
    .filter(
      (f) =>
        before === null || before === undefined || JSON.stringify(b[f]) !== JSON.stringify(a[f]),
    )
    .filter((f) => !(before === null && (a[f] === null || a[f] === undefined)))
    .map((field) => ({ field, before: before === null ? undefined : b[field], after: a[field] }));
}

/** The switch's state as one reason, or null when it sells: what the storefront would answer. */
export function switchReason(s: { offline: boolean; advanceSales: boolean; open: boolean }) {
  if (s.offline) return 'locationOffline';
  if (!s.open) return 'noTicketsInChannel';
  if (!s.advanceSales) return 'advanced_sales_not_allowed_by_outlet';
  return null;
}
