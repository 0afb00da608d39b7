import { fileURLToPath } from 'node:url';
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { takesPictureRun } from './pictures';
import { buyHeldSeatCommitted, holdOneSeat } from './buy-by-api';
import { addDays, todayInCinema } from '../src/lib/format';

// The programme in the staff area (issue 18 item 2), as a new manager of the demo chain meets
// it: add a screening for next week in the port's big hall, find it in What's on, a buyer in
// another browser buys a seat on it, the manager moves it half an hour later and the buyer's
// reservation page shows the new time; the screening's history says added, then moved; the
// manager cancels it and the buyer's order is refunded. Then the grid and its dialogs in Hebrew and English at a
// tablet and a desktop width, axe-clean and never scrolling the page sideways.

const FILM_EN = 'The Fish Who Wanted to Fly';
const HALL_EN = 'Hall 1 – Grand Hall';

async function logInAsManager(page: Page, lang: 'he' | 'en') {
  await page.goto(`/PRES-live?lang=${lang}`);
  await page.locator('input[type="email"]').fill('manager@kupa.example');
  await page.locator('input[type="password"]').fill('demo-manager-pass');
  await page.locator('form button[type="submit"]').click();
  await expect(page.locator('.staff-views')).toBeVisible();
}

async function shoot(page: Page, name: string) {
  await page.waitForTimeout(150);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect.soft(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  await noSeriousAxeViolations(page);
  const path = fileURLToPath(new URL(`../e2e-artifacts/programme-${name}.png`, import.meta.url));
  await page.screenshot({ path, fullPage: true });
}

test('a manager adds a screening, a buyer buys a seat, the move takes the ticket with it', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const day = addDays(todayInCinema(), 7);
  await logInAsManager(page, 'en');
  // A run before this one on the same server (a retry) may have left its screening: cancelled
  // screenings do not count for overlaps.
  const week = await page.request.get(`/api/staff/programme/week?locationId=2&from=${day}`);
  for (const s of (await week.json()).screenings as Array<{
    id: number;
    venueId: number;
    startsAt: string;
    cancelledAt: string | null;
  }>) {
    const early = s.startsAt.startsWith(day) && s.startsAt.slice(11, 13) < '08';
    if (s.venueId === 1 && s.cancelledAt === null && early)
      await page.request.post(`/api/staff/programme/screenings/${s.id}/cancel`, { data: {} });
  }
  await page.getByRole('button', { name: 'Programme', exact: true }).click();
  await page.getByLabel('Complex').selectOption({ label: 'Kupa Tel Aviv Port' });
  await page.getByLabel('Week from').fill(day);
  await expect(page.locator('.programme-grid caption')).toContainText('Kupa Tel Aviv Port');

  // Add: film, hall, next week's day, 08:00 (the hall's first screening is at 10:30).
  await page.getByRole('button', { name: 'Add screening' }).click();
  const add = page.getByRole('dialog', { name: 'Add a screening' });
  await add.getByLabel('Film').selectOption({ label: `${FILM_EN} · 88 minutes` });
  await add.getByLabel('Hall').selectOption({ label: HALL_EN });
  await add.getByLabel('Date').fill(day);
  await add.getByLabel('Time').fill('08:00');
  const added = page.waitForResponse(
    (r) => r.url().endsWith('/api/staff/programme/screenings') && r.request().method() === 'POST',
  );
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  const answer = await added;
  expect(answer.status(), await answer.text()).toBe(201);
  const id = ((await answer.json()) as { screening: { id: number } }).screening.id;
  await expect(add).toBeHidden();
  const show = page.locator('.programme-show', { hasText: FILM_EN }).filter({ hasText: '08:00' });
  await expect(show).toBeVisible();
  await expect(show).toContainText('0 sold · 0 held');

  // An overlapping one is refused, in words.
  await page.getByRole('button', { name: 'Add screening' }).click();
  await add.getByLabel('Film').selectOption({ label: `${FILM_EN} · 88 minutes` });
  await add.getByLabel('Hall').selectOption({ label: HALL_EN });
  await add.getByLabel('Date').fill(day);
  await add.getByLabel('Time').fill('09:00');
  await add.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(add.getByRole('alert')).toContainText('The hall has another screening then');
  await add.getByRole('button', { name: 'Close' }).click();

  // What's on, as a buyer sees that day: the new screening, on sale.
  const buyerPage = await browser.newPage();
  await buyerPage.goto(`/?lang=en&date=${day}`);
  await expect(buyerPage.locator(`a[href*="/order/${id}"]`).first()).toBeVisible();
  await buyerPage.close();

  // A buyer in another browser buys a seat on it.
  const buyer = await playwrightRequest.newContext({ baseURL });
  const seat = await holdOneSeat(buyer, id);
  const bought = await buyHeldSeatCommitted(buyer, id, seat);
  await page.reload();
  await expect(show).toContainText('1 sold');

  // The manager moves it half an hour later, confirming first.
  await show.click();
  const dialog = page.getByRole('dialog', { name: FILM_EN });
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await dialog.getByLabel('Time').fill('08:30');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByText('Buyers keep their seats')).toBeVisible();
  await dialog.getByRole('button', { name: 'Move screening' }).click();
  await expect(dialog.getByRole('status')).toContainText('1 buyer was told');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(
    page.locator('.programme-show', { hasText: FILM_EN }).filter({ hasText: '08:30' }),
  ).toBeVisible();
  await expect(show).toHaveCount(0);
  // Its history: added, then moved, by the manager.
  await page.locator('.programme-show', { hasText: FILM_EN }).filter({ hasText: '08:30' }).click();
  await dialog.getByText('History').click();
  await expect(dialog.locator('.programme-history li')).toHaveCount(2);
  await expect(dialog.locator('.programme-history li').first()).toContainText('added');
  await expect(dialog.locator('.programme-history li').last()).toContainText('moved from');
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The buyer's reservation, in their own browser, shows the new time and the same seat.
  const buyerContext = await browser.newContext({ storageState: await buyer.storageState() });
  const mine = await buyerContext.newPage();
  await mine.goto(`/reservation/${bought.reservationIdentifier}?lang=en`);
  await expect(mine.locator('dt:text-is("When") + dd')).toContainText('08:30');
  // The doors open half an hour before the new time (they opened at 07:30 before the move).
  await expect(mine.locator('dt:text-is("Doors open") + dd')).toHaveText('08:00');
  await shoot(mine, 'buyer-after-move-en-1280');

  // The manager cancels it (the screening was only for this test): the buyer's order is
  // refunded in full, and the buyer's page says the reservation is cancelled.
  await page.locator('.programme-show', { hasText: FILM_EN }).filter({ hasText: '08:30' }).click();
  await dialog.getByRole('button', { name: 'Cancel screening' }).click();
  await expect(dialog.getByText('1 paid seat will be refunded in full')).toBeVisible();
  await dialog.getByRole('button', { name: 'Yes, cancel the screening' }).click();
  await expect(dialog.getByRole('status')).toContainText('1 order refunded');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await mine.reload();
  await expect(mine.getByText('Every ticket of this order has been cancelled.')).toBeVisible();
  await buyerContext.close();
  await buyer.dispose();
});

for (const lang of ['he', 'en'] as const) {
  for (const width of [768, 1280]) {
    if (!takesPictureRun(lang, width, [768, 1280])) continue;
    test(`the programme grid ${lang} at ${width}px`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width, height: 1000 });
      await logInAsManager(page, lang);
      await page.goto(`/PRES-live?lang=${lang}&view=programme&pl=2&pw=${todayInCinema()}`);
      await expect(page.locator('.programme-show').first()).toBeVisible();
      await shoot(page, `grid-${lang}-${width}`);
      await page.locator('.programme__actions .staff-button').first().click();
      await expect(page.locator('.programme-dialog select').first()).toBeVisible();
      await shoot(page, `add-${lang}-${width}`);
      await page.keyboard.press('Escape');
      // A screening's dialog, up to the cancel's confirmation (not confirmed).
      await page.locator('.programme-show').last().click();
      await page.locator('.programme-dialog .staff-button--danger-text').click();
      await expect(page.locator('.programme-confirm--danger')).toBeVisible();
      await shoot(page, `cancel-${lang}-${width}`);
    });
  }
}
