import { expect, test, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { shoot } from './order-flow';
import { mailedLink, smsLoginCode } from './outbox';

// Demo data (docs/catalogue.md): Dana Levi, customer 1, mobile 0524318876, dana.levi@example.com.
const DANA_MOBILE = '0524318876';
const DANA_EMAIL = 'dana.levi@example.com';

/** Who the browser is logged in as (the page's own cookies). */
async function loggedInAs(page: Page): Promise<number | null> {
  const r = await page.request.get('/api/customer/me');
  if (!r.ok()) return null;
  const body = (await r.json()) as { customerInfo: { CustomerId: number } | null };
  return body.customerInfo?.CustomerId ?? null;
}

test('a customer logs in by mobile number and the SMS code from the outbox (he, 360 px)', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/customer-area/login');
  await expect(page.getByRole('heading', { name: 'כניסה לאזור האישי', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'נייד וקוד SMS' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await noSeriousAxeViolations(page);
  await shoot(page, 'customer-login-he-360.png');
  await page.getByLabel('מספר טלפון נייד').fill('052-4318876');
  const asked = new Date().toISOString();
  await page.getByRole('button', { name: 'שליחת קוד' }).click();
  await expect(page.getByText(/שלחנו קוד בן 6 ספרות/)).toBeVisible();
  await page.getByLabel('קוד מה-SMS').fill('000000');
  await page.getByRole('button', { name: 'כניסה' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  // The code form with its error, too.
  await noSeriousAxeViolations(page);
  await page.getByLabel('קוד מה-SMS').fill(await smsLoginCode(request, DANA_MOBILE, asked));
  await page.getByRole('button', { name: 'כניסה' }).click();
  await expect(page).toHaveURL(/\/customer-area$/);
  expect(await loggedInAs(page)).toBe(1);
});

test('a new customer registers, confirms by the mailed link, and logs in by password (he, 1280 px)', async ({
  page,
  request,
}) => {
  const email = `e2e-${Date.now()}@example.com`;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/customer-area/login');
  await page.getByRole('tab', { name: 'מייל וסיסמה' }).click();
  await page.getByRole('button', { name: 'הרשמה' }).click();
  await page.getByLabel('שם פרטי').fill('נועה');
  await page.getByLabel('שם משפחה').fill('ברק');
  await page.getByLabel('כתובת מייל').fill(email);
  await page.getByLabel('סיסמה', { exact: true }).fill('סיסמה ארוכה 7');
  await shoot(page, 'customer-register-he-1280.png');
  await page.getByRole('form', { name: 'הרשמה' }).getByRole('button', { name: 'הרשמה' }).click();
  await expect(page.getByRole('status')).toContainText(email);

  await page.goto(await mailedLink(request, email, 'verifyEmail'));
  await expect(page).toHaveURL(/\/customer-area$/);
  const id = await loggedInAs(page);
  expect(id).toBeGreaterThanOrEqual(1_000_000);

  await page.request.post('/api/customer/logout', { data: {} });
  expect(await loggedInAs(page)).toBeNull();
  await page.goto('/customer-area/login?method=email');
  await page.getByLabel('כתובת מייל').fill(email);
  await page.getByLabel('סיסמה', { exact: true }).fill('wrong password 1');
  await page.getByRole('button', { name: 'כניסה' }).click();
  await expect(page.getByRole('alert')).toHaveText('ההתחברות נכשלה');
  await page.getByLabel('סיסמה', { exact: true }).fill('סיסמה ארוכה 7');
  await page.getByRole('button', { name: 'כניסה' }).click();
  await expect(page).toHaveURL(/\/customer-area$/);
  expect(await loggedInAs(page)).toBe(id);
});

test('a mailed login link logs in once (he)', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/customer-area/login');
  await page.getByRole('tab', { name: 'קישור במייל' }).click();
  await page.getByLabel('כתובת מייל').fill(DANA_EMAIL);
  await page.getByRole('button', { name: 'שליחת קישור' }).click();
  await expect(page.getByRole('status')).toContainText(DANA_EMAIL);
  const link = await mailedLink(request, DANA_EMAIL, 'loginLink');
  await page.goto(link);
  await expect(page).toHaveURL(/\/customer-area$/);
  expect(await loggedInAs(page)).toBe(1);
  await page.goto(link);
  await expect(page.getByRole('alert')).toContainText('הקישור כבר נוצל');
  await shoot(page, 'customer-token-used-he-390.png');
});

test('the same mobile login in English (390 px)', async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/customer-area/login?lang=en&returnTo=%2Fcustomer-area%3Ffrom%3Dlogin');
  await expect(
    page.getByRole('heading', { name: 'Log in to your account', level: 1 }),
  ).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'customer-login-en-390.png');
  await page.getByLabel('Mobile number').fill('0507712345');
  const asked = new Date().toISOString();
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByText(/We sent a 6-digit code/)).toBeVisible();
  await page.getByLabel('Code from the SMS').fill(await smsLoginCode(request, '0507712345', asked));
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/customer-area\?from=login&lang=en$/);
  expect(await loggedInAs(page)).toBe(2);
});
