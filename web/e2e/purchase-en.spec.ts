import { expect, test } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_EN,
  PLAIN_FREE_EN,
  fillDetails,
  holdSeatsInOneRow,
  payByCard,
  reservedScreening,
  shoot,
  throughTicketsAndExtras,
} from './order-flow';

test('in English, the buyer pays with a 3-D Secure card in the dialog and gets the confirmation', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const presentationId = await reservedScreening(request, 5, 0);

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/order/${presentationId}?lang=en`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_EN);
  await throughTicketsAndExtras(page, order, 'Your details');
  await fillDetails(page, DETAILS_EN);

  await expect(page.getByRole('region', { name: 'Order summary' })).toBeVisible();
  await page.getByRole('button', { name: /^Pay / }).click();
  const dialog = page.getByRole('dialog', { name: 'Payment' });
  await expect(dialog).toBeVisible();
  await payByCard(page, 'Secure payment form', '4000 0000 0000 3220');

  // The bank's challenge, inside the same frame.
  const gateway = page.frameLocator('iframe[title="Secure payment form"]');
  await gateway.locator('input[name="code"]').fill('1234');
  await gateway.locator('button[type="submit"], input[type="submit"]').first().click();

  await expect(page.getByRole('heading', { name: 'Your order is complete' })).toBeVisible({
    timeout: 20_000,
  });
  const tickets = page.getByRole('region', { name: 'Your tickets' });
  await expect(tickets.getByRole('listitem').first()).toContainText(/row .+, seat .+/);
  const pdf = page.getByRole('link', { name: 'Download tickets (PDF)' });
  await expect(pdf).toHaveAttribute(
    'href',
    /\/api\/reservations\/.+\/tickets\.pdf\?exp=\d+&sig=[0-9a-f]+&lang=en$/,
  );
  const pdfAnswer = await page.request.get((await pdf.getAttribute('href'))!);
  expect(pdfAnswer.headers()['content-type']).toContain('application/pdf');

  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await shoot(page, 'purchase-en-360.png');
});
