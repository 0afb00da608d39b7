import type { Page } from '@playwright/test';

/**
 * Switches the page's language by the header's switcher: links for up to three languages, a
 * menu for more (the end-to-end server enables four).
 */
export async function switchLanguage(page: Page, nativeName: string) {
  const menu = page.getByRole('combobox', { name: /Language|שפה/ });
  if (await menu.isVisible()) {
    await menu.selectOption({ label: nativeName });
  } else {
    await page
      .getByRole('navigation', { name: /Language|שפה/ })
      .getByRole('link', { name: nativeName })
      .click();
  }
}
