import { expect, test, type CDPSession, type Locator } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import { reservedScreening } from './order-flow';

// Drag and pinch on a touch screen, through Chromium's own touch input (CDP), so the browser
// turns real touches into pointer events and honours the map's touch-action.
test.use({ hasTouch: true, isMobile: false });

type Touch = { x: number; y: number; id: number };

async function touch(
  cdp: CDPSession,
  type: 'touchStart' | 'touchMove' | 'touchEnd',
  points: Touch[],
) {
  await cdp.send('Input.dispatchTouchEvent', {
    type,
    touchPoints: points.map((p) => ({ x: p.x, y: p.y, id: p.id })),
  });
}

/** Moves the fingers from `from` to `to` in `steps` touchMove events. */
async function gesture(cdp: CDPSession, from: Touch[], to: Touch[], steps = 8) {
  await touch(cdp, 'touchStart', from);
  for (let i = 1; i <= steps; i += 1) {
    const at = from.map((f, k) => ({
      id: f.id,
      x: f.x + ((to[k].x - f.x) * i) / steps,
      y: f.y + ((to[k].y - f.y) * i) / steps,
    }));
    await touch(cdp, 'touchMove', at);
  }
  await touch(cdp, 'touchEnd', []);
}

const width = (svg: Locator) => svg.evaluate((el) => el.getBoundingClientRect().width);
const scrollLeft = (box: Locator) => box.evaluate((el) => el.scrollLeft);

test('on a touch screen the seat map pinches in around the fingers and drags sideways', async ({
  page,
  request,
}) => {
  const presentationId = await reservedScreening(request, 8, 1);
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  const box = page.locator('.seat-map__viewport');
  const svg = page.locator('svg.seat-map__svg');
  const reset = page.getByRole('button', { name: 'איפוס' });
  const cdp = await page.context().newCDPSession(page);

  // Back to the whole hall first, so the pinch has room to zoom.
  const zoomOut = page.getByRole('button', { name: 'הקטנה' });
  while (await zoomOut.isEnabled()) await zoomOut.click();
  const whole = await width(svg);
  const rect = (await box.boundingBox())!;
  const cx = rect.x + rect.width / 2;
  const cy = rect.y + Math.min(rect.height, 200) / 2;

  // Pinch out: the fingers go from 40 px to 160 px apart.
  await gesture(
    cdp,
    [
      { id: 1, x: cx - 20, y: cy },
      { id: 2, x: cx + 20, y: cy },
    ],
    [
      { id: 1, x: cx - 80, y: cy },
      { id: 2, x: cx + 80, y: cy },
    ],
  );
  const pinched = await width(svg);
  expect(pinched).toBeGreaterThan(whole * 2.5);
  // Around the centre of the fingers: the middle of the hall is still in the middle.
  const scrolled = await scrollLeft(box);
  const middle = (scrolled + (await box.evaluate((el) => el.clientWidth)) / 2) / pinched;
  expect(middle).toBeGreaterThan(0.4);
  expect(middle).toBeLessThan(0.6);

  // One finger drags the hall: moving it 120 px right shows 120 px more of the left side.
  await gesture(cdp, [{ id: 1, x: cx + 60, y: cy }], [{ id: 1, x: cx - 60, y: cy }]);
  expect(await scrollLeft(box)).toBeGreaterThan(scrolled + 100);
  // A drag that started on a seat did not choose it.
  await expect(order.selectedSeats()).toHaveCount(0);

  // The mouse drags too; a plain tap still chooses a seat.
  const before = await scrollLeft(box);
  await page.mouse.move(cx - 60, cy);
  await page.mouse.down();
  await page.mouse.move(cx + 40, cy, { steps: 5 });
  await page.mouse.up();
  expect(await scrollLeft(box)).toBeLessThan(before - 80);
  await expect(order.selectedSeats()).toHaveCount(0);

  await reset.click();
  expect(Math.abs((await width(svg)) - whole)).toBeLessThan(whole * 2);
  await expect(reset).toBeDisabled();
});
