import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import { takesPictureRun } from './pictures';
import {
  DETAILS_EN,
  DETAILS_HE,
  PLAIN_FREE_EN,
  PLAIN_FREE_HE,
  fillDetails,
  holdSeatsInOneRow,
  payByCard,
  reservedScreening,
  shoot,
} from './order-flow';

// One purchase walked step by step, a full-page picture of every step kept in web/e2e-artifacts/
// as step-<name>-<lang>-<width>.png for a person to look at: Hebrew on a small phone and a laptop,
// English on a phone. Every step is also checked for sideways scrolling.

const RUNS = [
  { lang: 'he', width: 360, index: 0 },
  { lang: 'he', width: 1280, index: 1 },
  { lang: 'en', width: 390, index: 2 },
] as const;

const WORDS = {
  he: {
    plainFree: PLAIN_FREE_HE,
    details: DETAILS_HE,
    detailsHeading: 'פרטי המזמין',
    summary: 'סיכום ההזמנה',
    pay: /^לתשלום /,
    dialog: 'תשלום',
    frame: 'טופס תשלום מאובטח',
    done: 'ההזמנה הושלמה',
    more: /^עוד /,
  },
  en: {
    plainFree: PLAIN_FREE_EN,
    details: DETAILS_EN,
    detailsHeading: 'Your details',
    summary: 'Order summary',
    pay: /^Pay /,
    dialog: 'Payment',
    frame: 'Secure payment form',
    done: 'Your order is complete',
    more: /^One more /,
  },
} as const;

async function noSidewaysScroll(page: Page, step: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${step}: the page scrolls sideways`).toBeLessThanOrEqual(0);
}

for (const { lang, width, index } of RUNS) {
  if (!takesPictureRun(lang, width, lang === 'he' ? [360, 1280] : [390])) continue;
  test(`every step of a purchase, pictured in ${lang} at ${width}px`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const words = WORDS[lang];
    const presentationId = await reservedScreening(request, 7, index);
    const picture = async (step: string) => {
      await noSidewaysScroll(page, step);
      await shoot(page, `step-${step}-${lang}-${width}.png`);
    };
    // A modal covers the window, not the page: pictured as the buyer sees it.
    const pictureWindow = async (step: string) => {
      await noSidewaysScroll(page, step);
      await page.screenshot({
        path: fileURLToPath(
          new URL(`../e2e-artifacts/step-${step}-${lang}-${width}.png`, import.meta.url),
        ),
      });
    };

    await page.setViewportSize({ width, height: 800 });
    await page.goto(`/order/${presentationId}?lang=${lang}`);
    await expect(page.locator('html')).toHaveAttribute('dir', lang === 'he' ? 'rtl' : 'ltr');
    const order = new OrderPage(page);
    await expect(order.seatMap()).toBeVisible();
    await holdSeatsInOneRow(order, 2, words.plainFree);
    await expect(order.timer()).toBeVisible();
    await picture('seats');

    await order.continueButton().click();
    await expect(order.seatTickets(1)).toBeVisible();
    for (const i of [0, 1]) await expect(order.seatTicketChoice(i)).not.toHaveValue('');
    await picture('tickets');
    await order.continueButton().click();

    const details = page.getByRole('heading', { name: words.detailsHeading });
    await expect(details.or(order.continueButton())).toBeVisible();
    if (!(await details.isVisible())) {
      await page.getByRole('button', { name: words.more }).first().click();
      await expect(page.locator('.product-card').first().getByRole('status')).toHaveText('1');
      await picture('products');
      await order.continueButton().click();
    }
    await expect(details).toBeVisible();
    await picture('details');

    await fillDetails(page, words.details);
    await expect(page.getByRole('region', { name: words.summary })).toBeVisible();
    await expect(page.getByRole('button', { name: words.pay })).toBeVisible();
    if (lang === 'en') {
      // Every line in English, the hall's sections included.
      await expect(page.getByRole('region', { name: words.summary })).not.toContainText(
        /[\u0590-\u05FF]/,
      );
    }
    await picture('payment');

    await page.getByRole('button', { name: words.pay }).click();
    await expect(page.getByRole('dialog', { name: words.dialog })).toBeVisible();
    const gateway = page.frameLocator(`iframe[title="${words.frame}"]`);
    await expect(gateway.locator('input[name="cardNumber"]')).toBeVisible();
    await pictureWindow('dialog');

    await payByCard(page, words.frame, '4000 0000 0000 3220');
    await gateway.locator('input[name="code"]').fill('1234');
    await gateway.locator('button[type="submit"], input[type="submit"]').first().click();
    await expect(page.getByRole('heading', { name: words.done })).toBeVisible({ timeout: 20_000 });
    await picture('confirmation');

    // The e-document of the first ticket, as its link in the buyer's e-mail opens it.
    const pdf = await page.locator('a[href*="/tickets.pdf"]').first().getAttribute('href');
    const reservationId = /\/reservations\/([^/]+)\/tickets\.pdf/.exec(pdf ?? '')?.[1];
    expect(reservationId, 'the confirmation links the reservation').toBeTruthy();
    const answer = await page.request.get(`/api/reservations/${reservationId}`);
    expect(answer.ok()).toBe(true);
    const body = (await answer.json()) as { reservation: { seats: { documentKey: string }[] } };
    await page.goto(`/edocument/${body.reservation.seats[0].documentKey}?lang=${lang}`);
    await expect(
      page
        .locator('svg')
        .filter({ has: page.locator('path, rect') })
        .first(),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await picture('edocument');
  });
}
