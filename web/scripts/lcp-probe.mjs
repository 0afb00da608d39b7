// The largest-contentful-paint candidates of one page, in the order Chromium reports them, in
// Debian's Chromium at a phone's size with the CPU slowed 4×: which element Lighthouse's LCP is,
// and when the app's take-over of the server's first screen (decision 0071) makes a new one.
// Figures, not a test. Usage (a server running): node scripts/lcp-probe.mjs http://127.0.0.1:8080/order/1043
import { chromium } from '@playwright/test';
const url = process.argv[2];
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});
const page = await browser.newPage({
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
});
const cdp = await page.context().newCDPSession(page);
await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
await page.addInitScript(() => {
  window.__lcp = [];
  new PerformanceObserver((l) => {
    for (const e of l.getEntries())
      window.__lcp.push({
        t: Math.round(e.startTime),
        size: e.size,
        el: e.element ? e.element.outerHTML.slice(0, 90) : null,
      });
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((l) => {
    for (const e of l.getEntries())
      window.__lcp.push({ paint: e.name, t: Math.round(e.startTime) });
  }).observe({ type: 'paint', buffered: true });
});
await page.goto(url);
await page.waitForTimeout(6000);
console.log(JSON.stringify(await page.evaluate(() => window.__lcp.slice()), null, 1));
await browser.close();
