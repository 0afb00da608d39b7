import { expect, test } from '@playwright/test';
import { scheduleFor } from './api';
import { OrderPage } from './pages/OrderPage';
import { addDays, todayInCinema } from '../src/lib/format';

const PLAIN_FREE = /^שורה [^,]+, מושב [^,]+, פנוי$/;

test('the buyer pays with a 3-D Secure card in the dialog and gets the confirmation', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const day = await scheduleFor(request, addDays(todayInCinema(), 2));
  const presentation = day.presentations.find(
    (p) => p.isOnSale && !p.isVod && p.seatingMode === 'reserved',
  );
  expect(presentation, 'a reserved screening on sale in two days').toBeDefined();

  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/order/${presentation!.id}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();

  // One plain free seat, then its first ticket.
  await order.seats(PLAIN_FREE).first().click();
  await expect(order.selectedSeats()).toHaveCount(1);
  await order.continueButton().click();
  const seat = order.seatTickets(0);
  await expect(seat).toBeVisible();
  await expect(order.seatTicketChoice(0)).not.toHaveValue('');
  await order.continueButton().click();

  // Extras, when the complex sells any: none taken.
  const details = page.getByRole('heading', { name: 'פרטי המזמין' });
  await expect(details.or(order.continueButton())).toBeVisible();
  if (!(await details.isVisible())) await order.continueButton().click();
  await expect(details).toBeVisible();

  await page.getByLabel(/^שם פרטי/).fill('דנה');
  await page.getByLabel(/^שם משפחה/).fill('לוי');
  await page.getByLabel(/^אימייל/).fill('dana@example.com');
  await page.getByLabel(/^אימות אימייל/).fill('dana@example.com');
  await page.getByLabel(/^טלפון נייד/).fill('052-4318876');
  for (const box of await page.getByRole('checkbox', { name: /תקנון/ }).all()) await box.check();
  await page.getByRole('button', { name: 'המשך לתשלום' }).click();

  await expect(page.getByRole('region', { name: 'סיכום ההזמנה' })).toBeVisible();
  await page.getByRole('button', { name: /^לתשלום / }).click();

  const dialog = page.getByRole('dialog', { name: 'תשלום' });
  await expect(dialog).toBeVisible();
  const gateway = page.frameLocator('iframe[title="טופס תשלום מאובטח"]');
  await gateway.locator('input[name="cardNumber"]').fill('4000 0000 0000 3220');
  await gateway.locator('input[name="expiry"]').fill('12/30');
  await gateway.locator('input[name="cvv"]').fill('123');
  await gateway.locator('button[type="submit"], input[type="submit"]').first().click();

  // The bank's challenge, inside the same frame.
  await gateway.locator('input[name="code"]').fill('1234');
  await gateway.locator('button[type="submit"], input[type="submit"]').first().click();

  await expect(page.getByRole('heading', { name: 'ההזמנה הושלמה' })).toBeVisible({
    timeout: 20_000,
  });
  const tickets = page.getByRole('region', { name: 'הכרטיסים' });
  await expect(tickets.getByRole('listitem').first()).toContainText(/שורה .+, מושב .+/);
  const pdf = page.getByRole('link', { name: 'הורדת הכרטיסים (PDF)' });
  await expect(pdf).toHaveAttribute(
    'href',
    /\/api\/reservations\/.+\/tickets\.pdf\?exp=\d+&sig=[0-9a-f]+&lang=he$/,
  );
  const pdfAnswer = await page.request.get((await pdf.getAttribute('href'))!);
  expect(pdfAnswer.headers()['content-type']).toContain('application/pdf');

  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
});
