import { expect, test } from '@playwright/test';
import { reservedScreening, PLAIN_FREE_HE } from './order-flow';
import { OrderPage } from './pages/OrderPage';

// Two kupa nodes on one PostgreSQL database (scripts/e2e.sh starts them when
// KUPA_TEST_POSTGRES_URL is set). Node B's page polls nothing (?seatPoll=off), so only the live
// event stream — node A's NOTIFY, node B's LISTEN, node B's server-sent events — can tell it.
const nodeA = process.env.KUPA_E2E_NODE_A;
const nodeB = process.env.KUPA_E2E_NODE_B;

test.skip(!nodeA || !nodeB, 'two nodes run only with PostgreSQL (set KUPA_TEST_POSTGRES_URL)');

test('a seat held through node A turns unavailable on node B’s map within a second, without a reload', async ({
  browser,
  playwright,
}) => {
  const api = await playwright.request.newContext({ baseURL: nodeA });
  const id = await reservedScreening(api, 2, 1);
  await api.dispose();

  const contextB = await browser.newContext({
    baseURL: nodeB,
    viewport: { width: 1280, height: 900 },
  });
  const pageB = await contextB.newPage();
  const loads: string[] = [];
  pageB.on('request', (r) => {
    if (r.url().includes('/seats/seats-status')) loads.push(r.url());
  });
  await pageB.goto(`/order/${id}?seatPoll=off`);
  const watcher = new OrderPage(pageB);
  await expect(watcher.seatMap()).toBeVisible();
  await expect(pageB.locator('section.seat-step[data-live="live"]')).toBeVisible();
  const seatName = (await watcher.seats(PLAIN_FREE_HE).first().getAttribute('aria-label'))!;
  const onB = watcher.seatMap().getByRole('button', { name: seatName, exact: true });
  await expect(onB).toHaveCount(1);
  const loadsBefore = loads.length;

  const contextA = await browser.newContext({
    baseURL: nodeA,
    viewport: { width: 1280, height: 900 },
  });
  const pageA = await contextA.newPage();
  await pageA.goto(`/order/${id}`);
  const buyer = new OrderPage(pageA);
  await expect(buyer.seatMap()).toBeVisible();
  await buyer.seatMap().getByRole('button', { name: seatName, exact: true }).click();
  await expect(buyer.selectedSeats()).toHaveCount(1);
  const heldAt = Date.now();

  // On node B the seat is no longer offered as free: its name now says it is taken.
  await expect(onB).toHaveCount(0, { timeout: 1000 });
  const seen = Date.now() - heldAt;
  expect(loads.length, 'node B’s page did not reload the seat status').toBe(loadsBefore);
  expect(seen).toBeLessThan(1000);
  test.info().annotations.push({ type: 'event delay', description: `${seen} ms` });

  await contextA.close();
  await contextB.close();
});
