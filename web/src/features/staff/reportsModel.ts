// The cinema reports' pure side (issue 17, docs/api.md): the five reports, how a cell reads in
// the UI's language, sorting by any column, paging, the chart each report draws, and the
// address of an export. The screen (ReportsView) only wires these to the page.
import type { components } from '../../lib/api/schema';
import { formatMoney, intlLocale } from '../../lib/format';

export const REPORTS = [
  'attendance-venue',
  'attendance-feature',
  'top-features',
  'products',
  'points-of-sale',
] as const;
export type ReportName = (typeof REPORTS)[number];

export function isReportName(value: string | null): value is ReportName {
  return value !== null && (REPORTS as readonly string[]).includes(value);
}

export type ColumnKind = 'text' | 'date' | 'time' | 'count' | 'money' | 'percent';

type Schemas = components['schemas'];

/** A column as the server describes it (its `kind` narrowed to the six it sends). */
export type ReportColumn = Omit<Schemas['ReportColumnDto'], 'kind'> & { kind: ColumnKind };

/** A row: each column's key, and `key + "En"` beside every text column. */
export type ReportRow = Record<string, string | number | null | undefined>;

/**
 * GET /staff/reports/{report}: the generated envelope, with the rows and totals typed (OpenAPI
 * gives them as free-form objects).
 */
export type ReportData = Omit<Schemas['ReportResponse'], 'columns' | 'rows' | 'totals'> & {
  columns: ReportColumn[];
  rows: ReportRow[];
  /** The summable columns' sums (and occupancy recomputed), or null (the top ten). */
  totals?: Record<string, number> | null;
};

export interface ReportQuery {
  from: string;
  to: string;
  businessIds: number[];
}

export type SortDirection = 'ascending' | 'descending';
export interface SortOrder {
  key: string;
  direction: SortDirection;
}

/** The longest range the server reports on, in business days (docs/api.md, reports). */
export const MAX_RANGE_DAYS = 366;

/** Business days from `from` to `to`, both counted (0 when `to` comes first). */
export function rangeDays(from: string, to: string): number {
  const day = 86_400_000;
  const ms = Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`);
  return Number.isNaN(ms) || ms < 0 ? 0 : Math.round(ms / day) + 1;
}

/** Rows a page: a morning's reading of one cinema fits on one page. */
export const PAGE_SIZE = 25;

export function columnLabel(column: ReportColumn, lang: string): string {
  return lang === 'he' ? column.label : column.labelEn || column.label;
}

/** What a cell holds: a text column's value in the UI's language (Hebrew when English is missing). */
export function cellValue(
  row: ReportRow,
  column: ReportColumn,
  lang: string,
): string | number | null {
  const own = row[column.key];
  if (column.kind === 'text' && lang !== 'he') {
    const english = row[`${column.key}En`];
    if (english !== undefined && english !== null && english !== '') return english;
  }
  return own ?? null;
}

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A cell as shown: money in ₪ from agorot, percent with %, dates day/month/year (spec section 10). */
export function formatCell(value: string | number | null, kind: ColumnKind, lang: string): string {
  if (value === null || value === '') return '';
  switch (kind) {
    case 'money':
      return formatMoney(Number(value), lang);
    case 'percent':
      return `${Number(value)}%`;
    case 'count':
      return new Intl.NumberFormat(intlLocale(lang), { maximumFractionDigits: 0 }).format(
        Number(value),
      );
    case 'date': {
      const m = YMD.exec(String(value));
      return m ? `${m[3]}/${m[2]}/${m[1]}` : String(value);
    }
    default:
      return String(value);
  }
}

/**
 * The rows in the order asked for, or as the server sent them when no order is asked. Equal
 * cells keep the server's order (a stable sort), so sorting by cinema keeps halls and times in
 * order; empty cells go last either way.
 */
export function sortRows(
  rows: readonly ReportRow[],
  columns: readonly ReportColumn[],
  order: SortOrder | null,
  lang: string,
): ReportRow[] {
  const column = order ? columns.find((c) => c.key === order.key) : undefined;
  if (!order || !column) return [...rows];
  const numeric = column.kind === 'count' || column.kind === 'money' || column.kind === 'percent';
  const collator = new Intl.Collator(intlLocale(lang), { numeric: true, sensitivity: 'base' });
  const sign = order.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: cellValue(row, column, lang) }))
    .sort((a, b) => {
      const aEmpty = a.value === null || a.value === '';
      const bEmpty = b.value === null || b.value === '';
      if (aEmpty || bEmpty) return aEmpty === bEmpty ? a.index - b.index : aEmpty ? 1 : -1;
      const by = numeric
        ? Number(a.value) - Number(b.value)
        : collator.compare(String(a.value), String(b.value));
      return by !== 0 ? sign * by : a.index - b.index;
    })
    .map((x) => x.row);
}

/** A header click: a new column sorts ascending (numbers descending: the biggest first), the same one flips. */
export function nextSort(current: SortOrder | null, column: ReportColumn): SortOrder {
  if (current?.key === column.key)
    return {
      key: column.key,
      direction: current.direction === 'ascending' ? 'descending' : 'ascending',
    };
  const numeric = column.kind === 'count' || column.kind === 'money' || column.kind === 'percent';
  return { key: column.key, direction: numeric ? 'descending' : 'ascending' };
}

export function pageCount(rowCount: number, size = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(rowCount / size));
}

/** Page `page` (from 1, clamped to the pages there are) of the rows. */
export function pageOf<T>(rows: readonly T[], page: number, size = PAGE_SIZE): T[] {
  const last = pageCount(rows.length, size);
  const p = Math.min(Math.max(1, page), last);
  return rows.slice((p - 1) * size, p * size);
}

/**
 * The page buttons to show: all of them when few, else the first, the last and two either side
 * of the current one, with a gap (null) where pages are left out.
 */
export function pageButtons(current: number, count: number): Array<number | null> {
  if (count <= 9) return Array.from({ length: count }, (_, i) => i + 1);
  const shown = new Set([1, count]);
  for (let p = current - 2; p <= current + 2; p += 1) if (p >= 1 && p <= count) shown.add(p);
  const sorted = [...shown].sort((a, b) => a - b);
  const out: Array<number | null> = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push(null);
    out.push(p);
  });
  return out;
}

export interface ReportChartData {
  labels: string[];
  values: number[];
  /** The values are shekels (money), not a count. */
  money: boolean;
  /** How many bars there would be before the cut at CHART_BARS. */
  groups: number;
}

/** Bars no chart draws past: the table carries the rest. */
export const CHART_BARS = 15;

/**
 * The bars each report draws: tickets sold per hall or per feature (the screenings summed), per
 * feature of the top ten, quantity per product, revenue per point of sale; biggest first.
 */
export function chartOf(data: ReportData, lang: string): ReportChartData {
  const col = (key: string) => data.columns.find((c) => c.key === key);
  const spec: Record<ReportName, { by: string[]; value: string }> = {
    'attendance-venue': { by: ['location', 'venue'], value: 'sold' },
    'attendance-feature': { by: ['feature'], value: 'sold' },
    'top-features': { by: ['feature'], value: 'sold' },
    products: { by: ['product'], value: 'quantity' },
    'points-of-sale': { by: ['channel'], value: 'revenue' },
  };
  const chosen = isReportName(data.report) ? spec[data.report] : null;
  const value = chosen ? col(chosen.value) : undefined;
  const by = (chosen?.by ?? []).map(col).filter((c): c is ReportColumn => c !== undefined);
  if (!value || by.length === 0) return { labels: [], values: [], money: false, groups: 0 };
  const sums = new Map<string, number>();
  for (const row of data.rows) {
    const label = by.map((c) => String(cellValue(row, c, lang) ?? '')).join(' · ');
    sums.set(label, (sums.get(label) ?? 0) + Number(row[value.key] ?? 0));
  }
  const money = value.kind === 'money';
  const bars = [...sums.entries()].sort((a, b) => b[1] - a[1]).slice(0, CHART_BARS);
  return {
    labels: bars.map(([label]) => label),
    values: bars.map(([, v]) => (money ? v / 100 : v)),
    money,
    groups: sums.size,
  };
}

/** The address of a report in a format: the JSON the screen reads, or a CSV/XLSX download. */
export function reportUrl(
  report: ReportName,
  q: ReportQuery,
  format: 'json' | 'csv' | 'xlsx' = 'json',
  lang?: string,
): string {
  const search = new URLSearchParams({ from: q.from, to: q.to });
  if (q.businessIds.length > 0) search.set('businessIds', q.businessIds.join(','));
  if (format !== 'json') search.set('format', format);
  if (lang) search.set('lang', lang === 'he' ? 'he' : 'en');
  return `/api/staff/reports/${report}?${search.toString()}`;
}
