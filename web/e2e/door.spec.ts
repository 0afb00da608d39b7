import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, request, test, type APIRequestContext } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { buyHeldSeatCommitted, holdOneSeat } from './buy-by-api';
import { shoot } from './order-flow';

// The door (decision 0044), as a new usher of the demo chain meets it: a ticket bought the real
// way (through the API, as another buyer), its e-document's QR code shown to Chromium's fake
// camera as a video made here from the QR the server draws, "valid" with the seat; shown again,
// "already scanned"; the e-document then says scanned.
//
// A ticket is valid only from its entrance time to the end of its screening, and the shared e2e
// server runs on the real clock, where no screening may be in that window. So this spec starts
// a kupa server of its own (the same debug binary, test mode, its own SQLite file, a port the
// system gives) and moves only that server's clock to the entrance time.

const root = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kupa-door-'));
const video = join(work, 'ticket.y4m');

const W = 640;
const H = 480;

/** A YUV4MPEG2 video of two frames of a grey picture (`luma` row by row, W × H). */
function writeY4m(path: string, luma: Uint8Array) {
  const chroma = new Uint8Array((W / 2) * (H / 2)).fill(128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(path, Buffer.concat([header, frame, frame]));
}

/**
 * The picture of a QR code drawn by the server (`qrSvg` of the e-document: one `M x y h w v h`
 * rectangle per run of dark modules, the quiet zone included), scaled up in the frame's middle
 * on white.
 */
function qrPicture(svg: string): Uint8Array {
  const side = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)![1]);
  const rects = [...svg.matchAll(/M(\d+) (\d+)h(\d+)v(\d+)/g)].map((m) => m.slice(1).map(Number));
  expect(rects.length, 'dark modules in the QR code').toBeGreaterThan(100);
  const module = Math.min(...rects.map(([, , w, h]) => Math.min(w, h)));
  const modules = side / module;
  const scale = Math.floor((H - 40) / modules);
  const left = Math.floor((W - modules * scale) / 2);
  const top = Math.floor((H - modules * scale) / 2);
  const luma = new Uint8Array(W * H).fill(235);
  for (const [x, y, w, h] of rects)
    for (let my = y / module; my < (y + h) / module; my += 1)
      for (let mx = x / module; mx < (x + w) / module; mx += 1)
        for (let py = 0; py < scale; py += 1)
          luma.fill(
            16,
            (top + my * scale + py) * W + left + mx * scale,
            (top + my * scale + py) * W + left + (mx + 1) * scale,
          );
  return luma;
}

// Chromium opens the file when the page asks for the camera; until the ticket exists, white.
writeY4m(video, new Uint8Array(W * H).fill(235));

test.use({
  permissions: ['camera'],
  launchOptions: {
    executablePath: process.env.KUPA_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  },
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

let server: ChildProcess | undefined;
let base = '';

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(
    join(root, 'target/debug/kupa'),
    ['serve', '--demo', '--test-mode', '--addr', `127.0.0.1:${port}`],
    {
      cwd: root,
      env: {
        ...process.env,
        KUPA_DATABASE_URL: `sqlite:${join(work, 'door.db')}`,
        KUPA_LOG: 'warn',
      },
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 300; i += 1) {
    const up = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the door spec server did not start');
});

test.afterAll(() => {
  server?.kill();
  rmSync(work, { recursive: true, force: true });
});

interface Listed {
  id: number;
  venueId: number;
  isOnSale: boolean;
  dateTime: string;
}

/** The first screening of a seated hall of business 1 starting at least 40 minutes from now. */
async function nextScreening(api: APIRequestContext): Promise<Listed> {
  for (let day = 0; day < 3; day += 1) {
    const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Jerusalem' }).format(
      new Date(Date.now() + day * 86_400_000),
    );
    const listed = (await (await api.get(`/api/seats/presentations?date=${date}`)).json())
      .presentations as Listed[];
    const found = listed
      .filter((p) => p.isOnSale && [1, 2, 4, 5].includes(p.venueId))
      .filter((p) => Date.parse(p.dateTime) > Date.now() + 40 * 60_000)
      .sort((a, b) => Date.parse(a.dateTime) - Date.parse(b.dateTime))[0];
    if (found) return found;
  }
  throw new Error('no screening on sale in the next days');
}

test('an usher scans a real QR code with the camera: valid, then already scanned', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // A buyer pays a seat; their ticket's e-document QR becomes the camera's video.
  const buyer = await request.newContext({ baseURL: base });
  const screening = await nextScreening(buyer);
  const seat = await holdOneSeat(buyer, screening.id);
  const bought = await buyHeldSeatCommitted(buyer, screening.id, seat);
  const reservation = (
    await (await buyer.get(`/api/reservations/${bought.reservationIdentifier}`)).json()
  ).reservation as { seats: Array<{ documentKey: string; row: string; seat: string }> };
  const ticket = reservation.seats[0];
  const edoc = await (await buyer.get(`/api/edocument/${ticket.documentKey}`)).json();
  expect(edoc.state).toBe('valid');
  writeY4m(video, qrPicture(edoc.qrSvg as string));
  // Twenty minutes before the screening: its doors are open (30 minutes before).
  const clock = await buyer.post('/api/test/clock', {
    data: { advanceMs: Date.parse(screening.dateTime) - 20 * 60_000 - Date.now() },
  });
  expect(clock.status(), await clock.text()).toBe(200);
  await buyer.dispose();

  // Under the shop's CSP as served, nothing the camera or the QR reader does is refused.
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(message.text()))
      refused.push(message.text());
  });

  // The usher logs in on the door screen of a phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${base}/PRES-live/door?lang=en`);
  await page.getByLabel('Email', { exact: true }).fill('usher@kupa.example');
  await page.getByLabel('Password', { exact: true }).fill('demo-usher-pass');
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Door check', level: 1 })).toBeVisible();
  await page.getByLabel('The screening whose door you guard').selectOption(String(screening.id));

  // The camera reads the ticket: valid, with its seat and number.
  const answer = page.locator('.door-answer-region');
  await expect(answer).toHaveAttribute('aria-live', 'assertive');
  // The first read waits for the reader's chunk and a frame it decodes, on a busy machine too.
  await expect(answer.getByText('Valid – come in')).toBeVisible({ timeout: 40_000 });
  await expect(answer.getByText(`${bought.reservationNumber}-1`)).toBeVisible();
  await expect(answer.locator('dd', { hasText: new RegExp(`^${ticket.seat}$`) })).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'door-valid-en-390.png');

  // Shown again (a new look at the door): already scanned, with when.
  await page.reload();
  await expect(answer.getByText('Already scanned')).toBeVisible({ timeout: 20_000 });
  await expect(answer.getByText(/^Scanned at /)).toBeVisible();
  await shoot(page, 'door-already-en-390.png');

  // In Hebrew on a tablet: the same answer, right to left.
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.goto(`${base}/PRES-live/door?p=${screening.id}`);
  await expect(answer.getByText('הכרטיס כבר נסרק')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await noSeriousAxeViolations(page);
  await shoot(page, 'door-already-he-768.png');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'door-already-he-390.png');
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.goto(`${base}/PRES-live/door?lang=en&p=${screening.id}`);
  await expect(answer.getByText('Already scanned')).toBeVisible({ timeout: 20_000 });
  await shoot(page, 'door-already-en-768.png');

  // The ticket's e-document now says scanned.
  await page.goto(`${base}/edocument/${ticket.documentKey}?lang=en`);
  await expect(page.getByText(/This ticket was already scanned/)).toBeVisible();
  expect(refused, 'CSP refusals').toEqual([]);
});
