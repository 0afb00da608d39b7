import { expect, test, type Browser, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_EN,
  DETAILS_HE,
  PLAIN_FREE_EN,
  PLAIN_FREE_HE,
  buyTwoSeats,
  reservedScreening,
  shoot,
  type BuyWords,
} from './order-flow';

interface Words extends BuyWords {
  seatName: (row: string, seat: string) => string;
  seatLine: (row: string, seat: string) => string;
  free: string;
  offer: string;
  title: string;
  pick: RegExp;
  summary: (from: { row: string; seat: string }, to: { row: string; seat: string }) => string;
  confirm: string;
  done: string;
  openTicket: RegExp;
  shots: { change: string; changeWide?: string; reservation: string };
}

const HE: Words = {
  lang: 'he',
  plainFree: PLAIN_FREE_HE,
  details: DETAILS_HE,
  detailsHeading: 'פרטי המזמין',
  pay: /^לתשלום /,
  payDialog: 'תשלום',
  gatewayFrame: 'טופס תשלום מאובטח',
  paid: 'ההזמנה הושלמה',
  seatName: (row, seat) => `שורה ${row}, מושב ${seat}`,
  seatLine: (row, seat) => `שורה ${row}, מושב ${seat}`,
  free: 'פנוי',
  offer: 'החלפת מקומות',
  title: 'החלפת מקומות',
  pick: /^להעביר את הכרטיס הזה/,
  summary: (f, t) => `שורה ${f.row}, מושב ${f.seat} ← שורה ${t.row}, מושב ${t.seat}`,
  confirm: 'אישור ההחלפה',
  done: 'המקומות הוחלפו.',
  openTicket: /^פתיחת הכרטיס הדיגיטלי/,
  shots: {
    change: 'seat-change-he-360.png',
    changeWide: 'seat-change-he-1280.png',
    reservation: 'seat-change-done-he-360.png',
  },
};

const EN: Words = {
  lang: 'en',
  plainFree: PLAIN_FREE_EN,
  details: DETAILS_EN,
  detailsHeading: 'Your details',
  pay: /^Pay /,
  payDialog: 'Payment',
  gatewayFrame: 'Secure payment form',
  paid: 'Your order is complete',
  seatName: (row, seat) => `Row ${row}, seat ${seat}`,
  seatLine: (row, seat) => `row ${row}, seat ${seat}`,
  free: 'available',
  offer: 'Change seats',
  title: 'Change seats',
  pick: /^Move this ticket/,
  summary: (f, t) => `row ${f.row}, seat ${f.seat} → row ${t.row}, seat ${t.seat}`,
  confirm: 'Confirm the change',
  done: 'Your seats have changed.',
  openTicket: /^Open the digital ticket/,
  shots: { change: 'seat-change-en-390.png', reservation: 'seat-change-done-en-390.png' },
};

/** Another browser (no session of the buyer's) watching the screening's seat map. */
async function watcher(browser: Browser, presentationId: number, lang: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(lang === 'he' ? `/order/${presentationId}` : `/order/${presentationId}?lang=en`);
  const map = new OrderPage(page);
  await expect(map.seatMap()).toBeVisible();
  return { context, map };
}

const spoken = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** On the change screen: a plain free seat of the first ticket's section, in another row. */
async function freeSeatElsewhere(page: Page, from: { row: string; seat: string }, w: Words) {
  const map = new OrderPage(page).seatMap();
  // `has` is read inside each section: a locator from the page, not from the map.
  const own = page.getByRole('button', {
    name: new RegExp(`^${spoken(w.seatName(from.row, from.seat))},`),
  });
  const section = map.locator('g[role="group"]').filter({ has: own });
  const names = await section
    .getByRole('button', { name: w.plainFree })
    .evaluateAll(
      (els, row) =>
        els
          .map((el) => el.getAttribute('aria-label') ?? '')
          .filter((label) => !label.includes(` ${row},`)),
      from.row,
    );
  expect(names.length).toBeGreaterThan(0);
  // Far from the bought row, mid-row: no single seat left beside it.
  const name = names[Math.floor(names.length / 2)];
  const [, row, seat] = /^\S+ ([^,]+), \S+ ([^,]+),/.exec(name)!;
  return { name, row, seat };
}

async function changeOneSeat(page: Page, browser: Browser, presentationId: number, w: Words) {
  const [first, second] = await buyTwoSeats(page, presentationId, w);
  const reservationUrl = page.url().split('?')[0];
  const { context, map } = await watcher(browser, presentationId, w.lang);
  const firstOnWatch = map.seatMap().getByRole('button', {
    name: new RegExp(`^${spoken(w.seatName(first.row, first.seat))},`),
  });
  await expect(firstOnWatch).not.toHaveAccessibleName(new RegExp(`, ${w.free}$`));

  // The reservation page offers the change; the change screen marks both tickets.
  const offer = page.getByRole('region', { name: w.offer });
  await offer.getByRole('link', { name: w.offer }).click();
  await expect(page).toHaveURL(/\/reservation\/[0-9a-f]{32}\/seats/);
  await expect(page.getByRole('heading', { name: w.title, level: 1 })).toBeVisible();
  const changeMap = new OrderPage(page).seatMap();
  await expect(changeMap).toBeVisible();
  await expect(page.locator('.seat-change')).toHaveAttribute('data-live', 'live');
  await noSeriousAxeViolations(page);

  // The first seat bought (tapped on the map: its ticket is picked) moves to another row.
  await changeMap
    .getByRole('button', { name: new RegExp(`^${spoken(w.seatName(first.row, first.seat))},`) })
    .click();
  const to = await freeSeatElsewhere(page, first, w);
  await changeMap.getByRole('button', { name: to.name, exact: true }).click();
  await expect(
    page.getByRole('region', { name: w.lang === 'he' ? 'השינוי שלך' : 'Your change' }),
  ).toContainText(w.summary(first, to));
  await expect(changeMap.locator('[role="button"][aria-pressed="true"]')).toHaveCount(2);
  await noSeriousAxeViolations(page);
  await shoot(page, w.shots.change);
  await page.getByRole('button', { name: w.confirm }).click();

  // Back on the reservation: the new seat, a new digital ticket, the other seat as it was.
  await expect(page).toHaveURL(/\/reservation\/[0-9a-f]{32}\?(.*&)?seatsChanged=1/);
  await expect(page.getByRole('status').filter({ hasText: w.done })).toBeVisible();
  const passes = page.locator('.confirmation__pass-seat');
  await expect(passes.filter({ hasText: w.seatLine(to.row, to.seat) })).toHaveCount(1);
  await expect(passes.filter({ hasText: w.seatLine(second.row, second.seat) })).toHaveCount(1);
  await expect(page.getByText(w.seatLine(first.row, first.seat))).toHaveCount(0);
  await shoot(page, w.shots.reservation);

  // The other browser sees the old seat free again (the seat event stream) and the new one taken.
  await expect(firstOnWatch).toHaveAccessibleName(new RegExp(`, ${w.free}$`), { timeout: 10_000 });
  const newOnWatch = map.seatMap().getByRole('button', {
    name: new RegExp(`^${spoken(w.seatName(to.row, to.seat))},`),
  });
  await expect(newOnWatch).not.toHaveAccessibleName(new RegExp(`, ${w.free}$`));
  await context.close();

  // The new e-document names the new seat.
  const ticket = page
    .getByRole('link', { name: w.openTicket })
    .filter({ hasText: w.seatLine(to.row, to.seat) });
  await ticket.click();
  await expect(page).toHaveURL(/\/edocument\/[0-9a-f]+/);
  await expect(page.getByText(w.seatLine(to.row, to.seat))).toBeVisible();
  return { reservationUrl, to };
}

test('a guest moves one of two seats: the new seat on the reservation and its e-document, the old one free on another browser', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const presentationId = await reservedScreening(request, 11, 0);
  await page.setViewportSize({ width: 360, height: 780 });
  const { reservationUrl } = await changeOneSeat(page, browser, presentationId, HE);
  // The same screen on a wide screen, with a ticket picked.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${reservationUrl}/seats`);
  await expect(new OrderPage(page).seatMap()).toBeVisible();
  await page.getByRole('button', { name: HE.pick }).nth(1).click();
  await shoot(page, HE.shots.changeWide!);
});

test('the same in English', async ({ page, request, browser }) => {
  test.setTimeout(180_000);
  const presentationId = await reservedScreening(request, 11, 1);
  await page.setViewportSize({ width: 390, height: 844 });
  await changeOneSeat(page, browser, presentationId, EN);
});
