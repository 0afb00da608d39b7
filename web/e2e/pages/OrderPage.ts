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

  /** The order's stepper. */
  steps(): Locator {
    return this.page.getByRole('navigation', { name: /^(Order steps|שלבי ההזמנה)$/ });
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

  /** One held seat's ticket choice in the tickets step (its legend names the seat). */
  seatTickets(index: number): Locator {
    return this.page.locator('.tickets-step__seat').nth(index);
  }

  /** The ticket chosen for one held seat in the tickets step (its own list, for a change). */
  seatTicketChoice(index: number): Locator {
    return this.seatTickets(index).getByRole('combobox');
  }

  /** The + of a kind of ticket in the tickets step's "how many of each" ("One more “Child” ticket"). */
  moreTickets(ticket: string): Locator {
    const name = ticket.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return this.page.getByRole('button', {
      name: new RegExp(`^(One more “${name}” ticket|עוד כרטיס „${name}”)$`),
    });
  }

  continueButton(): Locator {
    return this.page.getByRole('button', { name: /^(המשך|Continue)$/ });
  }

  timer(): Locator {
    return this.page.getByRole('timer');
  }
}
