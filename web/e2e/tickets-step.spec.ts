import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { scheduleFor } from './api';
import { switchLanguage } from './pages/language';
import { OrderPage } from './pages/OrderPage';
import { addDays, todayInCinema } from '../src/lib/format';

const PLAIN_FREE = /^שורה [^,]+, מושב [^,]+, פנוי$/;

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

async function shoot(page: Page, name: string) {
  // Scrolled to the top, so the sticky header sits where it belongs in the full-page picture.
  await page.evaluate(() => window.scrollTo(0, 0));
  const path = fileURLToPath(new URL(`../e2e-artifacts/${name}`, import.meta.url));
  await page.screenshot({ path, fullPage: true });
}

test('the buyer chooses a regular and a child ticket, adds a popcorn and reaches the details', async ({
  page,
  request,
}) => {
  // Two days ahead, so nothing here meets the seats the seat-step test holds.
  const day = await scheduleFor(request, addDays(todayInCinema(), 2));
  const candidates = day.presentations.filter(
    (p) => p.isOnSale && !p.isVod && p.seatingMode === 'reserved',
  );
  // A screening whose complex sells products and whose hall sells the standard group.
  let presentationId: number | undefined;
  for (const p of candidates) {
    const answer = await request.get(`/api/presentations/${p.id}`);
    const body = (await answer.json()) as { presentation: { products?: unknown[] } };
    const groups = await request.get(`/api/presentations/${p.id}/ticketGroups`);
    const g = (await groups.json()) as { ticketGroups: { tickets: { nameEn: string }[] }[] };
    const hasChild = g.ticketGroups.some((grp) => grp.tickets.some((t) => /child/i.test(t.nameEn)));
    if ((body.presentation.products?.length ?? 0) > 0 && hasChild) {
      presentationId = p.id;
      break;
    }
  }
  expect(presentationId, 'a reserved screening with products and a child ticket').toBeDefined();

  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();

  const first = order.seatMap().locator('[role="button"][tabindex="0"]');
  const firstName = (await first.getAttribute('aria-label'))!;
  expect(firstName).toMatch(PLAIN_FREE);
  await first.click();
  await expect(order.selectedSeats()).toHaveCount(1);
  const row = firstName.split(',')[0];
  const others = await order
    .seats(PLAIN_FREE)
    .evaluateAll(
      (els, rowName) =>
        els
          .map((el) => el.getAttribute('aria-label') ?? '')
          .filter((label) => label.startsWith(`${rowName},`)),
      row,
    );
  await order.seatMap().getByRole('button', { name: others[0], exact: true }).click();
  await expect(order.selectedSeats()).toHaveCount(2);

  await order.continueButton().click();
  await expect(page.getByRole('heading', { name: 'בחירת כרטיסים' })).toBeVisible();
  await expect(order.seatTickets(1)).toBeVisible();
  // The first seat keeps the regular ticket chosen for it; the second gets a child ticket.
  await expect(order.seatTicketChoice(0).locator('option:checked')).toHaveText(/^רגיל/);
  await expect(order.seatTicketChoice(1).locator('option:checked')).toHaveText(/^רגיל/);
  // "1 regular, 1 child": the child ticket goes to a seat by itself.
  await order.moreTickets('ילד (עד גיל 12)').click();
  await expect(order.seatTicketChoice(0).locator('option:checked')).toHaveText(/^רגיל/);
  await expect(order.seatTicketChoice(1).locator('option:checked')).toHaveText(/^ילד/);
  // A reload and a language switch keep the choice: the child ticket stays a child's.
  await page.reload();
  await expect(order.seatTicketChoice(1).locator('option:checked')).toHaveText(/^ילד/);
  await switchLanguage(page, 'English');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(order.seatTicketChoice(0).locator('option:checked')).toHaveText(/^Regular/);
  await expect(order.seatTicketChoice(1).locator('option:checked')).toHaveText(/^Child/);
  await switchLanguage(page, 'עברית');
  await expect(page.locator('html')).toHaveAttribute('lang', 'he');
  await expect(order.seatTicketChoice(0).locator('option:checked')).toHaveText(/^רגיל/);
  await expect(order.seatTicketChoice(1).locator('option:checked')).toHaveText(/^ילד/);
  await expect(order.timer()).toHaveText(/\d+:\d\d/);
  await page.getByRole('button', { name: 'יש לך שובר או קוד?' }).click();
  await noSidewaysScroll(page);
  await shoot(page, 'tickets-step-he-390.png');

  await order.continueButton().click();
  await expect(page.getByRole('heading', { name: 'הוספת תוספות' })).toBeVisible();
  await page
    .getByRole('button', { name: /^עוד .*פופקורן/ })
    .first()
    .click();
  await expect(page.locator('.product-card').first().getByRole('status')).toHaveText('1');
  await expect(order.timer()).toHaveText(/\d+:\d\d/);
  await noSidewaysScroll(page);
  await shoot(page, 'products-step-he-390.png');

  await order.continueButton().click();
  await expect(order.steps().locator('[aria-current="step"]')).toHaveText(/פרטים ותשלום/);
  await expect(page.locator('.payment-step')).toBeVisible();
});
