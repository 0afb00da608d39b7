import { expect, test } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_HE,
  PLAIN_FREE_HE,
  fillDetails,
  holdSeatsInOneRow,
  payByCard,
  reservedScreening,
  shoot,
  throughTicketsAndExtras,
} from './order-flow';

test('a declined card says why and what to do, and another card then pays the order', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const presentationId = await reservedScreening(request, 3, 1);

  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_HE);
  await throughTicketsAndExtras(page, order, 'פרטי המזמין');
  await fillDetails(page, DETAILS_HE);

  await expect(page.getByRole('region', { name: 'סיכום ההזמנה' })).toBeVisible();
  await page.getByRole('button', { name: /^לתשלום / }).click();
  const dialog = page.getByRole('dialog', { name: 'תשלום' });
  await expect(dialog).toBeVisible();

  // Declined for insufficient funds: the dialog says why and what to do (the issuer's reason,
  // checkout.payment.declined.insufficientFunds), in Hebrew, with a way to try again.
  await payByCard(page, 'טופס תשלום מאובטח', '4000 0000 0000 9995');
  await expect(dialog.getByRole('alert')).toHaveText(
    /^הכרטיס סורב: אין בו די יתרה או מסגרת אשראי. לא נגבה כסף. שלמו בכרטיס אחר/,
  );
  await expect(dialog.getByRole('status')).toHaveText('התשלום לא עבר.');
  await dialog.getByRole('button', { name: 'לנסות שוב' }).click();

  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await payByCard(page, 'טופס תשלום מאובטח', '4242 4242 4242 4242');

  await expect(page.getByRole('heading', { name: 'ההזמנה הושלמה' })).toBeVisible({
    timeout: 20_000,
  });
  const tickets = page.getByRole('region', { name: 'הכרטיסים' });
  await expect(tickets.getByRole('listitem').first()).toContainText(/שורה .+, מושב .+/);
  await shoot(page, 'declined-card-he-390.png');
});
