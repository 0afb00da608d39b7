import { expect, type Locator, type Page } from '@playwright/test';
import { switchLanguage } from './language';

/** The "What's on" index page. */
export class IndexPage {
  readonly page: Page;
  readonly html: Locator;

  constructor(page: Page) {
    this.page = page;
    this.html = page.locator('html');
  }

  async goto(query = '') {
    const response = await this.page.goto(`/${query}`);
    await this.waitForSchedule();
    return response;
  }

  /** Waits until the day's schedule (or its empty notice) is on screen. */
  async waitForSchedule() {
    const panel = this.page.getByRole('tabpanel');
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('status')).toHaveCount(0);
  }

  featureCard(name: string): Locator {
    return this.page.getByRole('article', { name });
  }

  async chooseDay(index: number) {
    const days = this.page.getByRole('group').getByRole('button');
    await days.nth(index).click();
    await expect(days.nth(index)).toHaveAttribute('aria-pressed', 'true');
    await this.waitForSchedule();
  }

  async switchLanguage(nativeName: string) {
    await switchLanguage(this.page, nativeName);
  }

  /** The first buy button of a feature's card in the by-feature view. */
  firstBuyButton(featureName: string): Locator {
    return this.featureCard(featureName)
      .getByRole('link', { name: /^(Buy tickets|לרכישה):/ })
      .first();
  }

  /** Loads every poster, lazy ones too, so a full-page picture shows them all. */
  async waitForPostersToLoad() {
    // The server's first screen is replaced by the app's own (decision 0071), whose posters are
    // new, lazy images: wait for the take-over (the footer is the app's alone), and make every
    // image eager on each poll, so one drawn after the first look is loaded too.
    await expect(this.page.locator('.site-footer')).toBeVisible();
    // Polled on a timer: a still page draws no animation frames to poll on.
    await this.page.waitForFunction(
      () => {
        const images = Array.from(document.images);
        for (const img of images) if (img.loading !== 'eager') img.loading = 'eager';
        return images.every((img) => img.complete && img.naturalWidth > 0);
      },
      undefined,
      { polling: 100 },
    );
  }
}
