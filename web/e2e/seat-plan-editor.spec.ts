import { fileURLToPath } from 'node:url';
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { buyHeldSeatCommitted, holdOneSeat } from './buy-by-api';
import { addDays, todayInCinema } from '../src/lib/format';

// The seat-plan editor (issue 18 item 4), as a new manager of the demo chain's Haifa complex
// meets it: start an empty plan for Hall 3, add a section, draw three rows, curve the last, mark
// a wheelchair place with its companion, a sofa and a premium row (pointer and keyboard), undo a
// step, and save it as a new version; a screening added on the hall is sold on the new plan, and
// a buyer in another browser buys a seat on it. Then the editor in Hebrew and English at a tablet
// and a desktop width, axe-clean and never scrolling the page sideways.

const COMPLEX_EN = 'Kupa Haifa – German Colony';
const HALL = 9;
const HALL_EN = 'Hall 3';

async function logInAsHaifaManager(page: Page, lang: 'he' | 'en') {
  await page.goto(`/PRES-live?lang=${lang}`);
  await page.locator('input[type="email"]').fill('haifa@kupa.example');
  await page.locator('input[type="password"]').fill('demo-haifa-pass');
  await page.locator('form button[type="submit"]').click();
  await expect(page.locator('.staff-views')).toBeVisible();
}

/** A seat of the drawing by its row and number, whatever kinds it has. */
function seat(page: Page, row: number, n: number) {
  return page
    .locator('.plan-canvas')
    .getByRole('button', { name: new RegExp(`^Row ${row}, seat ${n}(,|$)`) });
}

async function shoot(page: Page, name: string) {
  await page.waitForTimeout(150);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect.soft(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  await noSeriousAxeViolations(page);
  const path = fileURLToPath(new URL(`../e2e-artifacts/seat-plans-${name}.png`, import.meta.url));
  await page.screenshot({ path, fullPage: true });
}

test('a manager draws a hall of three rows, saves it, and a buyer buys a seat on it', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await logInAsHaifaManager(page, 'en');
  await page.getByRole('button', { name: 'Seat plans', exact: true }).click();
  await page.getByLabel('Complex').selectOption({ label: COMPLEX_EN });
  await page.locator('.seat-plans__bar').getByLabel('Hall').selectOption({ label: HALL_EN });
  // The list of the hall's versions, named for the hall.
  const versions = page.getByRole('region', { name: `The seat plans of ${HALL_EN}, newest first` });
  await expect(versions.locator('.seat-plans__table')).toBeVisible();
  const before = await (await page.request.get(`/api/staff/seatPlans?venueId=${HALL}`)).json();
  const lastVersion = (before.versions as Array<{ version: number }>)[0].version;

  await page.getByRole('button', { name: 'Start an empty plan' }).click();
  // A section of rows of seats selling the standard tickets.
  const addSection = page.getByRole('form', { name: 'Add section' });
  await addSection.getByLabel('Section name (Hebrew)').fill('אולם');
  await addSection.getByLabel('Section name (English)').fill('Stalls');
  await addSection.getByLabel('Ticket group (prices)').selectOption({ label: 'Standard' });
  await addSection.getByRole('button', { name: 'Add section' }).click();
  await expect(page.getByText('New rows go to')).toBeVisible();

  // Three rows of eight: the form moves on to the next row (named 2, two lines back) by itself.
  const addRow = page.getByRole('form', { name: 'Add row' });
  await addRow.getByLabel('Row name').fill('1');
  await addRow.getByLabel('Seats').fill('8');
  await addRow.getByLabel('Start: cell across').fill('3');
  await addRow.getByLabel('Start: row line').fill('2');
  for (const row of ['1', '2', '3']) {
    await expect(addRow.getByLabel('Row name')).toHaveValue(row);
    await addRow.getByRole('button', { name: 'Add row' }).click();
  }
  await expect(page.locator('.plan-canvas .seat')).toHaveCount(24);
  await expect(page.locator('.plan-editor__summary')).toContainText('3 rows · 24 seats');

  // Curve the back row: its ends come a cell nearer the screen.
  await seat(page, 3, 1).click();
  const rowTools = page.locator('.plan-tools__group', { hasText: 'Curve' });
  await rowTools.getByLabel('Curve (cells)').fill('1');
  await rowTools.getByRole('button', { name: 'Curve', exact: true }).click();
  const y = async (row: number, n: number) =>
    (await seat(page, row, n).getAttribute('transform'))!.split(' ')[1];
  expect(await y(3, 1)).not.toEqual(await y(3, 4));

  // A wheelchair place and its companion, by pointer.
  await seat(page, 1, 8).click();
  await page.getByRole('button', { name: 'Wheelchair', exact: true }).click();
  await seat(page, 1, 7).click();
  await page.getByRole('button', { name: 'Companion', exact: true }).click();
  await expect(seat(page, 1, 8)).toHaveAccessibleName('Row 1, seat 8, wheelchair space');
  // A sofa of the first two seats of row 2: click, then Shift-click.
  await seat(page, 2, 1).click();
  await seat(page, 2, 2).click({ modifiers: ['Shift'] });
  await page.getByRole('button', { name: 'Make a sofa' }).click();
  await expect(seat(page, 2, 2)).toHaveAccessibleName('Row 2, seat 2, sofa');
  // The keyboard: from seat 3 of row 2 along the row and up to row 1, choosing with Space.
  await seat(page, 2, 3).click();
  await page.keyboard.press('Escape');
  await seat(page, 2, 3).focus();
  await page.keyboard.press('ArrowRight');
  await expect(seat(page, 2, 4)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(seat(page, 2, 4)).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowUp');
  await expect(seat(page, 1, 4)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByText('2 chosen seats')).toBeVisible();
  await page.getByRole('button', { name: 'Limited view', exact: true }).click();
  await expect(seat(page, 1, 4)).toHaveAccessibleName('Row 1, seat 4, limited view');
  // Undone: the limited view goes again.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(seat(page, 1, 4)).toHaveAccessibleName('Row 1, seat 4');
  // The whole back row premium.
  await seat(page, 3, 2).click();
  await page.getByRole('button', { name: 'Choose the whole row' }).click();
  await page.getByRole('button', { name: 'Premium', exact: true }).click();
  await expect(seat(page, 3, 8)).toHaveAccessibleName('Row 3, seat 8, premium');
  await shoot(page, 'drawn-en-1280');

  // Saved as a new version, after the confirmation says what happens to screenings on sale.
  await page.getByRole('button', { name: 'Save as new version' }).click();
  const confirm = page.getByRole('dialog', { name: 'Save a new version' });
  await expect(confirm).toContainText(`as version ${lastVersion + 1} of ${HALL_EN}`);
  await expect(confirm).toContainText('Screenings already made keep the version they were sold on');
  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/api/staff/seatPlans') && r.request().method() === 'POST',
  );
  await confirm.getByRole('button', { name: 'Save version' }).click();
  const answer = await saved;
  expect(answer.status(), await answer.text()).toBe(201);
  const planId = ((await answer.json()) as { version: { id: number } }).version.id;
  await expect(page.locator('.seat-plans__saved')).toContainText(
    `Saved as version ${lastVersion + 1}`,
  );
  await expect(page.locator('.seat-plans__table tbody tr').first()).toContainText('Newest');

  // A screening added on the hall is sold on the new plan. (A run before this one on the same
  // server may have left its screening: cancelled ones do not count for overlaps.)
  const day = addDays(todayInCinema(), 9);
  const week = await page.request.get(`/api/staff/programme/week?locationId=4&from=${day}`);
  for (const s of (await week.json()).screenings as Array<{
    id: number;
    venueId: number;
    startsAt: string;
    cancelledAt: string | null;
  }>) {
    const early = s.startsAt.startsWith(day) && s.startsAt.slice(11, 13) < '07';
    if (s.venueId === HALL && s.cancelledAt === null && early)
      await page.request.post(`/api/staff/programme/screenings/${s.id}/cancel`, { data: {} });
  }
  const added = await page.request.post('/api/staff/programme/screenings', {
    data: { featureId: 5, venueId: HALL, date: day, time: '08:00' },
  });
  expect(added.status(), await added.text()).toBe(201);
  const screening = ((await added.json()) as { screening: { id: number; seatplanId: number } })
    .screening;
  expect(screening.seatplanId).toBe(planId);

  // A buyer in another browser sees the drawn hall and buys a seat on it.
  const buyerContext = await browser.newContext();
  const buyerPage = await buyerContext.newPage();
  await buyerPage.goto(`/order/${screening.id}?lang=en`);
  const map = buyerPage.locator('.seat-map__svg');
  await expect(map.getByRole('button', { name: /^Row 1, seat 8, wheelchair space/ })).toBeVisible();
  await expect(map.locator('.seat')).toHaveCount(24);
  const buyer = await playwrightRequest.newContext({ baseURL });
  const held = await holdOneSeat(buyer, screening.id);
  const bought = await buyHeldSeatCommitted(buyer, screening.id, held);
  expect(bought.reservationNumber).not.toBe('');
  const status = await (
    await buyer.get(`/api/seats/seats-statusV2?presentationId=${screening.id}`)
  ).json();
  expect(
    (status.seats as Array<{ s: string }>).filter((s) => s.s === 'sold' || s.s === 'heldByMe'),
  ).toHaveLength(1);
  await buyerContext.close();
  await buyer.dispose();

  // The screening was only for this test: cancelled again (the buyer is refunded).
  const cancelled = await page.request.post(
    `/api/staff/programme/screenings/${screening.id}/cancel`,
    { data: {} },
  );
  expect(cancelled.status()).toBe(200);
});

for (const lang of ['he', 'en'] as const) {
  for (const width of [768, 1280]) {
    test(`the editor in ${lang} at ${width} px is axe-clean and fits`, async ({ page }) => {
      await page.setViewportSize({ width, height: 1000 });
      await logInAsHaifaManager(page, lang);
      await page.goto(`/PRES-live?lang=${lang}&view=seatPlans&sh=7`);
      await expect(page.locator('.seat-plans__table')).toBeVisible();
      await shoot(page, `versions-${lang}-${width}`);
      await page.locator('.seat-plans__actions .staff-button').first().click();
      await expect(page.locator('.plan-canvas .seat').first()).toBeVisible();
      await shoot(page, `editor-${lang}-${width}`);
    });
  }
}
