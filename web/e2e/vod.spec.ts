import { expect, test, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import {
  DETAILS_EN,
  DETAILS_HE,
  fillDetails,
  payByCard,
  shoot,
  type DetailsLabels,
} from './order-flow';
import { OrderPage } from './pages/OrderPage';

// Video on demand (issue 19 item 2, decision 0053): a new buyer finds the demo film "The Test
// Signal" on What's on, rents (or buys) it through the normal order with no seat step, and from
// the confirmation's "watch now" plays its first seconds: the video element's time moves.

interface Words {
  lang: 'he' | 'en';
  film: string;
  details: DetailsLabels;
  detailsHeading: string;
  pay: RegExp;
  payDialog: string;
  gatewayFrame: string;
  paid: string;
  watchNow: string;
  start: string;
  player: RegExp;
  /** The tickets step's heading and line, the confirmation's window and text message. */
  chooseTicket: string;
  atHome: string;
  viewings: string;
  sendLink: string;
  seatWords: RegExp;
}

const EN: Words = {
  lang: 'en',
  film: 'The Test Signal',
  details: DETAILS_EN,
  detailsHeading: 'Your details',
  pay: /^Pay /,
  payDialog: 'Payment',
  gatewayFrame: 'Secure payment form',
  paid: 'Your order is complete',
  watchNow: 'Watch now',
  start: 'Start watching',
  player: /^Player: /,
  chooseTicket: 'Your ticket',
  atHome: 'Watching at home',
  viewings: 'Viewings',
  sendLink: 'Send the link by SMS',
  seatWords: /Your seats|Your seat has|seat 20|Doors open|Send the tickets|arrive 15 minutes/,
};

const HE: Words = {
  lang: 'he',
  film: 'אות הבדיקה',
  details: DETAILS_HE,
  detailsHeading: 'פרטי המזמין',
  pay: /^לתשלום /,
  payDialog: 'תשלום',
  gatewayFrame: 'טופס תשלום מאובטח',
  paid: 'ההזמנה הושלמה',
  watchNow: 'לצפייה עכשיו',
  start: 'התחלת צפייה',
  player: /^נגן: /,
  chooseTicket: 'הכרטיס שלכם',
  atHome: 'צפייה בבית',
  viewings: 'צפיות',
  sendLink: 'שליחת הקישור ב-SMS',
  seatWords: /המושבים שלכם|למושב יש|מושב 20|כניסה לאולם|שליחת הכרטיסים|15 דקות לפני/,
};

/** From What's on to the paid reservation, as a new buyer: `offer` picks the rent or buy link. */
async function getTheFilm(page: Page, w: Words, offer: RegExp, shot: string) {
  await page.goto(w.lang === 'he' ? '/' : '/?lang=en');
  const link = page.getByRole('link', { name: new RegExp(`${w.film}, .*${offer.source}`) });
  await link.first().click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  const order = new OrderPage(page);
  // No seat to choose: the order opens on the tickets step, its one ticket chosen.
  await expect(order.seatTickets(0)).toBeVisible({ timeout: 15_000 });
  await expect(order.seatMap()).toHaveCount(0);
  await expect(order.seatTicketChoice(0)).not.toHaveValue('');
  // A film at home is no seat: the step says what is bought.
  await expect(page.getByRole('heading', { name: w.chooseTicket, exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: w.atHome })).toBeVisible();
  await expect(page.getByText(w.seatWords)).toHaveCount(0);
  await shoot(page, `vod-order-${shot}.png`);
  await order.continueButton().click();
  await expect(page.getByRole('heading', { name: w.detailsHeading })).toBeVisible();
  await fillDetails(page, w.details);
  await page.getByRole('button', { name: w.pay }).click();
  await expect(page.getByRole('dialog', { name: w.payDialog })).toBeVisible();
  await payByCard(page, w.gatewayFrame, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: w.paid })).toBeVisible({ timeout: 20_000 });
  // Its window and the link by text message; nothing of seats, doors or arriving early.
  await expect(page.getByText(w.viewings, { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: w.sendLink })).toBeVisible();
  await expect(page.getByText(w.seatWords)).toHaveCount(0);
  await shoot(page, `vod-confirmation-${shot}.png`);
}

/** From the confirmation's "watch now" to a playing film. */
async function watch(page: Page, w: Words, shot: string) {
  await page.getByRole('link', { name: w.watchNow }).click();
  await expect(page).toHaveURL(/\/vod\?reservation=[0-9a-f]{32}/);
  await expect(page.getByRole('heading', { level: 1, name: w.film })).toBeVisible();
  await page.getByRole('button', { name: w.start }).click();
  const video = page.getByRole('application', { name: w.player }).or(page.locator('video'));
  await expect(video.first()).toBeVisible();
  // Headless Chromium plays the muted film by itself: its time moves past the start.
  await expect
    .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime), {
      timeout: 15_000,
    })
    .toBeGreaterThan(0.5);
  await page.locator('video').evaluate((v: HTMLVideoElement) => v.pause());
  await noSeriousAxeViolations(page);
  await shoot(page, `vod-player-${shot}.png`);
}

test('in English at 1280 px, a new buyer rents the film and plays its first seconds', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await getTheFilm(page, EN, /Rent/, 'en-1280');
  await watch(page, EN, 'en-1280');
  // One viewing spent, and a reload goes on with the same session without spending another.
  await expect(page.getByText('2 left, 1 used')).toBeVisible();
  await page.reload();
  await expect(page.locator('video')).toBeVisible();
  await expect(page.getByText('2 left, 1 used')).toBeVisible();
});

test('in Hebrew at 360 px, a new buyer buys the film and plays it', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await getTheFilm(page, HE, /רכישה/, 'he-360');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await watch(page, HE, 'he-360');
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
});

test('Safari is told to use a current Chrome', async ({ browser }) => {
  const context = await browser.newContext({
    userAgent:
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  });
  const page = await context.newPage();
  await page.goto('/vod?reservation=00000000000000000000000000000000&lang=en');
  await expect(
    page.getByRole('heading', { name: 'This browser cannot play video on demand' }),
  ).toBeVisible();
  await expect(page.getByText(/iPhone, iPad and Safari are not supported/)).toBeVisible();
  await context.close();
});
