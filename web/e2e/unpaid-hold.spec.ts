import { expect, test, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_EN,
  DETAILS_HE,
  PLAIN_FREE_EN,
  PLAIN_FREE_HE,
  fillDetails,
  holdSeatsInOneRow,
  reservedScreening,
  shoot,
  throughTicketsAndExtras,
} from './order-flow';
import { smsLoginCode } from './outbox';

// Demo data (docs/catalogue.md): Dana Levi, customer 1, and Avi Mizrahi, customer 4, each with an
// active member card: they may reserve and pay later (decision 0028). One customer a test, so no
// test waits out another's 30 seconds between login codes.
const DANA = '0524318876';
const AVI = '0586634120';
// Noa Peretz, customer 5, an active member too: she gives her hold up.
const NOA = '0533398761';

/** The newest SMS code to the number, as the phone got it (the test-mode outbox). */
/** Logs in on the login page with the mobile number and the SMS code, as a person does. */
async function logInOnThePage(page: Page, lang: 'he' | 'en', mobile: string) {
  await page.goto(`/customer-area/login${lang === 'en' ? '?lang=en' : ''}`);
  const he = lang === 'he';
  await page.getByLabel(he ? 'מספר טלפון נייד' : 'Mobile number').fill(mobile);
  const asked = new Date().toISOString();
  await page.getByRole('button', { name: he ? 'שליחת קוד' : 'Send code', exact: true }).click();
  await expect(
    page.getByText(he ? /שלחנו קוד בן 6 ספרות/ : /We sent a 6-digit code/),
  ).toBeVisible();
  await page
    .getByLabel(he ? 'קוד מה-SMS' : 'Code from the SMS')
    .fill(await smsLoginCode(page.request, mobile, asked));
  await page.getByRole('button', { name: he ? 'כניסה' : 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/customer-area(\?lang=en)?$/);
}

test('a member reserves seats to pay later, finds the hold in the customer area and pays it (he, 360 px)', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const presentationId = await reservedScreening(page.request, 8, 0);
  await page.setViewportSize({ width: 360, height: 800 });
  await logInOnThePage(page, 'he', DANA);

  // The order as usual up to the payment step, where the member is offered the hold.
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 2, PLAIN_FREE_HE);
  await throughTicketsAndExtras(page, order, 'פרטי המזמין');
  await fillDetails(page, DETAILS_HE);
  const offer = page.getByRole('region', { name: 'לשריין עכשיו, לשלם אחר כך' });
  await expect(offer).toBeVisible();
  await expect(offer).toContainText('יש לשלם ולאסוף עד');
  await noSeriousAxeViolations(page);
  await shoot(page, 'hold-choice-he-360.png');
  await offer.getByRole('button', { name: 'לשריין ולשלם אחר כך', exact: true }).click();

  // The hold's own page: reserved, not paid, with the deadline and "Pay now".
  await expect(page).toHaveURL(/\/hold\/[0-9a-f]{32}$/);
  const holdUrl = new URL(page.url()).pathname;
  const id = holdUrl.split('/').pop()!;
  await expect(page.getByRole('heading', { name: 'המושבים שמורים לך', level: 1 })).toBeVisible();
  const card = page.getByRole('article');
  await expect(card).toContainText('שמור – טרם שולם');
  await expect(card).toContainText('לשלם ולאסוף עד:');
  await noSeriousAxeViolations(page);
  await shoot(page, 'hold-page-he-360.png');

  // Nobody else reads it.
  const stranger = await request.get(`/api/reservations/${id}/hold`);
  expect(stranger.status()).toBe(401);

  // In the customer area: listed first, with "Pay now".
  await page.goto('/customer-area');
  const holds = page.getByRole('region', { name: 'שריונים לתשלום מאוחר' });
  await expect(holds).toBeVisible();
  const listed = holds.getByRole('article');
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText('שמור – טרם שולם');
  await noSeriousAxeViolations(page);
  await shoot(page, 'hold-area-he-360.png');
  // "Give up" asks first; keeping it changes nothing.
  await listed.getByRole('button', { name: /^ויתור על השמירה/ }).click();
  const confirm = listed.getByRole('group', { name: /לוותר על שמירת המקומות/ });
  await expect(confirm).toContainText('לא שולם דבר');
  await noSeriousAxeViolations(page);
  await shoot(page, 'hold-give-up-he-360.png');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shoot(page, 'hold-give-up-he-1280.png');
  await confirm.getByRole('button', { name: 'להשאיר את השמירה' }).click();
  await expect(confirm).toBeHidden();
  await shoot(page, 'hold-area-he-1280.png');
  await page.setViewportSize({ width: 360, height: 800 });

  // Pay now: the payment page in the whole window, then back to the area, paid.
  await listed.getByRole('button', { name: /^לשלם עכשיו/ }).click();
  await expect(page).toHaveURL(/\/pay\/[0-9a-f]+/);
  await page.locator('input[name="cardNumber"]').fill('4242 4242 4242 4242');
  await page.locator('input[name="expiry"]').fill('12/30');
  await page.locator('input[name="cvv"]').fill('123');
  await page.locator('button[type="submit"], input[type="submit"]').first().click();
  await expect(page).toHaveURL(/\/customer-area\?.*status=captured/, { timeout: 20_000 });
  const paid = page.getByRole('region', { name: 'שריונים לתשלום מאוחר' }).getByRole('article');
  await expect(paid).toContainText('שולם');
  await paid.getByRole('link', { name: /לכרטיסים/ }).click();
  await expect(page).toHaveURL(new RegExp(`/reservation/${id}$`));
  await expect(page.getByRole('heading', { name: 'ההזמנה הושלמה' })).toBeVisible({
    timeout: 20_000,
  });
  const back = await page.request.get(`/api/reservations/${id}`);
  expect(back.status()).toBe(200);
  expect(
    ((await back.json()) as { reservation: { seats: unknown[] } }).reservation.seats,
  ).toHaveLength(2);
});

test('in English, the hold is offered, made, and shown on its page (390 px)', async ({ page }) => {
  test.setTimeout(120_000);
  const presentationId = await reservedScreening(page.request, 8, 1);
  await page.setViewportSize({ width: 390, height: 844 });
  await logInOnThePage(page, 'en', AVI);
  await page.goto(`/order/${presentationId}?lang=en`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_EN);
  await throughTicketsAndExtras(page, order, 'Your details');
  await fillDetails(page, DETAILS_EN);
  const offer = page.getByRole('region', { name: 'Reserve now, pay later' });
  await expect(offer).toContainText('Pay and collect by');
  await shoot(page, 'hold-choice-en-390.png');
  await offer.getByRole('button', { name: 'Reserve and pay later', exact: true }).click();
  await expect(page).toHaveURL(/\/hold\/[0-9a-f]{32}\?lang=en$/);
  await expect(
    page.getByRole('heading', { name: 'Your seats are reserved', level: 1 }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: /^Pay now/ })).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
  await shoot(page, 'hold-page-en-390.png');
  await page.goto('/customer-area?lang=en');
  await expect(page.getByRole('region', { name: 'Reserved to pay later' })).toBeVisible();
  await shoot(page, 'hold-area-en-390.png');
});

test('a member gives a hold up before its time and its seat is on sale again at once (en, 390 px)', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const presentationId = await reservedScreening(page.request, 8, 2);
  await page.setViewportSize({ width: 390, height: 844 });
  await logInOnThePage(page, 'en', NOA);
  await page.goto(`/order/${presentationId}?lang=en`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_EN);
  await throughTicketsAndExtras(page, order, 'Your details');
  await fillDetails(page, DETAILS_EN);
  await page
    .getByRole('region', { name: 'Reserve now, pay later' })
    .getByRole('button', { name: 'Reserve and pay later', exact: true })
    .click();
  await expect(page).toHaveURL(/\/hold\/[0-9a-f]{32}\?lang=en$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  const held = (
    (await (await page.request.get(`/api/reservations/${id}/hold`)).json()) as {
      hold: { seats: { row: string; seat: string }[] };
    }
  ).hold.seats[0];
  // What another browser (no session, no login) sees of that seat, found on the hall's plan.
  const p = (
    (await (await request.get(`/api/presentations/${presentationId}`)).json()) as {
      presentation: { venueId: number; seatplanId: number };
    }
  ).presentation;
  const plan = await request.post(
    `/api/seats/seatplanV2?venueId=${p.venueId}&seatplanId=${p.seatplanId}`,
    { data: { recaptchaToken: 'kupa-test-captcha' } },
  );
  type Place = { x: number; y: number; si: number; r: string; n: string; s?: string };
  const place = ((await plan.json()) as { seatplan: { seats: Place[] } }).seatplan.seats.find(
    (x) => x.r === held.row && x.n === held.seat,
  )!;
  const seenByOthers = async () => {
    const r = await request.get(`/api/seats/seats-statusV2?presentationId=${presentationId}`);
    const seats = ((await r.json()) as { seats: Place[] }).seats;
    return seats.find((x) => x.x === place.x && x.y === place.y && x.si === place.si)?.s;
  };
  expect(await seenByOthers()).toBe('heldByOther');

  const card = page.getByRole('article');
  await card.getByRole('button', { name: /^Give up this reservation/ }).click();
  const confirm = card.getByRole('group', { name: /Give up the reservation\?/ });
  await expect(confirm).toContainText('Nothing was paid, so there is nothing to refund.');
  await noSeriousAxeViolations(page);
  await shoot(page, 'hold-give-up-en-390.png');
  await confirm.getByRole('button', { name: 'Yes, release the seats' }).click();
  await expect(page.getByRole('heading', { name: 'Reservation released', level: 1 })).toBeVisible();
  await expect(card).toContainText('You gave up this reservation and its seats went back on sale.');
  await expect(card.getByRole('button', { name: /^Pay now/ })).toHaveCount(0);
  await expect.poll(seenByOthers).toBe('available');
  await noSeriousAxeViolations(page);
  await shoot(page, 'hold-given-up-en-390.png');
  // The area lists it released; paying it now is refused.
  await page.goto('/customer-area?lang=en');
  await expect(
    page.getByRole('region', { name: 'Reserved to pay later' }).getByRole('article'),
  ).toContainText('Released');
  const again = await page.request.post(`/api/reservations/${id}/release`);
  expect(again.status()).toBe(409);
});
