// A measurement, not a test of behaviour: what one buyer's browser downloads for the seat status
// while the big hall's map is open for a minute and other buyers hold and release seats (one
// change every 2 s). Run only on demand (docs/benchmark.md "Seat status in the browser"):
//   KUPA_MEASURE_STATUS_MS=60000 E2E_PORT=18800 scripts/e2e.sh status-bytes
// It prints the bytes on the wire (compressed bodies and headers) and the JSON bytes.
import { expect, test, type APIRequestContext } from '@playwright/test';
import type { Seat } from './buy-by-api';
import { OrderPage } from './pages/OrderPage';
import { addDays, todayInCinema } from '../src/lib/format';

const MEASURE_MS = Number(process.env.KUPA_MEASURE_STATUS_MS ?? 0);
const CAPTCHA = 'kupa-test-captcha';

test.skip(!MEASURE_MS, 'a measurement: set KUPA_MEASURE_STATUS_MS to run it');

test('what the buyer’s browser downloads for the seat status in the big hall', async ({
  page,
  playwright,
  baseURL,
}) => {
  test.setTimeout(MEASURE_MS + 60_000);
  const others: APIRequestContext[] = [];
  for (let i = 0; i < 4; i += 1) others.push(await playwright.request.newContext({ baseURL }));
  const listed = await others[0].get(
    `/api/seats/presentations?date=${addDays(todayInCinema(), 2)}`,
  );
  const p = (
    (await listed.json()).presentations as Array<{
      id: number;
      venueId: number;
      seatplanId: number;
      isOnSale: boolean;
    }>
  ).findLast((s) => s.venueId === 1 && s.isOnSale)!;
  expect(p, 'a screening in the big hall on sale in two days').toBeDefined();
  const plan = await others[0].post(
    `/api/seats/seatplanV2?venueId=${p.venueId}&seatplanId=${p.seatplanId}`,
    { data: { recaptchaToken: CAPTCHA } },
  );
  const planSeats = (await plan.json()).seatplan.seats as (Seat & { hc: boolean; lv: boolean })[];
  const status = await others[0].get(`/api/seats/seats-statusV2?presentationId=${p.id}`);
  const free = new Set(
    ((await status.json()).seats as { si: number; x: number; y: number; isAvailable: boolean }[])
      .filter((s) => s.isAvailable)
      .map((s) => `${s.si}:${s.x}:${s.y}`),
  );
  // Plain free seats at the back, away from the buyer's view of the front.
  const seats = planSeats
    .filter((s) => !s.hc && !s.lv && free.has(`${s.si}:${s.x}:${s.y}`))
    .slice(-40);

  const reads: { url: string; status: number; wire: number; json: number }[] = [];
  page.on('requestfinished', async (request) => {
    if (!new URL(request.url()).pathname.startsWith('/api/seats/seats-status')) return;
    const response = await request.response();
    const sizes = await request.sizes();
    const body = response && response.status() === 200 ? (await response.body()).length : 0;
    reads.push({
      url: request.url(),
      status: response?.status() ?? 0,
      wire: sizes.responseBodySize + sizes.responseHeadersSize,
      json: body,
    });
  });

  await page.goto(`/order/${p.id}?lang=en`);
  await expect(new OrderPage(page).seatMap()).toBeVisible();
  const start = Date.now();
  const changes: number[] = [];
  // Other buyers: a seat of the back rows held, then let go, one change every 2 s.
  for (let n = 0; Date.now() - start < MEASURE_MS; n += 1) {
    const who = others[Math.floor(n / 2) % others.length];
    const seat = seats[Math.floor(n / 2) % seats.length];
    const ref = {
      ...{ PresentationId: p.id, VenueId: p.venueId, VenueSeatplanId: p.seatplanId },
      ...{ VenueSectionId: seat.si, TicketGroupId: seat.tg, XCoordinate: seat.x },
      YCoordinate: seat.y,
    };
    const path = n % 2 === 0 ? '/api/seats/lock-seat' : '/api/seats/unlock-seat';
    const answer = await who.put(path, { data: { recaptchaToken: CAPTCHA, seat: ref } });
    changes.push(answer.status());
    await page.waitForTimeout(2000);
  }
  for (const o of others) await o.dispose();
  const sum = (k: 'wire' | 'json') => reads.reduce((a, r) => a + r[k], 0);
  const by = (s: number) => reads.filter((r) => r.status === s).length;
  console.log(
    `status reads in ${MEASURE_MS / 1000} s: ${reads.length} (${by(200)} × 200, ${by(304)} × 304); ` +
      `on the wire ${sum('wire')} bytes, JSON ${sum('json')} bytes; first ${reads[0]?.url}`,
  );
  console.log(`other buyers' holds and releases answered: ${changes.join(' ')}`);
  for (const r of reads) console.log(`  ${r.status} wire ${r.wire} json ${r.json} ${r.url}`);
  expect(reads.length).toBeGreaterThan(0);
});
