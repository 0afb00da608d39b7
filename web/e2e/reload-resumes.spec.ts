import { expect, test } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_HE,
  PLAIN_FREE_HE,
  fillDetails,
  holdSeatsInOneRow,
  reservedScreening,
  throughTicketsAndExtras,
} from './order-flow';

const seconds = (clock: string) => {
  const [m, s] = clock.replace(/^.*?(\d+:\d\d).*$/, '$1').split(':');
  return Number(m) * 60 + Number(s);
};

test('a reload at the payment step comes back to it with the same seats, total and timer', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const presentationId = await reservedScreening(request, 8, 0);

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 2, PLAIN_FREE_HE);
  await throughTicketsAndExtras(page, order, 'פרטי המזמין');
  await fillDetails(page, DETAILS_HE);

  const summary = page.getByRole('region', { name: 'סיכום ההזמנה' });
  const pay = page.getByRole('button', { name: /^לתשלום / });
  await expect(pay).toBeVisible();
  const before = await summary.innerText();
  const payBefore = await pay.innerText();
  const timeBefore = seconds(await order.timer().innerText());
  expect(before).toMatch(/שורה .+, מושב .+[\s\S]*שורה .+, מושב .+/);

  await page.reload();

  await expect(summary).toBeVisible();
  await expect(order.steps().getByText('פרטים ותשלום').locator('xpath=..')).toHaveAttribute(
    'aria-current',
    'step',
  );
  expect(await summary.innerText()).toBe(before);
  await expect(pay).toHaveText(payBefore);
  // The details were kept; the timer carries on from the server's expiresAt (not restarted).
  await expect(page.getByText(/^הפרטים נשמרו: Dana Levi$/)).toBeVisible();
  const timeAfter = seconds(await order.timer().innerText());
  expect(timeAfter).toBeLessThanOrEqual(timeBefore);
  expect(timeAfter).toBeGreaterThan(0);

  // The seats are still this buyer's: the payment dialog opens for the same amount.
  await pay.click();
  await expect(page.getByRole('dialog', { name: 'תשלום' })).toBeVisible();
});
