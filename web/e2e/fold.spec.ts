import { expect, test, type Locator, type Page } from '@playwright/test';
import { scheduleFor } from './api';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_EN,
  PLAIN_FREE_HE,
  fillDetails,
  holdSeatsInOneRow,
  reservedScreening,
  throughTicketsAndExtras,
} from './order-flow';
import { addDays, todayInCinema } from '../src/lib/format';

// What a buyer sees without scrolling, measured as bounding boxes against the viewport: on a
// 390×844 phone the seats (and on the next step the tickets) start above the fold and the whole
// hall is in view; on a 1280×800 laptop the gateway's Pay button is in the payment dialog's view.

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  expect(b, 'the element is laid out').not.toBeNull();
  return b!;
}

/** The drawn boxes of every seat of the map. */
function seatBoxes(page: Page) {
  return new OrderPage(page)
    .seatMap()
    .locator('[role="button"]')
    .evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, left: r.left, right: r.right, bottom: r.bottom };
      }),
    );
}

test('on a 390×844 phone the first row of seats is above the fold and the whole hall is in view', async ({
  page,
  request,
}) => {
  const day = await scheduleFor(request, addDays(todayInCinema(), 3));
  // The big hall (venue 1): side blocks at both edges.
  const screening = day.presentations.find((p) => p.isOnSale && !p.isVod && p.venueId === 1);
  expect(screening, 'a screening in the big hall in 3 days').toBeDefined();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/order/${screening!.id}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));

  const seats = await seatBoxes(page);
  expect(seats.length).toBeGreaterThan(100);
  const firstRowTop = Math.min(...seats.map((s) => s.top));
  const lastRowBottom = Math.max(...seats.map((s) => s.bottom));
  expect(firstRowTop, 'the first row starts above the fold').toBeLessThan(844);
  // More than the first row: the hall's first half is in view before any scroll.
  expect((firstRowTop + lastRowBottom) / 2).toBeLessThan(844);
  // Every seat from the leftmost block to the rightmost is inside the screen's width.
  expect(Math.min(...seats.map((s) => s.left))).toBeGreaterThanOrEqual(0);
  expect(Math.max(...seats.map((s) => s.right))).toBeLessThanOrEqual(390);
  const viewport = page.locator('.seat-map__viewport');
  expect(await viewport.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
});

test('on a 390×844 phone the tickets start above the fold', async ({ page, request }) => {
  const presentationId = await reservedScreening(request, 3, 2);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 2, PLAIN_FREE_HE);
  await order.continueButton().click();
  await expect(order.seatTickets(1)).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  // The "how many of each" chooser and the first seat's ticket are on the first screen.
  const plus = await box(order.moreTickets('ילד (עד גיל 12)'));
  expect(plus.y + plus.height).toBeLessThan(844);
  const firstSeat = await box(order.seatTicketChoice(0));
  expect(firstSeat.y + firstSeat.height).toBeLessThan(844);
});

test('on a 1280×800 laptop the Pay button of the payment dialog is in view without scrolling', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const presentationId = await reservedScreening(request, 3, 3);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/order/${presentationId}?lang=en`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await order
    .seats(/^Row [^,]+, seat [^,]+, available$/)
    .first()
    .click();
  await expect(order.selectedSeats()).toHaveCount(1);
  await throughTicketsAndExtras(page, order, 'Your details');
  await fillDetails(page, DETAILS_EN);
  await page.getByRole('button', { name: /^Pay / }).click();
  const dialog = page.getByRole('dialog', { name: 'Payment' });
  await expect(dialog).toBeVisible();
  const frame = page.locator('iframe[title="Secure payment form"]');
  const gateway = page.frameLocator('iframe[title="Secure payment form"]');
  const pay = gateway.locator('button[type="submit"], input[type="submit"]').first();
  await expect(pay).toBeVisible();

  // The button lies inside the frame's box, and the frame's box inside the window: nothing to
  // scroll, in the page or in the frame.
  const button = await box(pay);
  const frameBox = await box(frame);
  expect(button.y).toBeGreaterThanOrEqual(frameBox.y);
  expect(button.y + button.height).toBeLessThanOrEqual(frameBox.y + frameBox.height);
  expect(frameBox.y).toBeGreaterThanOrEqual(0);
  expect(button.y + button.height).toBeLessThanOrEqual(800);
  const dialogBox = await box(dialog);
  expect(frameBox.y + frameBox.height).toBeLessThanOrEqual(dialogBox.y + dialogBox.height);
});
