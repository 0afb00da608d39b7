import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { takesPictureRun } from './pictures';

// Full-page pictures of the staff screens with charts for a person to look at, Hebrew and
// English at a tablet and a desktop width; each screen axe-clean and never scrolling sideways.

async function shoot(page: Page, name: string, chart = true) {
  // The charts draw once their canvas has a size.
  if (chart) await expect(page.locator('.staff-figure canvas').first()).toBeVisible();
  await page.waitForTimeout(150);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect.soft(overflow, `${name} scrolls sideways`).toBeLessThanOrEqual(0);
  await noSeriousAxeViolations(page);
  const path = fileURLToPath(new URL(`../e2e-artifacts/staff-${name}.png`, import.meta.url));
  await page.screenshot({ path, fullPage: true });
}

for (const lang of ['he', 'en'] as const) {
  for (const width of [820, 1280]) {
    if (!takesPictureRun(lang, width, [820, 1280])) continue;
    test(`staff charts ${lang} at ${width}px`, async ({ page }) => {
      test.setTimeout(60_000);
      await page.setViewportSize({ width, height: 1000 });
      await page.goto(`/PRES-live?lang=${lang}`);
      await page.locator('input[type="email"]').fill('manager@kupa.example');
      await page.locator('input[type="password"]').fill('demo-manager-pass');
      await page.locator('form button[type="submit"]').click();
      await expect(page.locator('.staff-calendar button')).toHaveCount(29);
      await shoot(page, `calendar-${lang}-${width}`);

      // Yesterday: the demo's past has sales there.
      await page.locator('.staff-calendar li:has(+ li button[aria-current="date"]) button').click();
      await expect(page.locator('.staff-table tbody tr').first()).toBeVisible();
      await shoot(page, `locations-${lang}-${width}`);
      await page.locator('.staff-table tbody tr').nth(1).locator('button').click();
      await expect(page.locator('.staff-toggle')).toBeVisible();
      await shoot(page, `halls-${lang}-${width}`);

      await page.goto(`/PRES-live?lang=${lang}&view=sales`);
      await expect(page.locator('#staff-sales-title')).toBeVisible();
      await page.locator('.staff-figure summary').click();
      await shoot(page, `sales-${lang}-${width}`);

      await page.goto(`/PRES-live?lang=${lang}&view=refs`);
      await page.locator('#staff-resend-number').fill('NO-SUCH-ONE');
      await page.locator('.staff-resend button').click();
      await expect(page.locator('.staff-resend__error')).not.toBeEmpty();
      await shoot(page, `refs-${lang}-${width}`, false);
    });
  }
}
