import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { reservedScreening, shoot } from './order-flow';
import { IndexPage } from './pages/IndexPage';

// The end-to-end server enables he, en, ru and ar (scripts/e2e.sh) and lays a tenant's wording
// over the Russian catalogue (scripts/e2e-wording.json). Decision 0054.

async function noSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
}

function catalogueTitle(lang: string): string {
  const url = new URL(`../src/locales/${lang}.json`, import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { whatsOn: { title: string } }).whatsOn.title;
}

const RUNS = [
  { lang: 'ar', width: 390, dir: 'rtl', title: catalogueTitle('ar') },
  // The tenant's word (scripts/e2e-wording.json), not the catalogue's.
  { lang: 'ru', width: 1280, dir: 'ltr', title: 'Сейчас в кино' },
] as const;

for (const run of RUNS) {
  test(`the index and the order page in ${run.lang} at ${run.width}px`, async ({
    page,
    request,
  }) => {
    // Two pages, each with axe and a full-page picture: longer than one step's default.
    test.setTimeout(90_000);
    await page.setViewportSize({ width: run.width, height: 900 });
    const index = new IndexPage(page);
    const response = await index.goto(`?lang=${run.lang}`);
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', run.lang);
    await expect(page.locator('html')).toHaveAttribute('dir', run.dir);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(run.title);
    await index.waitForPostersToLoad();
    await noSidewaysScroll(page);
    await noSeriousAxeViolations(page);
    await shoot(page, `languages-index-${run.lang}-${run.width}.png`);

    const id = await reservedScreening(request, 1, 0);
    await page.goto(`/order/${id}?lang=${run.lang}`);
    await expect(page.locator('html')).toHaveAttribute('dir', run.dir);
    await expect(page.locator('svg [role="button"]').first()).toBeVisible();
    await noSidewaysScroll(page);
    await noSeriousAxeViolations(page);
    await shoot(page, `languages-order-${run.lang}-${run.width}.png`);
  });
}

test('a language not enabled is a 404', async ({ page }) => {
  const response = await page.goto('/?lang=pl');
  expect(response?.status()).toBe(404);
});

test('an error the buyer meets is reported to the server', async ({ page }) => {
  const reported = page.waitForResponse(
    (r) => r.url().endsWith('/api/client-errors') && r.request().method() === 'POST',
  );
  await page.goto('/order/99999999?lang=ru');
  const response = await reported;
  expect(response.status()).toBe(204);
  const body = response.request().postDataJSON() as Record<string, unknown>;
  expect(body).toMatchObject({ kind: 'api', status: 404, page: '/order/99999999', lang: 'ru' });
  expect(JSON.stringify(body)).not.toContain('lang=ru');
});
