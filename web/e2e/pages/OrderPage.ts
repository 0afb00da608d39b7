import type { Locator, Page } from '@playwright/test';

/** The order page a buy button leads to. */
export class OrderPage {
  readonly page: Page;

  constructor(page: Page) {
    this.page = page;
  }

  featureHeading(name: string): Locator {
    return this.page.getByRole('heading', { name, level: 2 });
  }

  notAvailableNotice(): Locator {
    return this.page.getByRole('heading', { name: /not available yet|עדיין אינו זמין/ });
  }
}
