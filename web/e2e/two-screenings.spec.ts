import { expect, test } from '@playwright/test';
import { scheduleFor } from './api';
import { IndexPage } from './pages/IndexPage';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_HE,
  PLAIN_FREE_HE,
  fillDetails,
  holdSeatsInOneRow,
  payByCard,
  shoot,
} from './order-flow';
import { addDays, todayInCinema } from '../src/lib/format';

// Day 11 from today: no other spec holds seats there.
const DAYS_AHEAD = 11;

test('a new buyer orders two screenings in one order with the add-screening button', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const day = await scheduleFor(request, addDays(todayInCinema(), DAYS_AHEAD));
  const reserved = day.presentations.filter(
    (p) => p.isOnSale && !p.isVod && p.seatingMode === 'reserved',
  );
  const first = reserved[0];
  expect(first, `a reserved screening on sale in ${DAYS_AHEAD} days`).toBeDefined();
  const second = reserved.find(
    (p) =>
      p.id !== first.id &&
      p.authProfileId === first.authProfileId &&
      p.businessId === first.businessId,
  );
  expect(second, 'a second screening that may be bought with it').toBeDefined();

  // The first screening: two seats, their tickets, then "add a screening".
  await page.goto(`/order/${first.id}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 2, PLAIN_FREE_HE);
  await order.continueButton().click();
  await expect(order.seatTickets(1)).toBeVisible();
  await expect(order.seatTicketChoice(0)).not.toHaveValue('');
  await page.getByRole('button', { name: 'הוספת הקרנה', exact: true }).click();

  // Back on what's on: the buyer picks the day and the second screening's buy button.
  await expect(page).toHaveURL(/\/$/);
  const index = new IndexPage(page);
  await index.waitForSchedule();
  await index.chooseDay(DAYS_AHEAD);
  const buy = page
    .getByRole('link', { name: /^לרכישה:/ })
    .and(page.locator(`[href^="/order/${second!.id}"]`))
    .first();
  await buy.click();
  await expect(page).toHaveURL(new RegExp(`/order/${second!.id}`));

  // The second screening: one seat; the ticket list shows the first screening in the order.
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_HE);
  await order.continueButton().click();
  await expect(order.seatTickets(0)).toBeVisible();
  const earlier = page.getByRole('region', { name: 'גם בהזמנה זו' });
  await expect(earlier).toBeVisible();
  await expect(earlier.getByRole('listitem')).toHaveCount(1);
  await expect(earlier.getByRole('listitem')).toContainText('2 מושבים');
  await order.continueButton().click();

  // Extras (none), details, one payment for the whole cart.
  const details = page.getByRole('heading', { name: 'פרטי המזמין' });
  await expect(details.or(order.continueButton())).toBeVisible();
  if (!(await details.isVisible())) await order.continueButton().click();
  await expect(details).toBeVisible();
  await fillDetails(page, DETAILS_HE);
  const summary = page.getByRole('region', { name: 'סיכום ההזמנה' });
  await expect(summary).toBeVisible();
  await page.getByRole('button', { name: /^לתשלום / }).click();
  await expect(page.getByRole('dialog', { name: 'תשלום' })).toBeVisible();
  await payByCard(page, 'טופס תשלום מאובטח', '4242 4242 4242 4242');

  // One reservation: three tickets, and the other screening named.
  await expect(page.getByRole('heading', { name: 'ההזמנה הושלמה' })).toBeVisible({
    timeout: 20_000,
  });
  const tickets = page.getByRole('region', { name: 'הכרטיסים' });
  await expect(tickets.getByRole('listitem').filter({ hasText: /שורה .+, מושב .+/ })).toHaveCount(
    3,
  );
  await expect(page.getByRole('heading', { name: 'הקרנות נוספות בהזמנה' })).toBeVisible();
  await shoot(page, 'two-screenings-confirmation.png');

  // The cart is empty again: a new screening starts an order of its own.
  const kept = await page.evaluate(() => window.sessionStorage.getItem('kupa.cart.earlier'));
  expect(kept).toBeNull();
});
