import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';

// The sales switches and the audit (issue 18 items 5 and 6, decision 0067), as the demo chain's
// manager meets them: the manager takes the Jerusalem complex offline for the web shop; a buyer in
// another browser context finds "book at the box office" on the order page of a screening there,
// and the server refuses the buyer a seat there (409 locationOffline); the manager reads the
// change on the Audit tab. Both tabs axe-clean. The switch is put back whatever happens (the
// suite runs one spec at a time on one server). With KUPA_E2E_SHOTS=dir, the two tabs are also
// photographed at 1280 and 768 px in Hebrew and English into that folder.

const COMPLEX = 'Kupa Jerusalem – Talpiot';
const LOCATION = 3;

async function logInAsManager(page: Page, lang: 'he' | 'en') {
  await page.goto(`/PRES-live?lang=${lang}`);
  await page.locator('input[type="email"]').fill('manager@kupa.example');
  await page.locator('input[type="password"]').fill('demo-manager-pass');
  await page.locator('form button[type="submit"]').click();
  await expect(page.locator('.staff-views')).toBeVisible();
}

async function putBack(request: APIRequestContext) {
  const r = await request.put('/api/staff/salesSwitches', {
    data: { locationId: LOCATION, channel: 'web', offline: false, advanceSales: true, open: true },
  });
  expect(r.status(), await r.text()).toBe(200);
}

test('a complex taken offline sends buyers to the box office and is in the audit', async ({
  page,
  browser,
}) => {
  test.setTimeout(30_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logInAsManager(page, 'en');
  // A screening in Jerusalem on sale now, a day or more ahead.
  const listed = (await (await page.request.get('/api/presentations/')).json())
    .presentations as Array<{
    id: number;
    locationId: number;
    isOnSale: boolean;
    isVod: boolean;
    venueId: number;
    seatplanId: number;
    dateTime: string;
  }>;
  const p = listed.find(
    (x) =>
      x.locationId === LOCATION &&
      x.isOnSale &&
      !x.isVod &&
      Date.parse(x.dateTime) > Date.now() + 86_400_000,
  );
  expect(p, 'a screening on sale in Jerusalem').toBeDefined();
  try {
    await page.getByRole('button', { name: 'Sales switches', exact: true }).click();
    const table = page.locator('table.switches', { hasText: COMPLEX });
    const online = table.getByRole('switch', { name: `Online · Web shop · ${COMPLEX}` });
    await expect(online).toBeChecked();
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/staff/salesSwitches') && r.request().method() === 'PUT',
    );
    // The switch follows the server: it turns once the change is saved.
    await online.click();
    expect((await saved).status()).toBe(200);
    await expect(online).not.toBeChecked();
    await expect(table.getByRole('row', { name: /Web shop/ })).toContainText(
      'book at the box office',
    );
    await noSeriousAxeViolations(page);

    // A buyer in another browser context.
    const buyer = await browser.newContext({ baseURL: page.url().split('/PRES-live')[0] });
    try {
      const b = await buyer.newPage();
      await b.goto(`/order/${p!.id}?lang=en`);
      await expect(b.getByRole('heading', { name: /book at the box office/ })).toBeVisible();
      const plan = await b.request.post(
        `/api/seats/seatplanV2?venueId=${p!.venueId}&seatplanId=${p!.seatplanId}`,
        { data: { recaptchaToken: 'kupa-test-captcha' } },
      );
      const seat = (await plan.json()).seatplan.seats[0] as { x: number; y: number; si: number };
      const lock = await b.request.put('/api/seats/lock-seat', {
        data: {
          recaptchaToken: 'kupa-test-captcha',
          seat: {
            PresentationId: p!.id,
            VenueId: p!.venueId,
            VenueSeatplanId: p!.seatplanId,
            VenueSectionId: seat.si,
            XCoordinate: seat.x,
            YCoordinate: seat.y,
          },
        },
      });
      expect(lock.status()).toBe(409);
      expect((await lock.json()).error.code).toBe('locationOffline');
    } finally {
      await buyer.close();
    }

    // The manager reads the change on the Audit tab, newest first.
    await page.getByRole('button', { name: 'Audit', exact: true }).click();
    const first = page.locator('table.audit tbody tr').first();
    await expect(first).toContainText('Sales switch');
    await expect(first).toContainText(COMPLEX);
    await expect(first).toContainText('Noa Mizrahi');
    await expect(first).toContainText('Online:');
    await noSeriousAxeViolations(page);
  } finally {
    await putBack(page.request);
  }
});

test('the two tabs at a tablet and a desktop width, in Hebrew and English (KUPA_E2E_SHOTS)', async ({
  page,
}) => {
  const shots = process.env.KUPA_E2E_SHOTS;
  test.skip(!shots, 'screenshots only when KUPA_E2E_SHOTS names a folder');
  test.setTimeout(120_000);
  mkdirSync(shots!, { recursive: true });
  await logInAsManager(page, 'en');
  for (const lang of ['he', 'en'] as const) {
    for (const width of [1280, 768]) {
      await page.setViewportSize({ width, height: 900 });
      for (const view of ['switches', 'audit']) {
        await page.goto(`/PRES-live?lang=${lang}&view=${view}`);
        await expect(page.locator(`table.${view}`).first()).toBeVisible();
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect.soft(overflow, `${view} ${lang} ${width} scrolls sideways`).toBeLessThanOrEqual(0);
        await noSeriousAxeViolations(page);
        await page.screenshot({ path: `${shots}/${view}-${lang}-${width}.png`, fullPage: true });
      }
    }
  }
});
