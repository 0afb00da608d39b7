import { expect, test, type Page } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_HE,
  PLAIN_FREE_HE,
  fillDetails,
  holdSeatsInOneRow,
  payByCard,
  reservedScreening,
  shoot,
  throughTicketsAndExtras,
} from './order-flow';

interface OutboxMail {
  reference: string | null;
  kind: string;
  subject: string;
  text: string;
  html: string;
  attachments: { name: string; contentType: string }[];
}

interface Place {
  row: string;
  seat: string;
}

/** The confirmation: its two seats' QR codes and e-documents, and the signed PDF and calendar. */
async function expectTickets(page: Page, seats: Place[]) {
  await expect(page.getByRole('heading', { name: 'ההזמנה הושלמה' })).toBeVisible();
  const digital = page.getByRole('region', { name: 'כרטיסים דיגיטליים' });
  await expect(digital.getByRole('img', { name: /^קוד QR לכניסה/ })).toHaveCount(2);
  for (const { row, seat } of seats) {
    await expect(digital.getByText(new RegExp(`שורה ${row}, \\S+ ${seat}$`))).toBeVisible();
  }
  const edocument = digital.getByRole('link', { name: /פתיחת הכרטיס הדיגיטלי/ }).first();
  await expect(edocument).toHaveAttribute('href', /^\/edocument\/[0-9a-f]+(\?lang=he)?$/);
  await expect(page.getByRole('link', { name: 'הורדת הכרטיסים (PDF)' })).toHaveAttribute(
    'href',
    /\/tickets\.pdf\?exp=\d+&sig=[0-9a-f]+&lang=he$/,
  );
  await expect(page.getByRole('link', { name: 'הוספה ליומן' })).toHaveAttribute(
    'href',
    /\/calendar\.ics\?exp=\d+&sig=[0-9a-f]+$/,
  );
}

test('the paid order has its own address: a reload keeps it, the mail opens it on another device, a stranger is told it is not there', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const presentationId = await reservedScreening(request, 7, 1);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/order/${presentationId}`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  const held = await holdSeatsInOneRow(order, 2, PLAIN_FREE_HE);
  // "שורה 5, מושב 7, פנוי" → row 5, seat 7.
  const seats = held.map((name) => {
    const [, row, seat] = /^שורה ([^,]+), \S+ ([^,]+),/.exec(name)!;
    return { row, seat };
  });
  await throughTicketsAndExtras(page, order, 'פרטי המזמין');
  await fillDetails(page, DETAILS_HE);
  await page.getByRole('button', { name: /^לתשלום / }).click();
  await expect(page.getByRole('dialog', { name: 'תשלום' })).toBeVisible();
  await payByCard(page, 'טופס תשלום מאובטח', '4242 4242 4242 4242');

  // Paid: the order moved to the reservation's own address.
  await expect(page.getByRole('heading', { name: 'ההזמנה הושלמה' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page).toHaveURL(/\/reservation\/[0-9a-f]{32}$/);
  const id = new URL(page.url()).pathname.split('/').pop()!;
  await expectTickets(page, seats);
  await shoot(page, 'confirmation-he-390.png');

  // A reload and a new tab of the same browser (the buyer's session) show it again.
  await page.reload();
  await expectTickets(page, seats);
  const tab = await page.context().newPage();
  await tab.goto(`/reservation/${id}`);
  await expectTickets(tab, seats);
  await tab.close();

  // The confirmation mail: HTML and text, every seat, the e-documents, the signed page link.
  const outbox = await request.get('/api/test/outbox/mail?to=dana@example.com&limit=100');
  expect(outbox.ok()).toBeTruthy();
  const mail = ((await outbox.json()) as { messages: OutboxMail[] }).messages.find(
    (m) => m.reference === id,
  );
  expect(mail, 'the confirmation mail of this reservation').toBeDefined();
  expect(mail!.kind).toBe('orderConfirmation');
  expect(mail!.attachments.map((a) => a.contentType)).toEqual(['application/pdf']);
  expect(mail!.html).toContain('<html lang="he" dir="rtl">');
  for (const { row, seat } of seats) {
    expect(mail!.html).toContain(`שורה ${row} · מושב ${seat}`);
    expect(mail!.text).toContain(`שורה ${row} · מושב ${seat}`);
  }
  expect(mail!.text.match(/\/edocument\/[0-9a-f]+/g)).toHaveLength(2);
  const link = mail!.text.match(
    new RegExp(`https?://\\S+/reservation/${id}\\?exp=\\d+&sig=[0-9a-f]+&lang=he`),
  );
  expect(link, mail!.text).not.toBeNull();
  const signed = new URL(link![0]);

  // Another device: no session, only the mail's link.
  const other = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await other.newPage();
  await phone.goto(`${signed.pathname}${signed.search}`);
  await expectTickets(phone, seats);
  const pdf = await phone.request.get(
    (await phone.getByRole('link', { name: 'הורדת הכרטיסים (PDF)' }).getAttribute('href'))!,
  );
  expect(pdf.headers()['content-type']).toContain('application/pdf');
  const ics = await phone.request.get(
    (await phone.getByRole('link', { name: 'הוספה ליומן' }).getAttribute('href'))!,
  );
  expect((await ics.text()).replace(/\r\n /g, '')).toMatch(
    new RegExp(`URL:https?://\\S+/reservation/${id}\\?exp=\\d+&sig=[0-9a-f]+&lang=he`),
  );
  await other.close();

  // A stranger with the bare address: told plainly, with a way onward.
  const stranger = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const them = await stranger.newPage();
  await them.goto(`/reservation/${id}`);
  await expect(them.getByRole('heading', { name: 'לא מצאנו כאן הזמנה' })).toBeVisible();
  await expect(them.getByRole('heading', { name: 'ההזמנה הושלמה' })).toHaveCount(0);
  await expect(them.getByRole('link', { name: 'לרשימת ההקרנות' })).toHaveAttribute('href', '/');
  await stranger.close();
});
