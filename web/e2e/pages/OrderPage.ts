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

  /** The seat map's drawing (named after the hall's seat plan). */
  seatMap(): Locator {
    return this.page.getByRole('group', { name: /^(Seat map|מפת מושבים):/ });
  }

  /** Seats of the map whose spoken name matches, e.g. /, available$/. */
  seats(name: RegExp): Locator {
    return this.seatMap().getByRole('button', { name });
  }

  selectedSeats(): Locator {
    return this.seatMap().locator('[role="button"][aria-pressed="true"]');
  }

  timer(): Locator {
    return this.page.getByRole('timer');
  }
}
