import { expect, test, type Page, type Request } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { DETAILS_EN, PLAIN_FREE_EN, buyTwoSeats, shoot, type BuyWords } from './order-flow';
import { OrderPage } from './pages/OrderPage';

// A buyer finds the film festival's mini-site (issue 19 item 1, decision 0050): its own title,
// banner and colours and its programme; buys two seats of one of its screenings through the
// normal order, every call of which carries miniSiteUrl; the reservation is the mini-site's.

const EN: BuyWords = {
  lang: 'en',
  plainFree: PLAIN_FREE_EN,
  details: DETAILS_EN,
  detailsHeading: 'Your details',
  pay: /^Pay /,
  payDialog: 'Payment',
  gatewayFrame: 'Secure payment form',
  paid: 'Your order is complete',
};

const TITLE_EN = 'Israeli Film Festival – Jerusalem';
const TITLE_HE = 'פסטיבל הקולנוע הישראלי – ירושלים';

async function festivalLooksItsOwn(page: Page, title: string) {
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const site = page.locator('[data-mini-site="festival"]');
  await expect(site).toHaveCSS('background-color', 'rgb(251, 246, 238)');
  await expect(page.getByRole('heading', { level: 1, name: title })).toHaveCSS(
    'color',
    'rgb(138, 21, 56)',
  );
  await expect(site.locator('img.mini-site__banner')).toHaveJSProperty('complete', true);
}

for (const [lang, width, height, title] of [
  ['he', 360, 780, TITLE_HE],
  ['he', 1280, 900, TITLE_HE],
  ['en', 390, 844, TITLE_EN],
] as const) {
  test(`the festival in ${lang} at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto(lang === 'he' ? '/mini-site/festival' : '/mini-site/festival?lang=en');
    await festivalLooksItsOwn(page, title);
    await expect(page.locator('html')).toHaveAttribute('dir', lang === 'he' ? 'rtl' : 'ltr');
    // Only the festival's films: four of them, each with its screenings.
    await expect(page.locator('article.mini-site-film')).toHaveCount(4);
    await noSeriousAxeViolations(page);
    await shoot(page, `mini-site-${lang}-${width}.png`);
  });
}

test('a mini-site that does not exist says so', async ({ page }) => {
  await page.goto('/mini-site/nowhere?lang=en');
  await expect(
    page.getByRole('heading', { name: 'There is no mini-site at this address' }),
  ).toBeVisible();
});

test('buying through the festival makes the order the mini-site’s', async ({ page }) => {
  const calls: Request[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (
      /^\/api\/(presentations\/\d+(\/ticketGroups)?|seats\/seats-statusV2\/compact|cart|payment\/commit)$/.test(
        path,
      )
    ) {
      calls.push(r);
    }
  });
  await page.goto('/mini-site/festival?lang=en');
  await festivalLooksItsOwn(page, TITLE_EN);
  // The last screening on sale of the last film: far from the other specs' seats.
  const buy = page.getByRole('link', { name: /^Buy tickets: / }).last();
  const href = (await buy.getAttribute('href'))!;
  expect(href).toMatch(/^\/order\/\d+\?miniSiteUrl=festival/);
  const presentationId = Number(/\/order\/(\d+)/.exec(href)![1]);
  await buy.click();
  await expect(page).toHaveURL(/\/order\/\d+\?miniSiteUrl=festival/);
  await expect(new OrderPage(page).seatMap()).toBeVisible();
  // The order, as the order specs buy (a reload of the order page keeps its mini-site).
  await buyTwoSeats(page, presentationId, EN);

  const id = /\/reservation\/([0-9a-f]{32})/.exec(page.url())![1];
  const answer = await page.request.get(`/api/reservations/${id}`);
  expect(answer.status()).toBe(200);
  const { reservation } = await answer.json();
  expect([reservation.channel, reservation.referralMiniSiteId]).toEqual(['miniSite', 1]);

  // Every call of the order said which mini-site it was through.
  const through = (r: Request) =>
    new URL(r.url()).searchParams.get('miniSiteUrl') === 'festival' ||
    (r.postDataJSON()?.miniSiteUrl ?? r.postDataJSON()?.cart?.miniSiteUrl) === 'festival';
  const kinds = new Set<string>();
  for (const r of calls) {
    const kind = new URL(r.url()).pathname.replace(/\/\d+(?=\/|$)/g, '/{id}');
    kinds.add(kind);
    expect(through(r), `${r.method()} ${r.url()}`).toBe(true);
  }
  expect([...kinds].sort()).toEqual(
    expect.arrayContaining([
      '/api/cart',
      '/api/payment/commit',
      '/api/presentations/{id}',
      '/api/presentations/{id}/ticketGroups',
      '/api/seats/seats-statusV2/compact',
    ]),
  );
});
