import { describe, expect, it } from 'vitest';
import {
  cellValue,
  chartOf,
  formatCell,
  nextSort,
  pageButtons,
  pageCount,
  pageOf,
  rangeDays,
  reportUrl,
  sortRows,
  type ReportColumn,
  type ReportData,
} from './reportsModel';

const col = (key: string, kind: ReportColumn['kind']): ReportColumn => ({
  key,
  label: key,
  labelEn: key.toUpperCase(),
  kind,
});
const feature = col('feature', 'text');
const sold = col('sold', 'count');
const revenue = col('revenue', 'money');
const date = col('date', 'date');

const rows = [
  { feature: 'שמש', featureEn: 'Sun', sold: 5, revenue: 20000, date: '2026-11-21' },
  { feature: 'ירח', featureEn: 'Moon', sold: 12, revenue: 48000, date: '2026-11-20' },
  { feature: 'אבן', featureEn: 'Stone', sold: 5, revenue: null, date: '2026-11-22' },
  { feature: 'בית', featureEn: 'house', sold: 0, revenue: 0, date: '2026-11-20' },
];

describe('report cells', () => {
  it('read a text column in the UI language, falling back to Hebrew', () => {
    expect(cellValue(rows[0], feature, 'he')).toBe('שמש');
    expect(cellValue(rows[0], feature, 'en')).toBe('Sun');
    expect(cellValue({ feature: 'רק עברית' }, feature, 'en')).toBe('רק עברית');
  });

  it('show money in shekels with two decimals, percent with %, dates day/month/year', () => {
    expect(formatCell(123450, 'money', 'en')).toBe('₪1,234.50');
    expect(formatCell(5, 'money', 'he')).toContain('0.05');
    expect(formatCell(5, 'money', 'he')).toContain('₪');
    expect(formatCell(46, 'percent', 'he')).toBe('46%');
    expect(formatCell(1234, 'count', 'en')).toBe('1,234');
    expect(formatCell('2026-11-20', 'date', 'he')).toBe('20/11/2026');
    expect(formatCell('20:30', 'time', 'en')).toBe('20:30');
    expect(formatCell(null, 'money', 'en')).toBe('');
  });
});

describe('sorting a report', () => {
  it('keeps the server order when no column is chosen', () => {
    expect(sortRows(rows, [feature, sold], null, 'en')).toEqual(rows);
  });

  it('sorts numbers as numbers, equal cells in the server order, both ways', () => {
    const up = sortRows(rows, [sold], { key: 'sold', direction: 'ascending' }, 'en');
    expect(up.map((r) => r.featureEn)).toEqual(['house', 'Sun', 'Stone', 'Moon']);
    const down = sortRows(rows, [sold], { key: 'sold', direction: 'descending' }, 'en');
    expect(down.map((r) => r.featureEn)).toEqual(['Moon', 'Sun', 'Stone', 'house']);
  });

  it('sorts text in the UI language, ignoring case', () => {
    const en = sortRows(rows, [feature], { key: 'feature', direction: 'ascending' }, 'en');
    expect(en.map((r) => r.featureEn)).toEqual(['house', 'Moon', 'Stone', 'Sun']);
    const he = sortRows(rows, [feature], { key: 'feature', direction: 'ascending' }, 'he');
    expect(he.map((r) => r.feature)).toEqual(['אבן', 'בית', 'ירח', 'שמש']);
  });

  it('puts empty cells last whichever way', () => {
    for (const direction of ['ascending', 'descending'] as const) {
      const sorted = sortRows(rows, [revenue], { key: 'revenue', direction }, 'en');
      expect(sorted[sorted.length - 1].featureEn).toBe('Stone');
    }
  });

  it('sorts dates by the day', () => {
    const sorted = sortRows(rows, [date], { key: 'date', direction: 'descending' }, 'en');
    expect(sorted.map((r) => r.date)).toEqual([
      '2026-11-22',
      '2026-11-21',
      '2026-11-20',
      '2026-11-20',
    ]);
  });

  it('starts numbers biggest first and text from A, and a second click flips', () => {
    expect(nextSort(null, sold)).toEqual({ key: 'sold', direction: 'descending' });
    expect(nextSort(null, feature)).toEqual({ key: 'feature', direction: 'ascending' });
    expect(nextSort({ key: 'feature', direction: 'ascending' }, feature).direction).toBe(
      'descending',
    );
    expect(nextSort({ key: 'feature', direction: 'ascending' }, sold)).toEqual({
      key: 'sold',
      direction: 'descending',
    });
  });
});

describe('paging a report', () => {
  const many = Array.from({ length: 60 }, (_, i) => i + 1);

  it('cuts 25 rows a page and clamps the page to those there are', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(25)).toBe(1);
    expect(pageCount(26)).toBe(2);
    expect(pageOf(many, 1)).toEqual(many.slice(0, 25));
    expect(pageOf(many, 3)).toEqual([51, 52, 53, 54, 55, 56, 57, 58, 59, 60]);
    expect(pageOf(many, 9)).toEqual(pageOf(many, 3));
    expect(pageOf(many, 0)).toEqual(pageOf(many, 1));
  });

  it('shows every page button when few, else the ends and the neighbours with gaps', () => {
    expect(pageButtons(1, 3)).toEqual([1, 2, 3]);
    expect(pageButtons(1, 20)).toEqual([1, 2, 3, null, 20]);
    expect(pageButtons(10, 20)).toEqual([1, null, 8, 9, 10, 11, 12, null, 20]);
    expect(pageButtons(20, 20)).toEqual([1, null, 18, 19, 20]);
  });
});

describe('a report chart', () => {
  const data = (report: string, columns: ReportColumn[], r: ReportData['rows']): ReportData => ({
    report,
    title: report,
    titleEn: report,
    from: '2026-11-20',
    to: '2026-11-26',
    businessIds: [1],
    columns,
    rows: r,
    totals: null,
  });

  it('sums the screenings of a hall, biggest first', () => {
    const location = col('location', 'text');
    const venue = col('venue', 'text');
    const chart = chartOf(
      data(
        'attendance-venue',
        [location, venue, sold],
        [
          { location: 'נמל', locationEn: 'Port', venue: 'א', venueEn: 'Hall 1', sold: 3 },
          { location: 'נמל', locationEn: 'Port', venue: 'ב', venueEn: 'Hall 2', sold: 7 },
          { location: 'נמל', locationEn: 'Port', venue: 'א', venueEn: 'Hall 1', sold: 6 },
        ],
      ),
      'en',
    );
    expect(chart).toEqual({
      labels: ['Port · Hall 1', 'Port · Hall 2'],
      values: [9, 7],
      money: false,
      groups: 2,
    });
  });

  it('draws a point of sale’s revenue in shekels', () => {
    const channel = col('channel', 'text');
    const chart = chartOf(
      data(
        'points-of-sale',
        [channel, revenue],
        [
          { channel: 'אתר', channelEn: 'Website', revenue: 123450 },
          { channel: 'ממשק שותף', channelEn: 'Partner API', revenue: 200000 },
        ],
      ),
      'he',
    );
    expect(chart.labels).toEqual(['ממשק שותף', 'אתר']);
    expect(chart.values).toEqual([2000, 1234.5]);
    expect(chart.money).toBe(true);
  });

  it('draws nothing for a report it does not know', () => {
    expect(chartOf(data('other', [sold], [{ sold: 1 }]), 'en').labels).toEqual([]);
  });
});

describe('a report range', () => {
  it('counts both ends, across a month and a leap day', () => {
    expect(rangeDays('2026-11-20', '2026-11-26')).toBe(7);
    expect(rangeDays('2026-11-26', '2026-11-26')).toBe(1);
    expect(rangeDays('2028-02-28', '2028-03-01')).toBe(3);
    expect(rangeDays('2025-11-26', '2026-11-26')).toBe(366);
    expect(rangeDays('2026-11-27', '2026-11-26')).toBe(0);
  });
});

describe('a report address', () => {
  const q = { from: '2026-11-20', to: '2026-11-26', businessIds: [1, 2] };

  it('asks for JSON by default and for a download in the UI language', () => {
    expect(reportUrl('products', q)).toBe(
      '/api/staff/reports/products?from=2026-11-20&to=2026-11-26&businessIds=1%2C2',
    );
    expect(reportUrl('top-features', q, 'xlsx', 'he')).toBe(
      '/api/staff/reports/top-features?from=2026-11-20&to=2026-11-26&businessIds=1%2C2&format=xlsx&lang=he',
    );
    expect(reportUrl('products', { ...q, businessIds: [] }, 'csv', 'en')).toBe(
      '/api/staff/reports/products?from=2026-11-20&to=2026-11-26&format=csv&lang=en',
    );
  });
});
