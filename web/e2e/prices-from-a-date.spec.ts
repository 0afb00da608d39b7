import { expect, test, type Page } from '@playwright/test';
import { scheduleFor } from './api';
import { noSeriousAxeViolations } from './axe';
import { OrderPage } from './pages/OrderPage';
import { addDays, formatLongDate, todayInCinema } from '../src/lib/format';

// Prices from a date (issue 18 item 2, decision 0070), as a manager and a buyer meet them: the
// manager schedules the student ticket's new price from a day two weeks ahead in the programme's
// prices panel; a buyer's tickets step shows the new price on a screening of that day and the old
// one on the day before; the manager withdraws the change again (so no other spec meets it).
// Days 12 and 13 ahead: no other spec buys on them.

const STUDENT = 'Student';
const OLD_FULL = '41.00'; // ₪36 + its own ₪5 service charge
const NEW_FULL = '44.00'; // ₪39 + ₪5

async function logInAsManager(page: Page) {
  await page.goto('/PRES-live?lang=en');
  await page.locator('input[type="email"]').fill('manager@kupa.example');
  await page.locator('input[type="password"]').fill('demo-manager-pass');
  await page.locator('form button[type="submit"]').click();
  await expect(page.locator('.staff-views')).toBeVisible();
}

/** A screening on sale in the port's big hall (business 1) `days` days ahead. */
async function bigHallScreening(page: Page, days: number): Promise<number> {
  const day = await scheduleFor(page.request, addDays(todayInCinema(), days));
  const p = day.presentations.find((x) => x.venueId === 1 && x.isOnSale);
  expect(p, `a screening on sale in the big hall in ${days} days`).toBeDefined();
  return p!.id;
}

/** The student ticket's option in the buyer's tickets step of screening `id`. */
async function studentOption(page: Page, id: number) {
  await page.goto(`/order/${id}?lang=en`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await order.seatMap().locator('[role="button"][tabindex="0"]').click();
  await expect(order.selectedSeats()).toHaveCount(1);
  await order.continueButton().click();
  await expect(order.seatTickets(0)).toBeVisible();
  return order.seatTicketChoice(0).locator('option', { hasText: STUDENT });
}

test('a price scheduled from a day is the price of that day’s screenings in the tickets step', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const from = addDays(todayInCinema(), 13);
  const onTheDay = await bigHallScreening(page, 13);
  const dayBefore = await bigHallScreening(page, 12);

  await logInAsManager(page);
  await page.getByRole('button', { name: 'Programme', exact: true }).click();
  await page.getByRole('button', { name: 'Prices', exact: true }).click();
  const panel = page.locator('.prices');
  await expect(panel.getByRole('heading', { name: 'Ticket prices' })).toBeVisible();
  // A run before this one on the same server (a retry) may have left its change: withdraw it.
  const date = formatLongDate(from, 'en');
  const left = panel.getByRole('button', { name: new RegExp(`^Withdraw the change from ${date}`) });
  while ((await left.count()) > 0) {
    await left.first().click();
    await expect(left).toHaveCount(0);
  }

  const form = panel.getByRole('group', { name: 'Schedule a price' });
  await form.getByLabel('Ticket', { exact: true }).selectOption({ label: STUDENT });
  await form.getByLabel('From the day').fill(from);
  await form.getByLabel('New price (₪)').fill('39');
  await form.getByRole('button', { name: 'Schedule' }).click();
  await expect(panel.getByRole('status')).toHaveText('Scheduled.');
  const row = panel.getByRole('row', { name: new RegExp(`^${STUDENT}`) });
  await expect(row).toContainText(`From ${date}: ₪39.00`);
  await noSeriousAxeViolations(page);

  // A buyer, in another browser: the new price on the day, the old one the day before.
  const buyer = await browser.newContext({ locale: 'en-GB', timezoneId: 'Asia/Jerusalem' });
  const buyerPage = await buyer.newPage();
  await buyerPage.setViewportSize({ width: 1280, height: 900 });
  await expect(await studentOption(buyerPage, onTheDay)).toContainText(NEW_FULL);
  await expect(await studentOption(buyerPage, dayBefore)).toContainText(OLD_FULL);
  await buyer.close();

  // Withdrawn: the day's screening sells at the catalogue's price again, at once.
  await row.getByRole('button', { name: new RegExp(`^Withdraw the change from ${date}`) }).click();
  await expect(row).not.toContainText(`From ${date}`);
  const again = await browser.newContext({ locale: 'en-GB', timezoneId: 'Asia/Jerusalem' });
  const againPage = await again.newPage();
  await expect(await studentOption(againPage, onTheDay)).toContainText(OLD_FULL);
  await again.close();
});
