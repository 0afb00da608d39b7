import { expect, test } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import { PLAIN_FREE_HE, holdSeatsInOneRow, reservedScreening, shoot } from './order-flow';

// The server is shared by every spec: put the timers back whatever happens here.
test.afterEach(async ({ request }) => {
  const reset = await request.delete('/api/test/timer-mode');
  expect(reset.status()).toBe(204);
});

test('the last minute warns and extends once; at zero the seats still free are taken back', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const presentationId = await reservedScreening(request, 2, 0);

  // Short steps: the seat step's clock starts inside its last minute; the extras and the details
  // run out in 15 s.
  const timers = await request.post('/api/test/timer-mode', {
    data: {
      chooseSeatsInSeconds: 40,
      chooseTicketsInSeconds: 40,
      chooseProductsInSeconds: 15,
      customerInfoInSeconds: 15,
    },
  });
  expect(timers.ok(), `POST /api/test/timer-mode: HTTP ${timers.status()}`).toBeTruthy();

  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  const held = await holdSeatsInOneRow(order, 2, PLAIN_FREE_HE);
  const [, secondPlace] = held.map((name) => name.replace(/, פנוי$/, ''));

  // The tickets step: inside the last minute, the warning (order.clock.warning) and its offer.
  await order.continueButton().click();
  const warning = page.locator('.countdown__warning');
  await expect(warning).toContainText('נותרה פחות מדקה');
  await expect(page.locator('.countdown__live')).toHaveText(/^נותרה פחות מדקה אפשר לקבל עוד זמן/);
  await shoot(page, 'clock-warning-he-390.png');
  const before = await order.timer().innerText();
  await warning.getByRole('button', { name: 'עוד זמן' }).click();
  // The step's one extension: the clock gets the step's time again, said in a toast.
  await expect(page.getByRole('status').filter({ hasText: 'קיבלתם עוד זמן' })).toBeVisible();
  await expect(warning.getByRole('button', { name: 'עוד זמן' })).toHaveCount(0);
  const seconds = (text: string) => {
    const [m, s] = text.replace(/^.*?(\d+:\d\d).*$/, '$1').split(':');
    return Number(m) * 60 + Number(s);
  };
  expect(seconds(await order.timer().innerText())).toBeGreaterThan(seconds(before) + 20);

  // On to the next step (its own short clock): every seat keeps the regular ticket it starts with.
  for (const index of [0, 1]) await expect(order.seatTicketChoice(index)).not.toHaveValue('');
  await order.continueButton().click();
  const details = page.getByRole('heading', { name: 'פרטי המזמין' });
  const products = page.getByRole('heading', { name: 'הוספת תוספות' });
  await expect(details.or(products)).toBeVisible();
  const atProducts = await products.isVisible();

  // Zero: the step is locked, and the extension (not spent at this step) is offered.
  const expired = page.getByRole('alert').filter({ hasText: 'הזמן הסתיים' });
  await expect(expired).toBeVisible({ timeout: 30_000 });
  await expect(expired.getByRole('button', { name: 'עוד זמן' })).toBeEnabled();
  await expect(expired.getByRole('button', { name: 'בחירת מושבים מחדש' })).toBeEnabled();
  if (atProducts) await expect(order.continueButton()).toBeDisabled();
  else await expect(page.getByLabel(/^שם פרטי/)).toBeDisabled();
  await shoot(page, 'clock-expired-he-390.png');
  // Back to the usual timers, so that nobody's new hold runs out under the test.
  expect((await request.delete('/api/test/timer-mode')).status()).toBe(204);

  // Meanwhile another buyer takes the second seat.
  const other = await browser.newContext({ locale: 'he-IL', timezoneId: 'Asia/Jerusalem' });
  try {
    const otherPage = await other.newPage();
    await otherPage.goto(`/order/${presentationId}`);
    const otherOrder = new OrderPage(otherPage);
    const seat = otherOrder
      .seatMap()
      .getByRole('button', { name: `${secondPlace}, פנוי`, exact: true });
    await expect(seat).toBeVisible();
    await seat.click();
    await expect(otherOrder.selectedSeats()).toHaveCount(1);
  } finally {
    await other.close();
  }

  // "More time" at zero locks again what is still free, and names what was lost.
  await expired.getByRole('button', { name: 'עוד זמן' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'המושב הזה נתפס בינתיים' })).toContainText(
    secondPlace,
  );
  await expect(page.getByRole('heading', { name: 'בחירת כרטיסים' })).toBeVisible();
  await expect(order.seatTickets(0)).toBeVisible();
  await expect(order.seatTickets(1)).toHaveCount(0);
  await expect(order.timer()).toHaveText(/\d+:\d\d/);
  await expect(expired).toHaveCount(0);
  await shoot(page, 'clock-reclaimed-he-390.png');
});
