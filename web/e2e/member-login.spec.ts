import { expect, test } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_HE,
  PLAIN_FREE_HE,
  holdSeatsInOneRow,
  reservedScreening,
  shoot,
  throughTicketsAndExtras,
} from './order-flow';
import { smsLoginCode } from './outbox';

// Demo data (docs/catalogue.md): member 100001 is Dana Levi's active club card, mobile 0524318876.
const MEMBER = '100001';
const MOBILE = '052-4318876';

test('a member ticket asks for the SMS login; the code from the outbox logs the member in', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const presentationId = await reservedScreening(request, 6, 0);

  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_HE);
  await order.continueButton().click();
  await expect(page.getByRole('heading', { name: 'בחירת כרטיסים' })).toBeVisible();

  // The member's own tickets appear for the member number; one of them is chosen.
  await page.getByLabel('מספר חבר (לכרטיסי חברים)').fill(MEMBER);
  await page.getByRole('button', { name: 'הצגת כרטיסי חברים' }).click();
  await expect(page.getByText(`מוצגים כרטיסי החברים של ${MEMBER}`)).toBeVisible();
  await order.moreTickets('חבר מועדון').click();
  await expect(order.seatTicketChoice(0).locator('option:checked')).toHaveText(/^חבר מועדון(?! –)/);
  await order.continueButton().click();

  // The server wants the member logged in: the checkout asks for the mobile number.
  const login = page.getByRole('region', { name: 'כניסה עם מספר נייד' });
  await expect(login).toBeVisible();
  await shoot(page, 'login-he-390.png');
  const before = new Date().toISOString();
  await login.getByLabel('מספר טלפון נייד').fill(MOBILE);
  await login.getByRole('button', { name: 'שליחת קוד' }).click();
  await expect(login.getByText(/שלחנו קוד בן 6 ספרות/)).toBeVisible();

  // The code, as the member's phone got it (the test-mode SMS outbox).
  const code = await smsLoginCode(request, '0524318876', before);

  // A wrong code first: the buyer is told, and how many tries are left.
  const wrong = code === '000000' ? '111111' : '000000';
  await login.getByLabel('קוד מה-SMS').fill(wrong);
  await login.getByRole('button', { name: 'כניסה' }).click();
  await expect(login.getByRole('alert')).toHaveText(/הקוד שגוי. נותרו \d ניסיונות/);

  await login.getByLabel('קוד מה-SMS').fill(code!);
  await login.getByRole('button', { name: 'כניסה' }).click();

  // Logged in, the cart goes through with the member ticket: on to the extras or the details.
  const next = page
    .getByRole('heading', { name: 'פרטי המזמין' })
    .or(page.getByRole('heading', { name: 'הוספת תוספות' }));
  await expect(next).toBeVisible();
  await expect(login).toBeHidden();
  // The header says who is logged in.
  const account = page.getByRole('banner').getByRole('region', { name: 'החשבון שלי' });
  await expect(account).toContainText('שלום, דנה');
  if (await page.getByRole('heading', { name: 'הוספת תוספות' }).isVisible()) {
    await order.continueButton().click();
  }
  const summary = page.getByRole('region', { name: 'סיכום ההזמנה' });
  await expect(summary.getByText(/חבר מועדון/)).toBeVisible();
});

test('a number with no customer account logs in for a saved card, pays with a new card, and the header shows it', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  // Nobody in the demo chain has this number (docs/catalogue.md).
  const stranger = '0541234567';
  const presentationId = await reservedScreening(request, 6, 2);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_HE);
  await throughTicketsAndExtras(page, order, 'פרטי המזמין');
  await page.getByLabel(DETAILS_HE.firstName).fill('Noa');
  await page.getByLabel(DETAILS_HE.lastName).fill('Bar');
  await page.getByLabel(DETAILS_HE.email).fill('noa@example.com');
  await page.getByLabel(DETAILS_HE.verifyEmail).fill('noa@example.com');
  await page.getByLabel(DETAILS_HE.mobile).fill('054-1234567');
  const terms = page.getByRole('group', { name: DETAILS_HE.terms });
  for (const box of await terms.getByRole('checkbox').all()) await box.check();
  await page.getByRole('button', { name: DETAILS_HE.submit }).click();

  const pay = page.getByRole('button', { name: /^לתשלום/ });
  await expect(pay).toBeEnabled();
  await page.getByRole('button', { name: 'כרטיס שמור' }).click();
  // Pay is off, and the line beside it says why.
  await expect(pay).toBeDisabled();
  await expect(pay).toHaveAccessibleDescription('כדי לשלם בכרטיס שמור יש להיכנס עם מספר הנייד.');

  const login = page.getByRole('region', { name: 'כניסה עם מספר נייד' });
  await expect(login.getByLabel('מספר טלפון נייד')).toHaveValue('0541234567');
  const before = new Date().toISOString();
  await login.getByRole('button', { name: 'שליחת קוד' }).click();
  await expect(login.getByText(/שלחנו קוד בן 6 ספרות/)).toBeVisible();
  await login.getByLabel('קוד מה-SMS').fill(await smsLoginCode(request, stranger, before));
  await login.getByRole('button', { name: 'כניסה' }).click();

  // No account, so no saved cards: a new card, and Pay is on.
  await expect(page.getByText(/אין לו חשבון לקוח/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'כרטיס אשראי' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(pay).toBeEnabled();
  await expect(page.getByRole('checkbox', { name: 'לשמור את הכרטיס לפעם הבאה' })).toHaveCount(0);

  // The header shows the proven number, masked, and logs out.
  const account = page.getByRole('banner').getByRole('region', { name: 'החשבון שלי' });
  await expect(account).toContainText('054-•••-4567');
  await shoot(page, 'header-login-he-390.png');
  const header = await page.getByRole('banner').boundingBox();
  expect(header!.height).toBeLessThanOrEqual(48);
  await account.getByRole('button', { name: 'יציאה' }).click();
  await expect(account).toBeHidden();
  // The server forgot the login too: a reload shows nobody.
  const asked = page.waitForResponse((r) => r.url().includes('/api/customer/me'));
  await page.reload();
  expect((await asked).status()).toBe(401);
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('banner').getByRole('button', { name: 'יציאה' })).toHaveCount(0);
});
