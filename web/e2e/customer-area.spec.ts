import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_EN,
  DETAILS_HE,
  PLAIN_FREE_EN,
  PLAIN_FREE_HE,
  fillDetails,
  holdSeatsInOneRow,
  payByCard,
  reservedScreening,
  shoot,
  throughTicketsAndExtras,
  type DetailsLabels,
} from './order-flow';
import { smsLoginCode } from './outbox';

// Demo data (docs/catalogue.md): Dana Levi, customer 1, mobile 0524318876, two member cards.
const DANA = '0524318876';
const CAPTCHA = 'kupa-test-captcha';

interface Outbox {
  messages: { kind: string; body: string; createdAt: string }[];
}

async function latestSms(request: APIRequestContext, to: string) {
  const outbox = (await (
    await request.get(`/api/test/outbox/sms?to=${to}&limit=1`)
  ).json()) as Outbox;
  return outbox.messages[0];
}

/**
 * Logs the page's browser in as Dana through the API, as the login page does: the code from the
 * test-mode SMS outbox; the login cookie lands in the page's own cookie jar.
 */
async function logInAsDana(page: Page) {
  const asked = new Date().toISOString();
  const sent = await page.request.post('/api/customer/mobile-login', {
    data: { mobileNumber: DANA, recaptchaToken: CAPTCHA },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const code = await smsLoginCode(page.request, DANA, asked);
  const validated = await page.request.post('/api/customer/mobile-login-validation-area', {
    data: { mobileNumber: DANA, smsCode: code },
  });
  expect(validated.status(), await validated.text()).toBe(200);
}

async function buyOneSeat(
  page: Page,
  presentationId: number,
  lang: 'he' | 'en',
  labels: DetailsLabels,
) {
  await page.goto(`/order/${presentationId}${lang === 'en' ? '?lang=en' : ''}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  const [seat] = await holdSeatsInOneRow(order, 1, lang === 'en' ? PLAIN_FREE_EN : PLAIN_FREE_HE);
  await throughTicketsAndExtras(page, order, lang === 'en' ? 'Your details' : 'פרטי המזמין');
  await fillDetails(page, labels);
  await page.getByRole('button', { name: lang === 'en' ? /^Pay / : /^לתשלום/ }).click();
  await payByCard(
    page,
    lang === 'en' ? 'Secure payment form' : 'טופס תשלום מאובטח',
    '4242 4242 4242 4242',
  );
  await expect(
    page.getByRole('heading', {
      name: lang === 'en' ? 'Your order is complete' : 'ההזמנה הושלמה',
    }),
  ).toBeVisible({ timeout: 20_000 });
  // "Row 5, seat 7, available" → row and seat, as the area writes them.
  const m = seat.match(
    lang === 'en' ? /^Row ([^,]+), seat ([^,]+)/ : /^שורה ([^,]+), מושב ([^,]+)/,
  )!;
  return { row: m[1], seat: m[2] };
}

test('a logged-in buyer finds the order in the customer area, sends it by SMS, edits the profile and logs out', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const presentationId = await reservedScreening(page.request, 7, 0);
  await page.setViewportSize({ width: 360, height: 800 });

  // Not logged in: on to the login page, which comes back here.
  await page.goto('/customer-area');
  await expect(page).toHaveURL(/\/customer-area\/login\?returnTo=(\/|%2F)customer-area/);

  await logInAsDana(page);
  const { row, seat } = await buyOneSeat(page, presentationId, 'he', DETAILS_HE);

  await page.goto('/customer-area');
  await expect(page.getByRole('heading', { name: 'אזור אישי', level: 1 })).toBeVisible();
  await expect(page.getByRole('main').getByText('שלום, דנה')).toBeVisible();
  const tickets = page.getByRole('region', { name: 'הכרטיסים שלי' });
  const card = tickets
    .getByRole('listitem')
    .filter({ hasText: `שורה ${row}, מושב ${seat}` })
    .first();
  await expect(card).toBeVisible();
  await expect(card.getByRole('link', { name: /כרטיסים \(PDF\)/ })).toHaveAttribute(
    'href',
    /\/api\/reservations\/.+\/tickets\.pdf\?exp=\d+&sig=[0-9a-f]+&lang=he$/,
  );
  await expect(card.getByRole('link', { name: /ניהול \/ ביטול/ })).toHaveAttribute(
    'href',
    /^\/reservation\/[^?]+$/,
  );
  await noSeriousAxeViolations(page);
  await shoot(page, 'customer-area-he-360.png');

  // The tickets by SMS, to another phone.
  const before = new Date().toISOString();
  await card.getByRole('button', { name: /שליחת הכרטיסים ב-SMS/ }).click();
  await card.getByLabel('מספר נייד לשליחה').fill('054-1234567');
  await card.getByRole('button', { name: 'שליחה' }).click();
  await expect(card.getByText('הכרטיסים נשלחו ב-SMS.')).toBeVisible();
  const sms = await latestSms(page.request, '0541234567');
  expect(sms.kind).toBe('tickets');
  expect(sms.createdAt >= before.slice(0, 19)).toBe(true);
  expect(sms.body).toMatch(/\/reservation\/.+sig=/);

  // The profile: a bad postal code is refused on the field; a good one is saved.
  const profile = page.getByRole('region', { name: 'פרטים אישיים' });
  await profile.getByLabel('מיקוד').fill('123');
  await profile.getByRole('button', { name: 'שמירת הפרטים' }).click();
  await expect(profile.getByText('מיקוד: חייב להכיל 7 ספרות')).toBeVisible();
  await profile.getByLabel('מיקוד').fill('6311713');
  await profile.getByLabel('מספר רכב').fill('12-345-67');
  await profile.getByLabel('הקולנוע שלי').selectOption({ index: 2 });
  await profile.getByRole('checkbox', { name: 'אשמח לקבל עדכונים והטבות באימייל' }).check();
  await profile.getByRole('button', { name: 'שמירת הפרטים' }).click();
  await expect(profile.getByText('הפרטים נשמרו.')).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole('region', { name: 'פרטים אישיים' }).getByLabel('מספר רכב'),
  ).toHaveValue('1234567');
  await expect(page.getByRole('region', { name: 'פרטים אישיים' }).getByLabel('מיקוד')).toHaveValue(
    '6311713',
  );

  await page.setViewportSize({ width: 1280, height: 900 });
  await shoot(page, 'customer-area-he-1280.png');

  // Manage / cancel: the reservation's page cancels the ticket with the fee and the refund said
  // before confirming; back in the area the order is among the past ones, cancelled.
  await page.setViewportSize({ width: 360, height: 800 });
  await page
    .getByRole('region', { name: 'הכרטיסים שלי' })
    .getByRole('listitem')
    .filter({ hasText: `שורה ${row}, מושב ${seat}` })
    .first()
    .getByRole('link', { name: /ניהול \/ ביטול/ })
    .click();
  await expect(page).toHaveURL(/\/reservation\/[0-9a-f]{32}$/);
  const cancelSection = page.getByRole('region', { name: 'ביטול כרטיסים' });
  await cancelSection.getByRole('button', { name: 'ביטול כרטיסים' }).click();
  const dialog = page.getByRole('dialog', { name: 'ביטול הזמנה' });
  await expect(
    dialog.getByRole('group', { name: 'אילו כרטיסים לבטל?' }).getByRole('checkbox'),
  ).toBeChecked();
  await dialog.getByRole('button', { name: 'המשך' }).click();
  await expect(dialog.getByRole('note')).toHaveText(/דמי הטיפול בסך .+ אינם מוחזרים/);
  await expect(dialog.getByRole('term').nth(1)).toHaveText('דמי טיפול בביטול (אינם מוחזרים)');
  await dialog.getByRole('button', { name: 'אישור הביטול' }).click();
  const done = page.getByRole('dialog', { name: 'ההזמנה בוטלה' });
  await expect(done.getByRole('status')).toHaveText(
    /^הביטול בוצע\. זיכוי בסך .+ הוחזר לאמצעי התשלום\.$/,
  );
  await done.getByRole('button', { name: 'סגירה' }).click();
  await page.goto('/customer-area');
  const past = page.getByRole('region', { name: 'הזמנות קודמות' });
  const cancelled = past.getByRole('listitem').filter({ hasText: `שורה ${row}, מושב ${seat}` });
  await expect(cancelled.first()).toContainText('בוטלה');
  await expect(
    page
      .getByRole('region', { name: 'הכרטיסים שלי' })
      .getByRole('listitem')
      .filter({ hasText: `שורה ${row}, מושב ${seat}` }),
  ).toHaveCount(0);

  // Log out: the area sends the visitor to the login again.
  await page.getByRole('main').getByRole('button', { name: 'התנתקות' }).click();
  await expect(page).toHaveURL(/\/customer-area\/login/);
  const again = await page.request.get('/api/customer-area/customerAreaData');
  expect(again.status()).toBe(401);
});

test('in English, the customer area shows the order with its seats, sends it by SMS and logs out', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const presentationId = await reservedScreening(page.request, 7, 1);
  await page.setViewportSize({ width: 390, height: 844 });
  await logInAsDana(page);
  const { row, seat } = await buyOneSeat(page, presentationId, 'en', DETAILS_EN);

  await page.goto('/customer-area?lang=en');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('heading', { name: 'Customer area', level: 1 })).toBeVisible();
  const tickets = page.getByRole('region', { name: 'My tickets' });
  const card = tickets
    .getByRole('listitem')
    .filter({ hasText: `row ${row}, seat ${seat}` })
    .first();
  await expect(card).toBeVisible();
  await expect(card.getByRole('link', { name: /Add to calendar/ })).toHaveAttribute(
    'href',
    /calendar\.ics\?exp=\d+&sig=/,
  );
  await expect(
    page.getByText('System vouchers bought online will be listed here. You have none yet.'),
  ).toBeVisible();
  const members = page.getByRole('region', { name: 'Memberships and vouchers' });
  await expect(members.getByText('100001')).toBeVisible();
  await noSeriousAxeViolations(page);

  await card.getByRole('button', { name: /Send the tickets by SMS/ }).click();
  await card.getByLabel('Mobile number to send to').fill('0541234568');
  await card.getByRole('button', { name: 'Send' }).click();
  await expect(card.getByText('The tickets were sent by SMS.')).toBeVisible();

  const profile = page.getByRole('region', { name: 'Profile' });
  await profile.getByLabel('City').fill('Tel Aviv');
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await expect(profile.getByText('Your profile was saved.')).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await shoot(page, 'customer-area-en-390.png');

  await page.getByRole('main').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/customer-area\/login\?.*lang=en/);
});
