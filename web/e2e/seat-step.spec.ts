import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { scheduleFor } from './api';
import { OrderPage } from './pages/OrderPage';
import { addDays, todayInCinema } from '../src/lib/format';

// A plain free seat in Hebrew: "שורה 7, מושב 12, פנוי" (no wheelchair, sofa or other kind).
const PLAIN_FREE = /^שורה [^,]+, מושב [^,]+, פנוי$/;

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

test('the buyer holds two seats, sees the countdown, and still holds them after a reload', async ({
  page,
  request,
}) => {
  // A day ahead, so the sale is open and no hold meets the start of the screening.
  const day = await scheduleFor(request, addDays(todayInCinema(), 1));
  const presentation = day.presentations.find(
    (p) => p.isOnSale && !p.isVod && p.seatingMode === 'reserved' && p.venueNameEn !== '',
  );
  expect(presentation, 'a reserved screening on sale tomorrow').toBeDefined();

  // The map reads the compact status (decision 0060): in full once, then the changes since.
  const statusReads: URL[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/seats/seats-status')) statusReads.push(url);
  });

  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/order/${presentation!.id}`);
  const order = new OrderPage(page);
  await expect(order.featureHeading(presentation!.featureName)).toBeVisible();
  await expect(order.seatMap()).toBeVisible();

  // The seat Tab reaches first is the free seat nearest the hall's best point.
  const first = order.seatMap().locator('[role="button"][tabindex="0"]');
  const firstName = (await first.getAttribute('aria-label'))!;
  expect(firstName).toMatch(PLAIN_FREE);
  await first.click();
  await expect(order.selectedSeats()).toHaveCount(1);

  // The second: a plain free seat in the same row.
  const row = firstName.split(',')[0];
  const candidates = await order
    .seats(PLAIN_FREE)
    .evaluateAll(
      (els, rowName) =>
        els
          .map((el) => el.getAttribute('aria-label') ?? '')
          .filter((label) => label.startsWith(`${rowName},`)),
      row,
    );
  expect(candidates.length).toBeGreaterThan(0);
  await order.seatMap().getByRole('button', { name: candidates[0], exact: true }).click();
  await expect(order.selectedSeats()).toHaveCount(2);

  await expect(order.timer()).toHaveText(/\d+:\d\d/);
  // The selection summary names both, each with a release button.
  await expect(page.getByRole('button', { name: /^שחרור .*שורה .+, מושב .+$/ })).toHaveCount(2);

  // Each hold asked for the status again: with `since`, after the first read.
  await expect.poll(() => statusReads.length).toBeGreaterThanOrEqual(2);
  expect(statusReads.map((u) => u.pathname)).toEqual(
    statusReads.map(() => '/api/seats/seats-statusV2/compact'),
  );
  expect(statusReads.map((u) => u.searchParams.has('since'))).toEqual(
    statusReads.map((_, i) => i > 0),
  );

  await page.reload();
  await expect(order.seatMap()).toBeVisible();
  await expect(order.selectedSeats()).toHaveCount(2);
  await expect(order.timer()).toHaveText(/\d+:\d\d/);
  await expect(page.getByRole('button', { name: 'המשך' })).toBeEnabled();

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await noSidewaysScroll(page);
    const path = fileURLToPath(
      new URL(`../e2e-artifacts/seat-step-he-${width}.png`, import.meta.url),
    );
    await page.screenshot({ path, fullPage: true });
  }
});
