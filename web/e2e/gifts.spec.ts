import { expect, test } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_EN,
  DETAILS_HE,
  PLAIN_FREE_HE,
  fillDetails,
  holdSeatsInOneRow,
  payByCard,
  payOnGatewayPage,
  reservedScreening,
  shoot,
  throughTicketsAndExtras,
} from './order-flow';
import { mailedLink } from './outbox';

test('a new buyer signs up at the auth step, gives a gift card, pays a ticket order with it and sees both in the customer area', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto('/system-vouchers');
  await expect(page.getByRole('heading', { name: 'שוברי מתנה', level: 1 })).toBeVisible();
  // The box-office voucher is listed, not sold.
  await expect(page.getByText('נמכר בקופות הקולנוע בלבד')).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'gifts-vouchers-he-390.png');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shoot(page, 'gifts-vouchers-he-1280.png');
  await page.setViewportSize({ width: 390, height: 900 });

  // One ₪50 gift card.
  await page.getByRole('button', { name: /^עוד: כרטיס מתנה [^–]*50/ }).click();
  await page.getByRole('button', { name: 'המשך', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'ההזמנה שלך' })).toBeVisible();
  // Nobody is logged in: the auth step, and no details form yet.
  await expect(page.getByRole('heading', { name: 'התחברות לאזור האישי' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'התחברות' }).first()).toHaveAttribute(
    'aria-current',
    'step',
  );
  await expect(page.getByLabel(DETAILS_HE.firstName)).toHaveCount(0);
  await noSeriousAxeViolations(page);
  await shoot(page, 'gifts-auth-he-390.png');
  // A reload keeps the choice and the step.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'התחברות לאזור האישי' })).toBeVisible();
  await expect(page.getByText(/1 × כרטיס מתנה/)).toBeVisible();

  // A new customer: the account opened, confirmed by the mailed link, which logs them in and
  // brings them back to the voucher checkout with their choice.
  const email = `gift-${Date.now()}@example.com`;
  await page.getByRole('link', { name: 'פתיחת חשבון חדש' }).click();
  await expect(page.getByRole('heading', { name: 'כניסה לאזור האישי', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'הרשמה' });
  await form.getByLabel('שם פרטי').fill('נועה');
  await form.getByLabel('שם משפחה').fill('ברק');
  await form.getByLabel('כתובת מייל').fill(email);
  await form.getByLabel('סיסמה', { exact: true }).fill('סיסמה ארוכה 7');
  await form.getByRole('button', { name: 'הרשמה' }).click();
  await expect(page.getByRole('status')).toContainText(email);
  await page.goto(await mailedLink(request, email, 'verifyEmail'));
  await expect(page).toHaveURL(/\/system-vouchers\?.*step=checkout/, { timeout: 15_000 });
  await expect(page.getByText(/1 × כרטיס מתנה/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'התחברות לאזור האישי' })).toHaveCount(0);

  // The products step: a large popcorn prepaid with the gift, collected with the voucher.
  await expect(page.getByRole('heading', { name: 'תוספות לשובר' })).toBeVisible();
  await page.getByRole('button', { name: 'עוד פופקורן גדול' }).click();
  await expect(page.getByText(/סה״כ לתשלום.*79\.00/)).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'gifts-products-he-390.png');
  await page.getByRole('button', { name: /^הוספה .* והמשך$/ }).click();
  await expect(page.getByText(/1 × פופקורן גדול/)).toBeVisible();
  await fillDetails(page, DETAILS_HE);
  await page.getByRole('button', { name: /^לתשלום / }).click();
  await payOnGatewayPage(page, '4242 4242 4242 4242');

  await expect(page.getByRole('heading', { name: 'השוברים שלך מוכנים' })).toBeVisible({
    timeout: 20_000,
  });
  expect(page.url()).toMatch(/\/system-vouchers\?order=/);
  const reference = (await page.locator('.gift-voucher__reference bdi').first().innerText()).trim();
  expect(reference).toMatch(/^KV-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
  await expect(page.getByRole('heading', { name: '1 × פופקורן גדול' })).toBeVisible();
  await expect(page.getByText(/שולם.*79\.00/)).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'gifts-voucher-issued-he-390.png');
  // The confirmation has its own address: a reload keeps it.
  await page.reload();
  await expect(page.getByText(reference).first()).toBeVisible();

  // A ticket order: the gift card pays ₪50 of it, the card the rest.
  const presentationId = await reservedScreening(request, 3, 2);
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 2, PLAIN_FREE_HE);
  await throughTicketsAndExtras(page, order, 'פרטי המזמין');
  await fillDetails(page, DETAILS_HE);
  const voucher = page.getByRole('region', { name: 'תשלום בשובר' });
  await voucher.getByLabel('קוד השובר').fill(reference);
  await voucher.getByRole('button', { name: 'בדיקת יתרה' }).click();
  await expect(voucher.getByText(/יתרה: .*50/)).toBeVisible();
  await voucher.getByRole('button', { name: 'מימוש השובר' }).click();
  await expect(voucher.getByText(reference)).toBeVisible();
  await page.getByRole('button', { name: /^לתשלום / }).click();
  await expect(page.getByRole('dialog', { name: 'תשלום' })).toBeVisible();
  await payByCard(page, 'טופס תשלום מאובטח', '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'ההזמנה הושלמה' })).toBeVisible({
    timeout: 20_000,
  });

  // The gift card is spent: nothing left on it.
  const left = await request.get(
    `/api/payment/voucher?reference=${reference}&recaptchaToken=kupa-test-captcha`,
  );
  expect(left.status()).toBe(409);
  expect((await left.json()).error.code).toBe('voucherBalance');

  // The customer area has both: the ticket reservation, and the voucher, redeemed, with its
  // history naming that reservation.
  await page.goto('/customer-area');
  await expect(page.getByText('שלום, נועה')).toBeVisible();
  const tickets = page.getByRole('region', { name: 'הכרטיסים שלי' });
  await expect(tickets.locator('.area__card')).toHaveCount(1);
  const reservationNumber = (await tickets.locator('.area__number').first().innerText()).trim();
  const card = page.locator('.area__card', { hasText: reference });
  await expect(card).toBeVisible();
  await expect(card.locator('.area__badge')).toHaveText(/^(מומש|מומש חלקית)$/);
  await card.getByRole('button', { name: 'היסטוריה' }).click();
  const history = card.locator('.area__history li');
  await expect(history).toHaveCount(2);
  await expect(history.nth(0)).toContainText('נרכש');
  await expect(history.nth(1)).toContainText('מומש');
  await expect(history.nth(1)).toContainText(reservationNumber);
  await card.scrollIntoViewIfNeeded();
  await noSeriousAxeViolations(page);
  await shoot(page, 'gifts-customer-area-he-390.png');
});

test('a donor gives an amount of their own, with their ID number, in English', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto('/donations?lang=en');
  await page.goto('/system-vouchers?lang=en');
  await expect(page.getByRole('heading', { name: 'Gift vouchers', level: 1 })).toBeVisible();
  await expect(
    page
      .getByText('Sold at the cinemas’ box offices only')
      .or(page.getByText("Sold at the cinemas' box offices only")),
  ).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'gifts-vouchers-en-390.png');
  await page.goto('/donations?lang=en');
  await expect(page.getByRole('heading', { name: 'Donate', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Another amount' }).click();
  await page.getByLabel(/^Amount in shekels/).fill('5');
  await expect(page.getByRole('status')).toContainText('whole shekels between');
  await expect(page.getByRole('button', { name: 'Continue', exact: true })).toBeDisabled();
  await page.getByLabel(/^Amount in shekels/).fill('72');
  await noSeriousAxeViolations(page);
  await shoot(page, 'gifts-donation-en-390.png');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();

  await expect(page.getByText('The donation receipt needs your ID number.')).toBeVisible();
  await page.getByLabel(/^ID number/).fill('123456782');
  await fillDetails(page, DETAILS_EN);
  await page.getByRole('button', { name: /^Pay / }).click();
  await payOnGatewayPage(page, '4242 4242 4242 4242');

  await expect(page.getByRole('heading', { name: 'Thank you for your donation!' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByText(/72/).first()).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'gifts-donation-done-en-390.png');
});
