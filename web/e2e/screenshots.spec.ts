import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { IndexPage } from './pages/IndexPage';

// Full-page pictures of the index for a person to look at, in both directions and at a phone
// and a laptop width. The layout must never scroll sideways.
for (const lang of ['he', 'en'] as const) {
  for (const width of [390, 1280]) {
    test(`index ${lang} at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const index = new IndexPage(page);
      await index.goto(`?lang=${lang}`);
      await index.waitForPostersToLoad();
      await expect(page.locator('html')).toHaveAttribute('dir', lang === 'he' ? 'rtl' : 'ltr');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
      const path = fileURLToPath(
        new URL(`../e2e-artifacts/index-${lang}-${width}.png`, import.meta.url),
      );
      await page.screenshot({ path, fullPage: true });
    });
  }
}
