import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { scheduleFor } from './api';
import { OrderPage } from './pages/OrderPage';
import { addDays, todayInCinema } from '../src/lib/format';

// Prices that hold: a wheelchair ticket is offered only for a wheelchair place, its companion
// ticket only beside it, and the order costs what the server charges (₪34 + ₪5 and ₪0 + ₪5).
const CASES = [
  {
    lang: 'he',
    width: 390,
    daysAhead: 6,
    wheelchair: 'שורה 14, מושב 1, מקום לכיסא גלגלים, פנוי',
    companion: 'שורה 14, מושב 2, מושב מלווה, פנוי',
    confirm: 'בחירת המושב',
    wheelchairTicket: /^כיסא גלגלים/,
    companionTicket: /^מלווה לכיסא גלגלים/,
    wheelchairName: 'כיסא גלגלים',
    companionName: 'מלווה לכיסא גלגלים',
    total: /44\.00/,
  },
  {
    lang: 'en',
    width: 1280,
    daysAhead: 7,
    wheelchair: 'Row 14, seat 1, wheelchair space, available',
    companion: 'Row 14, seat 2, companion seat, available',
    confirm: 'Choose this seat',
    wheelchairTicket: /^Wheelchair(?! companion)/,
    companionTicket: /^Wheelchair companion/,
    wheelchairName: 'Wheelchair',
    companionName: 'Wheelchair companion',
    total: /₪44\.00/,
  },
] as const;

async function shoot(page: Page, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  const path = fileURLToPath(new URL(`../e2e-artifacts/${name}`, import.meta.url));
  await page.screenshot({ path, fullPage: true });
}

for (const c of CASES) {
  test(`a wheelchair ticket and its companion are offered only on their seats (${c.lang}, ${c.width}px)`, async ({
    page,
    request,
  }) => {
    const day = await scheduleFor(request, addDays(todayInCinema(), c.daysAhead));
    // The big hall (venue 1): its row 14 has wheelchair places with companion seats beside them.
    const screening = day.presentations.find((p) => p.isOnSale && p.venueId === 1);
    expect(screening, `a screening in the big hall in ${c.daysAhead} days`).toBeDefined();

    await page.setViewportSize({ width: c.width, height: 900 });
    await page.goto(`/order/${screening!.id}?lang=${c.lang}`);
    const order = new OrderPage(page);
    await expect(order.seatMap()).toBeVisible();
    await order.seatMap().getByRole('button', { name: c.wheelchair, exact: true }).click();
    await page.getByRole('button', { name: c.confirm }).click();
    await expect(order.selectedSeats()).toHaveCount(1);
    await order.seatMap().getByRole('button', { name: c.companion, exact: true }).click();
    await expect(order.selectedSeats()).toHaveCount(2);

    await order.continueButton().click();
    const place = page.locator('.tickets-step__seat').filter({
      has: page.getByRole('option', { name: c.wheelchairTicket }),
    });
    const beside = page.locator('.tickets-step__seat').filter({
      has: page.getByRole('option', { name: c.companionTicket }),
    });
    await expect(place).toHaveCount(1);
    await expect(beside).toHaveCount(1);
    // Each seat is offered only the tied ticket of its own kind.
    await expect(beside.getByRole('option', { name: c.wheelchairTicket })).toHaveCount(0);
    await expect(place.getByRole('option', { name: c.companionTicket })).toHaveCount(0);
    // "1 wheelchair, 1 companion": each goes to the one seat of its kind by itself.
    await order.moreTickets(c.wheelchairName).click();
    await order.moreTickets(c.companionName).click();
    await expect(place.getByRole('combobox').locator('option:checked')).toHaveText(
      c.wheelchairTicket,
    );
    await expect(beside.getByRole('combobox').locator('option:checked')).toHaveText(
      c.companionTicket,
    );
    await expect(page.locator('.tickets-step__total')).toContainText(c.total);
    await shoot(page, `wheelchair-tickets-${c.lang}-${c.width}.png`);

    // The server prices the pair as shown.
    await order.continueButton().click();
    await expect(page.getByText(c.total).first()).toBeVisible();
  });
}
