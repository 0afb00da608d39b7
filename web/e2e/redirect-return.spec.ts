import { expect, test } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_EN,
  PLAIN_FREE_EN,
  fillDetails,
  holdSeatsInOneRow,
  reservedScreening,
  throughTicketsAndExtras,
} from './order-flow';

// A gateway that takes the whole window (PayU, PayPal, a bank's own page): the buyer pays there
// and the gateway sends the window back to /order/{id}?paymentId=…; the order page checks the
// payment ("redirect returned"), commits it and moves to the reservation's own address, which a
// reload keeps.
test('after paying on a gateway page that took the whole window, the order page finishes the order', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const presentationId = await reservedScreening(request, 5, 1);

  await page.setViewportSize({ width: 390, height: 860 });
  await page.goto(`/order/${presentationId}?lang=en`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_EN);
  await throughTicketsAndExtras(page, order, 'Your details');
  await fillDetails(page, DETAILS_EN);
  await page.getByRole('button', { name: /^Pay / }).click();
  const frame = page.locator('iframe[title="Secure payment form"]');
  await expect(frame).toBeVisible();
  const gatewayPage = (await frame.getAttribute('src'))!;
  expect(gatewayPage).toMatch(/^\/pay\/[^/?]+/);

  // The gateway's page in the whole window, as a redirecting provider would show it.
  await page.goto(gatewayPage);
  await page.locator('input[name="cardNumber"]').fill('4242 4242 4242 4242');
  await page.locator('input[name="expiry"]').fill('12/30');
  await page.locator('input[name="cvv"]').fill('123');
  await page.locator('button[type="submit"], input[type="submit"]').first().click();

  // Back on the order page with ?paymentId=…: checked, committed, confirmed at the reservation's
  // own address.
  await expect(page.getByRole('heading', { name: 'Your order is complete' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page).toHaveURL(/\/reservation\/[0-9a-f]+\?lang=en$/);
  expect(new URL(page.url()).searchParams.get('paymentId'), 'taken out of the address').toBeNull();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Your order is complete' })).toBeVisible();
});
