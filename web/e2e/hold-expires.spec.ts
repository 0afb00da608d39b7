import { expect, test } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import { PLAIN_FREE_HE, holdSeatsInOneRow, reservedScreening, shoot } from './order-flow';

// The server is shared by every spec: put the timers back whatever happens here.
test.afterEach(async ({ request }) => {
  const reset = await request.delete('/api/test/timer-mode');
  expect(reset.status()).toBe(204);
});

test('a hold runs out after the seat step timer, and another buyer can then take the seat', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  const presentationId = await reservedScreening(request, 4, 0);

  const timers = await request.post('/api/test/timer-mode', {
    data: {
      chooseSeatsInSeconds: 5,
      chooseTicketsInSeconds: 600,
      chooseProductsInSeconds: 600,
      customerInfoInSeconds: 600,
    },
  });
  expect(timers.ok(), `POST /api/test/timer-mode: HTTP ${timers.status()}`).toBeTruthy();

  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  const [seatName] = await holdSeatsInOneRow(order, 1, PLAIN_FREE_HE);
  const seatPlace = seatName.replace(/, פנוי$/, '');

  // errors.timeExpired from he.json, with its two ways on.
  const expired = page.getByRole('alert').filter({ hasText: 'הזמן הסתיים' });
  await expect(expired).toBeVisible({ timeout: 20_000 });
  await expect(expired.getByRole('button', { name: 'עוד זמן' })).toBeVisible();
  await expect(expired.getByRole('button', { name: 'רענון' })).toBeVisible();
  await shoot(page, 'hold-expires-he-390.png');
  // Back to the usual timers, so the other buyer's hold does not run out under the test.
  expect((await request.delete('/api/test/timer-mode')).status()).toBe(204);

  // Another buyer, in a browser context of their own (own session cookie).
  const other = await browser.newContext({ locale: 'he-IL', timezoneId: 'Asia/Jerusalem' });
  try {
    const otherPage = await other.newPage();
    await otherPage.setViewportSize({ width: 390, height: 900 });
    await otherPage.goto(`/order/${presentationId}`);
    const otherOrder = new OrderPage(otherPage);
    await expect(otherOrder.seatMap()).toBeVisible();
    const seat = otherOrder
      .seatMap()
      .getByRole('button', { name: `${seatPlace}, פנוי`, exact: true });
    await expect(seat).toBeVisible();
    await seat.click();
    await expect(otherOrder.selectedSeats()).toHaveCount(1);
    await expect(otherOrder.selectedSeats()).toHaveAttribute(
      'aria-label',
      new RegExp(`^${seatPlace},`),
    );
    await expect(otherOrder.timer()).toHaveText(/\d+:\d\d/);
  } finally {
    await other.close();
  }
});
