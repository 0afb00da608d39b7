import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type FrameLocator, type Page } from '@playwright/test';
import { scheduleFor } from './api';
import { OrderPage } from './pages/OrderPage';
import { addDays, todayInCinema } from '../src/lib/format';

/** A plain free seat's spoken name, in Hebrew or English. */
export const PLAIN_FREE_HE = /^שורה [^,]+, מושב [^,]+, פנוי$/;
export const PLAIN_FREE_EN = /^Row [^,]+, seat [^,]+, available$/;

/**
 * The `index`th reserved screening on sale `daysAhead` days from today. Each spec picks its own
 * (day, index) pair so that no two specs hold seats of the same screening.
 */
export async function reservedScreening(
  request: APIRequestContext,
  daysAhead: number,
  index: number,
): Promise<number> {
  const day = await scheduleFor(request, addDays(todayInCinema(), daysAhead));
  const candidates = day.presentations.filter(
    (p) => p.isOnSale && !p.isVod && p.seatingMode === 'reserved',
  );
  expect(
    candidates.length,
    `at least ${index + 1} reserved screenings on sale in ${daysAhead} days`,
  ).toBeGreaterThan(index);
  return candidates[index].id;
}

/** Holds `count` plain free seats of one row, starting with the seat Tab reaches first. */
export async function holdSeatsInOneRow(order: OrderPage, count: number, plainFree: RegExp) {
  const first = order.seatMap().locator('[role="button"][tabindex="0"]');
  const firstName = (await first.getAttribute('aria-label'))!;
  expect(firstName).toMatch(plainFree);
  await first.click();
  await expect(order.selectedSeats()).toHaveCount(1);
  if (count === 1) return [firstName];
  const row = firstName.split(',')[0];
  const others = await order
    .seats(plainFree)
    .evaluateAll(
      (els, rowName) =>
        els
          .map((el) => el.getAttribute('aria-label') ?? '')
          .filter((label) => label.startsWith(`${rowName},`)),
      row,
    );
  expect(others.length).toBeGreaterThanOrEqual(count - 1);
  for (let i = 0; i < count - 1; i += 1) {
    await order.seatMap().getByRole('button', { name: others[i], exact: true }).click();
    await expect(order.selectedSeats()).toHaveCount(i + 2);
  }
  return [firstName, ...others.slice(0, count - 1)];
}

/** Seat step → tickets step → (extras) → the details form, first ticket for every seat. */
export async function throughTicketsAndExtras(
  page: Page,
  order: OrderPage,
  detailsHeading: string,
) {
  await order.continueButton().click();
  const seat = order.seatTickets(0);
  await expect(seat).toBeVisible();
  // Every seat starts with the regular ticket.
  await expect(order.seatTicketChoice(0)).not.toHaveValue('');
  await order.continueButton().click();

  // Extras, when the complex sells any: none taken.
  const details = page.getByRole('heading', { name: detailsHeading });
  await expect(details.or(order.continueButton())).toBeVisible();
  if (!(await details.isVisible())) await order.continueButton().click();
  await expect(details).toBeVisible();
}

export interface DetailsLabels {
  firstName: RegExp;
  lastName: RegExp;
  email: RegExp;
  verifyEmail: RegExp;
  mobile: RegExp;
  terms: string;
  submit: string;
}

export const DETAILS_HE: DetailsLabels = {
  firstName: /^שם פרטי/,
  lastName: /^שם משפחה/,
  email: /^אימייל/,
  verifyEmail: /^אימות אימייל/,
  mobile: /^טלפון נייד/,
  terms: 'תקנון',
  submit: 'המשך לתשלום',
};

export const DETAILS_EN: DetailsLabels = {
  firstName: /^First name/,
  lastName: /^Last name/,
  email: /^Email/,
  verifyEmail: /^Confirm email/,
  mobile: /^Mobile number/,
  terms: 'Terms',
  submit: 'Continue to payment',
};

export async function fillDetails(page: Page, labels: DetailsLabels) {
  await page.getByLabel(labels.firstName).fill('Dana');
  await page.getByLabel(labels.lastName).fill('Levi');
  await page.getByLabel(labels.email).fill('dana@example.com');
  await page.getByLabel(labels.verifyEmail).fill('dana@example.com');
  await page.getByLabel(labels.mobile).fill('052-4318876');
  const terms = page.getByRole('group', { name: labels.terms });
  for (const box of await terms.getByRole('checkbox').all()) await box.check();
  await page.getByRole('button', { name: labels.submit }).click();
}

/** Types a card into the test gateway's form (a page, or the dialog's frame) and sends it. */
async function sendCardForm(gateway: Page | FrameLocator, cardNumber: string) {
  await gateway.locator('input[name="cardNumber"]').fill(cardNumber);
  await gateway.locator('input[name="expiry"]').fill('12/30');
  await gateway.locator('input[name="cvv"]').fill('123');
  await gateway.locator('button[type="submit"], input[type="submit"]').first().click();
}

/** Types a card into the gateway's form in the payment dialog and sends it. */
export async function payByCard(page: Page, frameTitle: string, cardNumber: string) {
  await sendCardForm(page.frameLocator(`iframe[title="${frameTitle}"]`), cardNumber);
}

/** Pays on the test gateway's own page, which the whole window went to. */
export async function payOnGatewayPage(page: Page, cardNumber: string) {
  await page.waitForURL(/\/pay\//);
  await sendCardForm(page, cardNumber);
}

/** What a buyer reads on the way from the seat map to the paid reservation, in one language. */
export interface BuyWords {
  lang: 'he' | 'en';
  plainFree: RegExp;
  details: DetailsLabels;
  detailsHeading: string;
  pay: RegExp;
  payDialog: string;
  gatewayFrame: string;
  paid: string;
}

/**
 * Buys two plain seats of one row of the screening as a new guest, paying by card; ends on the
 * reservation's page. The seats bought, by row and seat name.
 */
export async function buyTwoSeats(page: Page, presentationId: number, w: BuyWords) {
  await page.goto(
    w.lang === 'he' ? `/order/${presentationId}` : `/order/${presentationId}?lang=en`,
  );
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  const held = await holdSeatsInOneRow(order, 2, w.plainFree);
  const seats = held.map((name) => {
    const [, row, seat] = /^\S+ ([^,]+), \S+ ([^,]+),/.exec(name)!;
    return { row, seat };
  });
  await throughTicketsAndExtras(page, order, w.detailsHeading);
  await fillDetails(page, w.details);
  await page.getByRole('button', { name: w.pay }).click();
  await expect(page.getByRole('dialog', { name: w.payDialog })).toBeVisible();
  await payByCard(page, w.gatewayFrame, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: w.paid })).toBeVisible({ timeout: 20_000 });
  await expect(page).toHaveURL(/\/reservation\/[0-9a-f]{32}/);
  return seats;
}

/** A full-page picture of the final state, into web/e2e-artifacts/. */
export async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const path = fileURLToPath(new URL(`../e2e-artifacts/${name}`, import.meta.url));
  await page.screenshot({ path, fullPage: true });
}
