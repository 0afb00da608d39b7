import { fileURLToPath } from 'node:url';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { shoot } from './order-flow';

// Demo data (docs/catalogue.md): Omer Biton, customer 6, and Ronit Shapira, customer 7. One
// customer a test, so no test waits out another's 30 seconds between login codes.
const OMER = { mobile: '0549912837', email: 'omer.biton@example.com' };
const RONIT = { mobile: '0501472583', email: 'ronit.shapira@example.com' };
const CAPTCHA = 'kupa-test-captcha';

interface Outbox {
  messages: { kind: string; body?: string; text?: string }[];
}

async function newest(request: APIRequestContext, box: 'sms' | 'mail', to: string) {
  const r = await request.get(`/api/test/outbox/${box}?to=${encodeURIComponent(to)}&limit=1`);
  return ((await r.json()) as Outbox).messages[0];
}

/** The profile section alone, to look at closely beside the whole page's shot. */
async function shootPart(part: Locator, name: string) {
  await part.screenshot({
    path: fileURLToPath(new URL(`../e2e-artifacts/${name}`, import.meta.url)),
  });
}

/** Logs the page's browser in through the API with the code from the SMS outbox. */
async function logIn(page: Page, mobile: string) {
  const sent = await page.request.post('/api/customer/mobile-login', {
    data: { mobileNumber: mobile, recaptchaToken: CAPTCHA },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const code = (await newest(page.request, 'sms', mobile)).body!.match(/\d{6}/)![0];
  const ok = await page.request.post('/api/customer/mobile-login-validation-area', {
    data: { mobileNumber: mobile, smsCode: code },
  });
  expect(ok.status(), await ok.text()).toBe(200);
}

test('a customer changes their email address, proven by the mailed code (he, 360 px and 1280 px)', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 360, height: 800 });
  await logIn(page, OMER.mobile);
  await page.goto('/customer-area');
  const profile = page.getByRole('region', { name: 'פרטים אישיים' });
  await expect(profile).toContainText(OMER.email);
  await profile.getByRole('button', { name: 'שינוי כתובת האימייל' }).click();
  const form = profile.getByRole('form', { name: 'שינוי כתובת האימייל' });
  await form.getByLabel('כתובת אימייל חדשה').fill('omer.new@example.com');
  await form.getByRole('button', { name: 'שליחת קוד' }).click();
  await expect(form).toContainText('שלחנו קוד בן 6 ספרות במייל אל omer.new@example.com');
  await noSeriousAxeViolations(page);
  await form.scrollIntoViewIfNeeded();
  await shoot(page, 'contact-email-code-he-360.png');
  await shootPart(profile, 'contact-email-code-he-360-profile.png');
  const mail = await newest(page.request, 'mail', 'omer.new@example.com');
  expect(mail.kind).toBe('changeEmailCode');
  const code = mail.text!.match(/\d{6}/)![0];
  // A wrong code first, as people do.
  await form.getByLabel('קוד מהמייל').fill(code === '000000' ? '000001' : '000000');
  await form.getByRole('button', { name: 'אישור השינוי' }).click();
  await expect(form.getByRole('alert')).toContainText('הקוד אינו נכון');
  await expect(profile).toContainText(OMER.email);
  await page.setViewportSize({ width: 1280, height: 900 });
  await shoot(page, 'contact-email-wrong-he-1280.png');
  await shootPart(profile, 'contact-email-wrong-he-1280-profile.png');
  await form.getByLabel('קוד מהמייל').fill(code);
  await form.getByRole('button', { name: 'אישור השינוי' }).click();
  await expect(profile).toContainText('כתובת האימייל שלך היא עכשיו omer.new@example.com.');
  await expect(profile.getByText('omer.new@example.com', { exact: true })).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'contact-email-done-he-1280.png');
  await page.setViewportSize({ width: 360, height: 800 });
  await shoot(page, 'contact-email-done-he-360.png');
  await shootPart(profile, 'contact-email-done-he-360-profile.png');
  // The old address was told.
  expect((await newest(page.request, 'mail', OMER.email)).kind).toBe('contactChanged');
});

test('a customer changes their mobile number, proven by the SMS code (en, 390 px)', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const NEW = '0521230007';
  await page.setViewportSize({ width: 390, height: 844 });
  await logIn(page, RONIT.mobile);
  await page.goto('/customer-area?lang=en');
  const profile = page.getByRole('region', { name: 'Profile' });
  await expect(profile).toContainText(RONIT.mobile);
  await profile.getByRole('button', { name: 'Change mobile number' }).click();
  const form = profile.getByRole('form', { name: 'Change mobile number' });
  // Yossi's number belongs to another account.
  await form.getByLabel('New mobile number').fill('050-771-2345');
  await form.getByRole('button', { name: 'Send code' }).click();
  await expect(form.getByRole('alert')).toContainText('This number belongs to another account');
  await shoot(page, 'contact-mobile-taken-en-390.png');
  await shootPart(profile, 'contact-mobile-taken-en-390-profile.png');
  await form.getByLabel('New mobile number').fill('052-123-0007');
  await form.getByRole('button', { name: 'Send code' }).click();
  await expect(form).toContainText('We sent a 6-digit code by SMS to 052-123-0007');
  await noSeriousAxeViolations(page);
  await shoot(page, 'contact-mobile-code-en-390.png');
  await shootPart(profile, 'contact-mobile-code-en-390-profile.png');
  const sms = await newest(page.request, 'sms', NEW);
  await form.getByLabel('Code from the SMS').fill(sms.body!.match(/\d{6}/)![0]);
  await form.getByRole('button', { name: 'Confirm the change' }).click();
  await expect(profile).toContainText(`Your mobile number is now ${NEW}.`);
  await expect(profile).not.toContainText(RONIT.mobile);
  await noSeriousAxeViolations(page);
  await shoot(page, 'contact-mobile-done-en-390.png');
  await shootPart(profile, 'contact-mobile-done-en-390-profile.png');
  expect((await newest(page.request, 'mail', RONIT.email)).kind).toBe('contactChanged');
  // The new number logs her in; the old one is nobody's now.
  const old = await page.request.post('/api/customer/mobile-login', {
    data: { mobileNumber: RONIT.mobile, recaptchaToken: CAPTCHA },
  });
  expect(old.status()).toBe(404);
});
