import { expect, test, type Browser, type Page } from '@playwright/test';
import { firstDayOnSale } from './api';

// The landing pages' first screen is written by the server (crates/api/src/web/first_screen,
// decision 0071) and painted before any script runs; the app then draws its own in its place. The
// two must be the same screen: the same words in the same boxes, so the take-over neither moves
// nor resizes anything (no layout shift, the largest paint stays the server's).

/** What is compared: the elements of the first screen, each by its first match in #root. */
const INDEX_PARTS = [
  '.site-header__inner',
  '.site-header__brand',
  '.site-header__nav',
  '.language-switcher',
  '.page-title',
  '.view-tabs',
  '.date-strip',
  '.date-strip__day[aria-pressed="true"]',
  '.whats-on__date',
  '.feature-card',
  '.feature-card__poster',
  '.feature-card__name',
  '.feature-card__facts',
  '.feature-card__complex',
  '.showtime',
  '.feature-card:nth-child(2)',
  '.feature-card:nth-child(2) .feature-card__poster',
];

const ORDER_PARTS = [
  '.site-header__inner',
  '.order-page > .page-title',
  '.order-summary',
  '.order-summary__poster',
  '.order-summary__name',
  '.order-summary__facts',
  '.order-steps',
  '.order-steps__item--current',
  '.seat-step__title',
  '.seat-map__viewport',
  '.seat-map__toolbar',
  '.seat-map__details',
];

/** Compared by their boxes only. */
const BOX_ONLY = ['.seat-map__viewport'];

interface Part {
  selector: string;
  text: string;
  box: { x: number; y: number; width: number; height: number } | null;
}

function measure(page: Page, selectors: string[]): Promise<Part[]> {
  return page.evaluate((list) => {
    return list.map((selector) => {
      const el = document.querySelector<HTMLElement>(`#root ${selector}`);
      if (!el) return { selector, text: '', box: null };
      const r = el.getBoundingClientRect();
      const round = (n: number) => Math.round(n);
      return {
        selector,
        // What is seen, spaces folded.
        text: (el.innerText ?? '').replace(/\s+/g, ' ').trim(),
        box: { x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height) },
      };
    });
  }, selectors);
}

/** The page as the server wrote it, in a browser that runs no script. */
async function serversScreen(browser: Browser, url: string, width: number, selectors: string[]) {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width, height: 844 },
    locale: 'he-IL',
    timezoneId: 'Asia/Jerusalem',
  });
  const page = await context.newPage();
  await page.goto(url);
  await page.evaluate(() => document.fonts.ready);
  const parts = await measure(page, selectors);
  await context.close();
  return parts;
}

/**
 * The app's page once it has taken over and drawn what `ready` names (its footer is drawn only
 * by the app; the hall's seats only once the app has the seat plan).
 */
async function appsScreen(
  browser: Browser,
  url: string,
  width: number,
  selectors: string[],
  ready: string,
) {
  const context = await browser.newContext({
    viewport: { width, height: 844 },
    locale: 'he-IL',
    timezoneId: 'Asia/Jerusalem',
  });
  const page = await context.newPage();
  await page.addInitScript(() => {
    // Every layout shift, with the nodes it moved: the server's nodes (gone once the app took
    // over) may shift while the web fonts swap in; the app's own must not move.
    const w = window as unknown as { shifted: { value: number; nodes: Node[] }[] };
    w.shifted = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        sources: { node?: Node }[];
      }[]) {
        const nodes = entry.sources.flatMap((s) => (s.node ? [s.node] : []));
        w.shifted.push({ value: entry.value, nodes });
      }
    }).observe({ type: 'layout-shift', buffered: true });
    // The largest paints, by the picture they show (a text's has no url).
    const l = window as unknown as { paints: { url: string; at: number }[] };
    l.paints = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { url: string; startTime: number }[]) {
        l.paints.push({ url: entry.url, at: entry.startTime });
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(url);
  await expect(page.locator('.site-footer')).toBeVisible();
  await expect(page.locator(ready).first()).toBeVisible();
  await page.evaluate(() => document.fonts.ready);
  const parts = await measure(page, selectors);
  // The shifts of the app's nodes (still in the page), from its take-over on.
  const shifts = await page.evaluate(() =>
    (window as unknown as { shifted: { value: number; nodes: Node[] }[] }).shifted
      .filter((s) => s.nodes.some((n) => n.isConnected))
      .reduce((sum, s) => sum + s.value, 0),
  );
  // The page's largest paint, and when the app's entry script was asked for (decision 0076).
  const largest = await page.evaluate(() => {
    const paints = (window as unknown as { paints: { url: string; at: number }[] }).paints;
    const entry = performance
      .getEntriesByType('resource')
      .find((r) => /\/assets\/index-[^/]*\.js$/.test(r.name));
    return { paint: paints[paints.length - 1], appAskedAt: entry?.startTime ?? -1 };
  });
  await context.close();
  return { parts, shifts, largest };
}

/** The largest paint is the server's picture, shown before the app's scripts were even asked for. */
function expectServersPicture(
  largest: { paint: { url: string; at: number } | undefined; appAskedAt: number },
  picture: RegExp,
) {
  expect(largest.paint?.url ?? '(a text)', 'the largest paint').toMatch(picture);
  expect(largest.appAskedAt, "the app's entry script was fetched").toBeGreaterThan(0);
  expect(largest.appAskedAt, 'after the picture was shown').toBeGreaterThanOrEqual(
    largest.paint!.at,
  );
}

function expectSame(server: Part[], app: Part[]) {
  for (const [i, part] of server.entries()) {
    expect(part.box, `${part.selector} is in the server's first screen`).not.toBeNull();
    expect(app[i].box, `${part.selector} is in the app's page`).not.toBeNull();
    // The hall's drawing is the app's alone: only its box is the server's.
    if (!BOX_ONLY.includes(part.selector)) {
      expect(part.text, `${part.selector}: the same words`).toBe(app[i].text);
    }
    for (const k of ['x', 'y', 'width', 'height'] as const) {
      expect(
        Math.abs(part.box![k] - app[i].box![k]),
        `${part.selector} ${k}: ${part.box![k]} (server) vs ${app[i].box![k]} (app)`,
      ).toBeLessThanOrEqual(1);
    }
  }
}

for (const lang of ['he', 'en'] as const) {
  for (const width of [390, 1280]) {
    test(`what's on in ${lang} at ${width} px: the server's first screen is the app's`, async ({
      browser,
      request,
    }) => {
      const day = await firstDayOnSale(request);
      const url = `/?date=${day.date}${lang === 'en' ? '&lang=en' : ''}`;
      const server = await serversScreen(browser, url, width, INDEX_PARTS);
      const app = await appsScreen(browser, url, width, INDEX_PARTS, '.feature-card');
      expectSame(server, app.parts);
      expect(app.shifts, 'no layout shift while the app takes over').toBeLessThan(0.01);
      // On a phone the first poster is the largest paint.
      if (width === 390)
        expectServersPicture(app.largest, /\/api\/features\/\d+\/(poster|placeholderImage)/);
    });
  }

  test(`an order page in ${lang}: the server's first screen is the app's`, async ({
    browser,
    request,
  }) => {
    const day = await firstDayOnSale(request);
    const screening = day.presentations.find((p) => p.isOnSale && !p.isVod && p.isReserved)!;
    const url = `/order/${screening.id}${lang === 'en' ? '?lang=en' : ''}`;
    for (const width of [390, 1280]) {
      const server = await serversScreen(browser, url, width, ORDER_PARTS);
      const app = await appsScreen(browser, url, width, ORDER_PARTS, '.seat-map .seat');
      expectSame(server, app.parts);
      expect(app.shifts, 'no layout shift while the app takes over').toBeLessThan(0.01);
      // The hall's picture, whatever the width (the app draws the hall as SVG: no new paint).
      expectServersPicture(app.largest, /\/api\/seats\/seatplan\/preview\?/);
    }
  });
}
