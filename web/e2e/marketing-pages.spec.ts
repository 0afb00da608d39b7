// The chain's marketing pages (issue 19 item 3, decision 0051), as a visitor uses them: the
// contact form checked with the spec's messages, sent, and found in the outbox mailed to the
// chain; a feature found by its Hebrew name typed without niqqud (the catalogue writes it with);
// the movie page; a quick order in four taps; axe and screenshots (he 360 and 1280, en 390).
import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { takesPictureRun } from './pictures';

const shots = fileURLToPath(new URL('../e2e-artifacts/marketing/', import.meta.url));
/** The demo chain's address (siteConfig.chainEmail). */
const CHAIN = 'service@kupa.example';

async function noSidewaysScroll(page: Page, what: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect.soft(overflow, `${what} scrolls sideways`).toBeLessThanOrEqual(0);
}

test('the contact form says what is missing, then reaches the chain by mail', async ({
  page,
  request,
}) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { level: 1, name: 'צור קשר' })).toBeVisible();
  await page.getByRole('button', { name: 'שליחת הודעה' }).click();
  // The spec's message for a required field, beside the field, and the focus on it.
  await expect(page.getByText('השדה שם מלא הוא שדה חובה!')).toBeVisible();
  await expect(page.getByLabel('שם מלא')).toBeFocused();
  await page.getByLabel('שם מלא').fill('נועה פרץ');
  await page.getByLabel('אימייל').fill('noa@');
  await page.getByRole('button', { name: 'שליחת הודעה' }).click();
  await expect(page.getByText('חייב להיות כתובת אימייל!')).toBeVisible();
  await page.getByLabel('אימייל').fill('noa.peretz@example.com');
  await page.getByLabel('קולנוע').selectOption({ label: 'קופה חיפה – המושבה הגרמנית' });
  const words = `יש חניה לאופניים? ${Date.now()}`;
  await page.getByLabel('הודעה').fill(words);
  await page.getByRole('button', { name: 'שליחת הודעה' }).click();
  await expect(page.getByRole('status')).toContainText('התקבלה');

  const box = (await (
    await request.get(`/api/test/outbox/mail?to=${encodeURIComponent(CHAIN)}&limit=5`)
  ).json()) as { messages: { kind: string; subject: string; text: string }[] };
  const mail = box.messages.find((m) => m.kind === 'inquiry' && m.text.includes(words));
  expect(mail, 'the contact message mailed to the chain').toBeTruthy();
  expect(mail?.subject).toContain('Contact form');
  expect(mail?.text).toContain('noa.peretz@example.com');
  expect(mail?.text).toContain('Kupa Haifa');
});

test('search finds a feature by its Hebrew name typed without niqqud, and opens its page', async ({
  page,
}) => {
  await page.goto('/search');
  await page.getByRole('searchbox').fill('שקיעה בכנרת');
  await page.getByRole('button', { name: 'חיפוש', exact: true }).click();
  const result = page.getByRole('link', { name: 'שְׁקִיעָה בַּכִּנֶּרֶת' });
  await expect(result).toBeVisible();
  await result.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('שְׁקִיעָה בַּכִּנֶּרֶת');
  await expect(page.getByText('שפת מקור')).toBeVisible();
  await expect(page.getByText('12+')).toBeVisible();
  // The same page in English: the facts in English.
  await page.goto(`${new URL(page.url()).pathname}?lang=en`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sunset over the Kinneret');
  await expect(page.locator('.mk-facts')).toContainText('Hebrew');
  await expect(page.getByRole('heading', { name: 'Screenings' })).toBeVisible();
});

test('quick order: complex, feature, date and time in four taps, into the order', async ({
  page,
}) => {
  await page.goto('/quick-order?lang=en');
  await page.getByRole('button', { name: 'Kupa Tel Aviv Port' }).click();
  await page.locator('.mk-step').nth(1).getByRole('button').first().click();
  await page.locator('.mk-step').nth(2).getByRole('button').first().click();
  await page.locator('.mk-step').nth(3).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/order\/\d+/);
});

for (const [lang, width] of [
  ['he', 360],
  ['he', 1280],
  ['en', 390],
] as const) {
  if (!takesPictureRun(lang, width, lang === 'he' ? [360, 1280] : [390])) continue;
  test(`the marketing pages at ${lang} ${width} px: no sideways scroll, axe, screenshots`, async ({
    page,
  }) => {
    // Seven pages; axe once per page (at he 360 px), screenshots at each width.
    test.setTimeout(90_000);
    const axe = lang === 'he' && width === 360;
    await page.setViewportSize({ width, height: 800 });
    const pages = [
      ['contact', '/contact'],
      ['birthdays', '/birthdays'],
      ['jobs', '/jobs'],
      ['complexes', '/complexes'],
      ['movie', '/movie/13'],
      ['search', '/search?q=kupa'],
      ['quick-order', '/quick-order?complex=2'],
    ] as const;
    for (const [name, path] of pages) {
      await page.goto(`${path}${path.includes('?') ? '&' : '?'}lang=${lang}`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      if (name === 'birthdays') {
        // The form's messages are part of the page too.
        await page.locator('form button[type=submit]').click();
        await expect(page.locator('.mk-field__error').first()).toBeVisible();
      }
      if (name === 'complexes') await expect(page.locator('.mk-card')).toHaveCount(3);
      if (name === 'movie') {
        await expect(page.locator('.mk-day').first()).toBeVisible({ timeout: 20_000 });
      }
      if (name === 'search') await expect(page.locator('.mk-results li').first()).toBeVisible();
      await noSidewaysScroll(page, `${name} ${lang} ${width}`);
      if (axe) await noSeriousAxeViolations(page);
      await page.screenshot({ path: `${shots}${name}-${lang}-${width}.png`, fullPage: true });
    }
  });
}
