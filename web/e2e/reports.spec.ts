import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Download, type Locator, type Page } from '@playwright/test';
import { scheduleFor } from './api';
import { noSeriousAxeViolations } from './axe';
import { takesPictureRun } from './pictures';
import { DETAILS_EN, PLAIN_FREE_EN, buyTwoSeats, type BuyWords } from './order-flow';
import type { Presentation } from '../src/lib/api/types';
import { addDays, formatTime, todayInCinema } from '../src/lib/format';

// A new manager of the demo chain reads the cinema reports the morning after (issue 17): a guest
// first buys two seats of a screening of today's business day, then the manager opens Reports,
// finds that screening in the attendance by showtime and venue, sorts by a column, and exports
// the report as CSV and as XLSX, reading both files back (the XLSX with Python's standard library).

const EN: BuyWords = {
  lang: 'en',
  plainFree: PLAIN_FREE_EN,
  details: DETAILS_EN,
  detailsHeading: 'Your details',
  pay: /^Pay /,
  payDialog: 'Payment',
  gatewayFrame: 'Secure payment form',
  paid: 'Your order is complete',
};

interface Column {
  key: string;
  label: string;
  labelEn: string;
  kind: string;
}

/**
 * The last reserved screening on sale today of one of the manager's businesses (the other specs
 * take earlier ones or other days), or tomorrow's when today's are over.
 */
async function screeningToBuy(
  page: Page,
  businessIds: number[],
): Promise<{ day: string; p: Presentation }> {
  for (const ahead of [0, 1]) {
    const day = addDays(todayInCinema(), ahead);
    const schedule = await scheduleFor(page.request, day);
    const onSale = schedule.presentations.filter(
      (p) =>
        p.isOnSale &&
        !p.isVod &&
        p.seatingMode === 'reserved' &&
        businessIds.includes(p.businessId),
    );
    if (onSale.length > 0) return { day, p: onSale[onSale.length - 1] };
  }
  throw new Error('no reserved screening on sale today or tomorrow');
}

async function logInAsManager(page: Page, lang: 'he' | 'en') {
  await page.goto(`/PRES-live?lang=${lang}`);
  await page.locator('input[type="email"]').fill('manager@kupa.example');
  await page.locator('input[type="password"]').fill('demo-manager-pass');
  await page.locator('form button[type="submit"]').click();
  await expect(page.locator('.staff-views')).toBeVisible();
}

/** The screening's row of the table, looked for page by page. */
async function findRow(page: Page, cells: string[]): Promise<Locator> {
  const table = page.locator('.reports-table table');
  for (;;) {
    let row = table.locator('tbody tr');
    for (const c of cells)
      row = row.filter({ has: page.getByRole('cell', { name: c, exact: true }) });
    if ((await row.count()) > 0) return row.first();
    const next = page.getByRole('button', { name: 'Next page', exact: true });
    if ((await next.count()) === 0 || (await next.isDisabled()))
      throw new Error(`no row with ${cells.join(', ')}`);
    await next.click();
  }
}

/** A CSV line's fields (quotes and doubled quotes as RFC 4180 writes them). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      out.push(field);
      field = '';
    } else field += ch;
  }
  out.push(field);
  return out;
}

/** The first sheet of an .xlsx as rows of cell texts, read with Python's zipfile and ElementTree. */
const READ_XLSX = `
import json, re, sys, zipfile
import xml.etree.ElementTree as ET
NS = {'m': 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'}
z = zipfile.ZipFile(sys.argv[1])
shared = []
if 'xl/sharedStrings.xml' in z.namelist():
    for si in ET.fromstring(z.read('xl/sharedStrings.xml')).findall('m:si', NS):
        shared.append(''.join(t.text or '' for t in si.iter('{%s}t' % NS['m'])))
sheet = ET.fromstring(z.read('xl/worksheets/sheet1.xml'))
view = sheet.find('m:sheetViews/m:sheetView', NS)
rows = []
for row in sheet.findall('m:sheetData/m:row', NS):
    cells = {}
    for c in row.findall('m:c', NS):
        letters = re.match('[A-Z]+', c.get('r')).group(0)
        col = 0
        for ch in letters:
            col = col * 26 + ord(ch) - 64
        kind = c.get('t')
        v = c.find('m:v', NS)
        if kind == 's':
            text = shared[int(v.text)]
        elif kind == 'inlineStr':
            text = ''.join(t.text or '' for t in c.iter('{%s}t' % NS['m']))
        else:
            text = v.text if v is not None else ''
        cells[col] = [text, kind or 'n']
    width = max(cells) if cells else 0
    rows.append([cells.get(i + 1, ['', 'n']) for i in range(width)])
print(json.dumps({'rtl': view is not None and view.get('rightToLeft') in ('1', 'true'), 'rows': rows}))
`;

function readXlsx(path: string): { rtl: boolean; rows: Array<Array<[string, string]>> } {
  return JSON.parse(execFileSync('python3', ['-c', READ_XLSX, path], { encoding: 'utf8' }));
}

async function saved(download: Download): Promise<string> {
  const path = await download.path();
  expect(path).toBeTruthy();
  return path!;
}

test('a new manager finds a sale in the attendance report, sorts it and exports it as CSV and XLSX', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 1000 });

  // A guest buys two seats of a screening of the manager's businesses first, so today's report
  // has it with at least 2 sold.
  await logInAsManager(page, 'en');
  const me = (await (await page.request.get('/api/staff/me')).json()) as {
    user: { businessIds: number[] };
  };
  const { day, p } = await screeningToBuy(page, me.user.businessIds);
  await buyTwoSeats(page, p.id, EN);
  const time = formatTime(p.dateTime, 'en');

  await page.goto('/PRES-live?lang=en');
  await page.getByRole('button', { name: 'Reports', exact: true }).click();
  await page.getByRole('combobox', { name: 'Report', exact: true }).selectOption({
    label: 'Attendance by showtime and venue',
  });
  await expect(
    page.getByRole('heading', { name: 'Attendance by showtime and venue', exact: true }),
  ).toBeVisible();
  const to = page.getByLabel('To', { exact: true });
  // Tomorrow's screening (late at night, today's are over) is in the range once it ends there.
  if ((await to.inputValue()) < day) await to.fill(day);
  await expect(page.locator('.reports-figure canvas')).toBeVisible();
  await noSeriousAxeViolations(page);

  // The screening's row: its cinema, hall, time and feature, at least the two seats sold.
  const columns = (
    (await (
      await page.request.get(
        `/api/staff/reports/attendance-venue?from=${addDays(day, -6)}&to=${day}`,
      )
    ).json()) as { columns: Column[] }
  ).columns;
  const soldAt = columns.findIndex((c) => c.key === 'sold');
  expect(soldAt).toBeGreaterThan(0);
  const row = await findRow(page, [p.locationNameEn, p.venueNameEn, time, p.featureNameEn]);
  const soldText = await row.locator('td').nth(soldAt).textContent();
  expect(Number(soldText!.replace(/,/g, ''))).toBeGreaterThanOrEqual(2);

  // Sorting by Sold: biggest first, then smallest first.
  const table = page.locator('.reports-table table');
  const soldHead = table.getByRole('columnheader', { name: 'Sold' });
  const soldColumn = () =>
    table
      .locator(`tbody tr td:nth-child(${soldAt + 1})`)
      .allTextContents()
      .then((all) => all.map((s) => Number(s.replace(/,/g, ''))));
  await soldHead.getByRole('button').click();
  await expect(soldHead).toHaveAttribute('aria-sort', 'descending');
  const down = await soldColumn();
  expect(down).toEqual([...down].sort((a, b) => b - a));
  await soldHead.getByRole('button').click();
  await expect(soldHead).toHaveAttribute('aria-sort', 'ascending');
  const up = await soldColumn();
  expect(up).toEqual([...up].sort((a, b) => a - b));

  // CSV: UTF-8 with a BOM, the English labels as header, and the screening's row.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV', exact: true }).click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(
    /^kupa-attendance-venue-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
  );
  const text = readFileSync(await saved(csv), 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = text
    .slice(1)
    .split(/\r?\n/)
    .filter((l) => l !== '');
  expect(csvFields(lines[0])).toEqual(columns.map((c) => c.labelEn));
  const csvRow = lines
    .map(csvFields)
    .find((f) =>
      [p.locationNameEn, p.venueNameEn, time, p.featureNameEn].every((c) => f.includes(c)),
    );
  expect(csvRow, 'the screening in the CSV').toBeDefined();
  expect(Number(csvRow![soldAt])).toBeGreaterThanOrEqual(2);

  // XLSX: one sheet, the same header and row; numbers stored as numbers.
  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export XLSX', exact: true }).click(),
  ]);
  expect(xlsx.suggestedFilename()).toMatch(/^kupa-attendance-venue-.*\.xlsx$/);
  const sheet = readXlsx(await saved(xlsx));
  expect(sheet.rtl).toBe(false);
  expect(sheet.rows[0].map(([t]) => t)).toEqual(columns.map((c) => c.labelEn));
  const xlsxRow = sheet.rows.find((r) =>
    [p.locationNameEn, p.venueNameEn, p.featureNameEn].every((c) => r.some(([t]) => t === c)),
  );
  expect(xlsxRow, 'the screening in the XLSX').toBeDefined();
  const [soldCell, soldKind] = xlsxRow![soldAt];
  expect(soldKind).toBe('n');
  expect(Number(soldCell)).toBeGreaterThanOrEqual(2);
});

// Pictures of the reports for a person to look at (Hebrew and English, tablet and desktop, and
// the print sheet), each axe-clean and never scrolling sideways.
const shots = fileURLToPath(new URL('../e2e-artifacts/reports/', import.meta.url));

for (const lang of ['he', 'en'] as const) {
  for (const width of [768, 1280]) {
    if (!takesPictureRun(lang, width, [768, 1280])) continue;
    test(`reports pictures ${lang} at ${width}px`, async ({ page }) => {
      test.setTimeout(60_000);
      mkdirSync(shots, { recursive: true });
      await page.setViewportSize({ width, height: 1000 });
      await logInAsManager(page, lang);
      for (const report of ['attendance-venue', 'top-features', 'points-of-sale'] as const) {
        await page.goto(`/PRES-live?lang=${lang}&view=reports&report=${report}`);
        await expect(page.locator('.reports-table table, .reports__empty').first()).toBeVisible();
        await page.waitForTimeout(150);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect.soft(overflow, `${report} scrolls sideways`).toBeLessThanOrEqual(0);
        await noSeriousAxeViolations(page);
        await page.screenshot({ path: `${shots}${report}-${lang}-${width}.png`, fullPage: true });
      }
      if (width === 1280) {
        await page.goto(`/PRES-live?lang=${lang}&view=reports&report=attendance-venue`);
        await expect(page.locator('.reports-table table')).toBeVisible();
        const onScreen = await page.locator('.reports-table tbody tr').count();
        await page.emulateMedia({ media: 'print' });
        // On paper: no navigation or controls, the title, the range and every row.
        await expect(page.locator('.reports-controls')).toBeHidden();
        await expect(page.locator('.staff-views')).toBeHidden();
        await expect(page.locator('.reports-pager')).toBeHidden();
        await expect(page.locator('#reports-title')).toBeVisible();
        const total = Number(
          /(\d+)\s*$/.exec((await page.locator('.reports-pager__rows').textContent()) ?? '')?.[1] ??
            onScreen,
        );
        await expect(page.locator('.reports-table tbody tr')).toHaveCount(
          Math.max(total, onScreen),
        );
        await page.screenshot({ path: `${shots}print-${lang}.png`, fullPage: true });
        await page.emulateMedia({ media: 'screen' });
      }
    });
  }
}
