import { expect, test, type Page } from '@playwright/test';
import { axeResults } from './axe';
import { buyHeldSeat, holdOneSeat } from './buy-by-api';

// A new manager of the demo chain (its test-mode password, docs/api.md §13) logs in on
// /PRES-live, drills from the calendar to a presentation box, and watches the held and sold
// counts and the seat map change without reload while another browser holds and buys a seat.

async function noSeriousAxe(page: Page, step: string) {
  const results = await axeResults(page);
  const bad = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 5) }));
  expect.soft(bad, `serious or critical axe violations on ${step}`).toEqual([]);
}

for (const width of [820, 1280]) {
  test(`a manager drills to a presentation box and sees a hold and a sale live (${width} px)`, async ({
    page,
    playwright,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    await page.setViewportSize({ width, height: 1000 });
    await page.goto('/PRES-live?lang=en');
    await expect(page.getByRole('heading', { name: 'Staff login', exact: true })).toBeVisible();
    await noSeriousAxe(page, 'the staff login');
    await page.getByLabel('Email', { exact: true }).fill('manager@kupa.example');
    await page.getByLabel('Password', { exact: true }).fill('wrong password!');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('The email or password is wrong.');
    await page.getByLabel('Password', { exact: true }).fill('demo-manager-pass');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();

    // The calendar: 29 days, today marked; tomorrow's screenings are all still on sale.
    const days = page.locator('.staff-calendar button');
    await expect(days).toHaveCount(29);
    await noSeriousAxe(page, 'the calendar');
    const today = page.locator('.staff-calendar button[aria-current="date"]');
    await expect(today).toHaveCount(1);
    await page.locator('.staff-calendar li:has(button[aria-current="date"]) + li button').click();

    // Locations, with the total row last.
    const table = page.getByRole('table');
    await expect(table.getByRole('row').last()).toContainText('All cinemas');

    // The location view follows a hold and a sale in another browser within 2 s, no reload.
    const port = table.getByRole('row').filter({
      has: page.getByRole('button', { name: 'Kupa Tel Aviv Port', exact: true }),
    });
    const [portSold, portHeld] = [port.locator('td').nth(1), port.locator('td').nth(2)];
    const portSoldBefore = Number(await portSold.textContent());
    const portHeldBefore = Number(await portHeld.textContent());
    const filter = await (await page.request.get('/api/PRES-live/getCinemaFilterData')).json();
    const day = new Date(`${filter.today as string}T00:00:00Z`);
    day.setUTCDate(day.getUTCDate() + 1);
    const tomorrow = day.toISOString().slice(0, 10);
    const shopper = await playwright.request.newContext({ baseURL });
    const listed = await shopper.get(`/api/seats/presentations?date=${tomorrow}`);
    const bigHall = (
      (await listed.json()).presentations as Array<{
        id: number;
        venueId: number;
        isOnSale: boolean;
      }>
    ).find((p) => p.venueId === 1 && p.isOnSale)!.id;
    const shopperSeat = await holdOneSeat(shopper, bigHall);
    await expect(portHeld).toHaveText(String(portHeldBefore + 1), { timeout: 2000 });
    await buyHeldSeat(shopper, bigHall, shopperSeat);
    await expect(portSold).toHaveText(String(portSoldBefore + 1), { timeout: 2000 });
    await expect(portHeld).toHaveText(String(portHeldBefore), { timeout: 2000 });
    await shopper.dispose();

    // Then the Tel Aviv Port's halls.
    await table.getByRole('button', { name: 'Kupa Tel Aviv Port', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Hall', exact: true })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await page.getByRole('button', { name: 'Hall 1 – Grand Hall', exact: true }).click();

    // The box: the first presentation's figures and its seat map, live.
    await expect(page.getByRole('heading', { name: 'Presentations', exact: true })).toBeVisible();
    const first = page.locator('.staff-box__item').first();
    await first.click();
    await expect(page.getByRole('status').filter({ hasText: 'Live:' })).toBeVisible();
    const held = page.locator('dd[data-figure="held"]');
    const map = page.locator('.staff-map svg');
    await expect(map).toBeVisible();
    await noSeriousAxe(page, 'the presentation box');
    const heldBefore = Number(await held.textContent());
    const mapHeldBefore = Number(await map.getAttribute('data-held'));
    const presentationId = Number(new URL(page.url()).searchParams.get('p'));
    expect(presentationId).toBeGreaterThan(0);

    // Another browser holds a seat: within 2 s the count and the map show it, without reload.
    const other = await playwright.request.newContext({ baseURL });
    const seat = await holdOneSeat(other, presentationId);
    await expect(held).toHaveText(String(heldBefore + 1), { timeout: 2000 });
    await expect(map).toHaveAttribute('data-held', String(mapHeldBefore + 1), { timeout: 2000 });

    // It buys the seat: the sold count and the map follow, the hold becomes a sale.
    const sold = page.locator('dd[data-figure="sold"]');
    const soldBefore = Number(await sold.textContent());
    const mapSoldBefore = Number(await map.getAttribute('data-sold'));
    await buyHeldSeat(other, presentationId, seat);
    await expect(sold).toHaveText(String(soldBefore + 1), { timeout: 2000 });
    await expect(map).toHaveAttribute('data-sold', String(mapSoldBefore + 1), { timeout: 2000 });
    await expect(held).toHaveText(String(heldBefore), { timeout: 2000 });
    await other.dispose();

    // Hebrew: the same box, right to left.
    const url = new URL(page.url());
    url.searchParams.set('lang', 'he');
    await page.goto(url.toString());
    await expect(page.getByRole('heading', { name: 'הקרנות', exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  });
}

test('a manager reads a feature’s sales, sets a reference option’s quantity and resends tickets', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto('/PRES-live?lang=en');
  await page.getByLabel('Email', { exact: true }).fill('manager@kupa.example');
  await page.getByLabel('Password', { exact: true }).fill('demo-manager-pass');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();

  await page.getByRole('button', { name: 'Sales', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sales by feature', exact: true })).toBeVisible();
  // The demo's past week has paid tickets: the chart and the presentations with money.
  await expect(page.locator('.staff-figure canvas').first()).toBeVisible();
  await expect(page.getByRole('table').getByRole('row').nth(1)).toContainText('₪');
  await noSeriousAxe(page, 'the sales view');

  await page.getByRole('button', { name: 'Reference prompts', exact: true }).click();
  const quantity = page.getByLabel('Quantity left for 101', { exact: true });
  await expect(quantity).toHaveValue('2');
  await quantity.fill('5');
  await page
    .getByRole('row')
    .filter({ has: quantity })
    .getByRole('button', { name: 'Save' })
    .click();
  await expect(page.getByLabel('Quantity left for 101', { exact: true })).toHaveValue('5');

  // A customer on the phone: the tickets never came. An unknown number is told; a real one is
  // sent again to the order's own mobile number (the test mode's outbox).
  const number = page.getByLabel('Reservation number', { exact: true });
  await number.fill('NO-SUCH-ONE');
  await page.getByRole('button', { name: 'Send again', exact: true }).click();
  await expect(page.getByRole('alert')).not.toBeEmpty();
  const buyer = await playwright.request.newContext({ baseURL });
  // Tomorrow's screenings in the big hall are all on sale.
  const tomorrow = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(
    new Date(Date.now() + 86_400_000),
  );
  const listed = await buyer.get(`/api/seats/presentations?date=${tomorrow}`);
  const presentationId = (
    (await listed.json()).presentations as Array<{ id: number; venueId: number; isOnSale: boolean }>
  ).find((p) => p.venueId === 1 && p.isOnSale)!.id;
  const seat = await holdOneSeat(buyer, presentationId);
  const reservation = await buyHeldSeat(buyer, presentationId, seat);
  await buyer.dispose();
  await number.fill(reservation);
  await page.getByRole('button', { name: 'Send again', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: reservation })).toHaveText(
    `The tickets of reservation ${reservation} were sent again.`,
  );
  await noSeriousAxe(page, 'the reference-prompt admin');
});
