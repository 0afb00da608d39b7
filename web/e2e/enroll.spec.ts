import { expect, test, type Page } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import { DETAILS_HE, fillDetails, payOnGatewayPage, shoot } from './order-flow';
import { smsLoginCode } from './outbox';

// Demo data (docs/catalogue.md): the 10-film pass (membership 2) has season 1, "Israeli Cinema
// Premieres", over screenings 901 and 902 (required) and 903 (optional) in Hall 3 – Studio.
// Dana (customer 1) holds member 200001 with ₪231 on it; Tamar (customer 8, whom no other spec
// logs in: contact-change.spec.ts changes Ronit's number) member 200004 with nothing left on it.
const DANA = { mobile: '0524318876', ssn: '034528711', member: '200001' };
const TAMAR = { mobile: '0527730418' };

/** The seat map's drawing, and its seats. */
const seatMap = (page: Page) => page.getByRole('group', { name: /^(Seat map|מפת מושבים):/ });

/** Logs in on the customer login page by SMS code, as a person does. */
async function logInBySms(page: Page, mobile: string, lang: 'he' | 'en') {
  const he = lang === 'he';
  await page.goto(`/customer-area/login${he ? '' : '?lang=en'}`);
  await page.getByLabel(he ? 'מספר טלפון נייד' : 'Mobile number').fill(mobile);
  const asked = new Date().toISOString();
  await page.getByRole('button', { name: he ? 'שליחת קוד' : 'Send code' }).click();
  await page
    .getByLabel(he ? 'קוד מה-SMS' : 'Code from the SMS')
    .fill(await smsLoginCode(page.request, mobile, asked));
  await page.getByRole('button', { name: he ? 'כניסה' : 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/customer-area(\?lang=en)?$/);
}

/** Takes the seat the map offers first (its tab stop: the free seat nearest the best point). */
async function takeOfferedSeat(page: Page) {
  const seat = seatMap(page).locator('[role="button"][tabindex="0"]');
  const name = (await seat.getAttribute('aria-label'))!;
  await seat.click();
  await expect(seatMap(page).locator('[role="button"][aria-pressed="true"]')).toHaveCount(1);
  return name;
}

test('Dana enrols her 10-film pass in the season in Hebrew on a phone, and only once', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await logInBySms(page, DANA.mobile, 'he');

  // The customer area offers the season on the pass's member card.
  const offer = page.getByRole('link', { name: new RegExp(`^רישום מנוי ${DANA.member} לעונה`) });
  await expect(offer).toBeVisible({ timeout: 15_000 });
  await offer.click();

  // Choose seats: one seat, the same in every screening.
  await expect(page.getByRole('heading', { name: 'המושב שלך לעונה' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'עונת הבכורות של הקולנוע הישראלי',
  );
  await expect(page.getByRole('button', { name: 'הבא' })).toBeDisabled();
  await expect(seatMap(page)).toBeVisible();
  await noSeriousAxeViolations(page);
  await takeOfferedSeat(page);
  await expect(page.getByText(/^המושב שלך: שורה .+, מושב .+$/)).toBeVisible();
  await expect(page.getByRole('timer')).toContainText(/\d+:\d\d/);
  await shoot(page, 'enroll-member-seat-he-390.png');
  await page.getByRole('button', { name: 'הבא' }).click();

  // Choose tickets: the season member ticket, ₪15 of its ₪30 from the pass.
  await expect(page.getByRole('heading', { name: 'הכרטיס שלך' })).toBeVisible();
  const ticket = page.getByRole('radio', { name: /^מנוי עונה .*30\.00.*15\.00/ });
  await expect(ticket).toBeChecked();
  await noSeriousAxeViolations(page);
  await shoot(page, 'enroll-ticket-he-390.png');
  await page.getByRole('button', { name: 'הבא' }).click();

  // Choose presentations: two required, the optional one added.
  await expect(page.getByRole('heading', { name: 'הקרנות העונה' })).toBeVisible();
  const boxes = page.getByRole('checkbox');
  await expect(boxes).toHaveCount(3);
  await expect(boxes.nth(0)).toBeChecked();
  await expect(boxes.nth(0)).toBeDisabled();
  await expect(boxes.nth(1)).toBeDisabled();
  await expect(boxes.nth(2)).not.toBeChecked();
  await boxes.nth(2).check();
  await noSeriousAxeViolations(page);
  await shoot(page, 'enroll-presentations-he-390.png');
  await page.getByRole('button', { name: 'הבא' }).click();

  // Choose presentation seats: the member seat in each; the second screening moves seat.
  await expect(page.getByRole('heading', { name: 'מושב בכל הקרנה' })).toBeVisible();
  const switcher = page.getByRole('list', { name: 'הקרנות', exact: true }).getByRole('button');
  await expect(switcher).toHaveCount(3);
  const memberSeat = (await switcher.nth(0).innerText()).match(/שורה .+, מושב .+/)?.[0];
  expect(memberSeat).toBeTruthy();
  for (const i of [0, 1, 2]) await expect(switcher.nth(i)).toContainText(memberSeat!);
  await switcher.nth(1).click();
  await expect(switcher.nth(1)).toHaveAttribute('aria-pressed', 'true');
  const other = seatMap(page)
    .getByRole('button', { name: /^שורה [^,]+, מושב [^,]+, פנוי$/ })
    .first();
  const otherName = (await other.getAttribute('aria-label'))!;
  await other.click();
  const moved = otherName.replace(/, פנוי$/, '');
  await expect(switcher.nth(1)).toContainText(moved);
  await expect(switcher.nth(0)).toContainText(memberSeat!);
  await expect(switcher.nth(2)).toContainText(memberSeat!);
  await noSeriousAxeViolations(page);
  await shoot(page, 'enroll-presentation-seats-he-390.png');
  await page.getByRole('button', { name: 'הבא' }).click();

  // Customer info: the ID number, the details and terms, then the gateway's page.
  await expect(page.getByText('הכרטיסים מונפקים על שם המנוי: נדרש מספר תעודת זהות.')).toBeVisible();
  await noSeriousAxeViolations(page);
  await page.getByLabel(/^תעודת זהות/).fill(DANA.ssn);
  await fillDetails(page, DETAILS_HE);
  const pay = page.getByRole('button', { name: /^לתשלום / });
  await expect(pay).toBeVisible();
  await shoot(page, 'enroll-details-he-390.png');
  await pay.click();
  await payOnGatewayPage(page, '4242 4242 4242 4242');

  // Confirmation: the reservation's own page, three screenings' tickets.
  await expect(page.getByRole('heading', { name: 'ההזמנה הושלמה' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page).toHaveURL(/\/reservation\/[0-9a-f]{32}/);
  const tickets = page.getByRole('region', { name: 'הכרטיסים' });
  await expect(tickets.getByRole('listitem').filter({ hasText: /שורה .+, מושב .+/ })).toHaveCount(
    3,
  );
  await noSeriousAxeViolations(page);
  await shoot(page, 'enroll-confirmation-he-390.png');

  // The same member again: enrolled already.
  await page.goto('/customer-area');
  await expect(page.getByText(/^רשום לעונת הבכורות של הקולנוע הישראלי$/)).toBeVisible({
    timeout: 15_000,
  });
  await page.goto('/enroll/2');
  await expect(page.getByText('כבר רשום', { exact: true })).toBeVisible();
  await page.goto(`/enroll/2?member=${DANA.member}`);
  await expect(page.getByText('המנוי הזה כבר רשום לעונה.')).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'enroll-already-he-390.png');
});

test('a member with nothing left on the pass is refused in English on a desktop', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });

  // Nobody logged in: the auth step, which leads to the login and back.
  await page.goto('/enroll/2?lang=en');
  await expect(page.getByRole('heading', { name: 'Log in to your account' })).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'enroll-auth-en-1280.png');

  await logInBySms(page, TAMAR.mobile, 'en');
  await page.goto('/enroll/2?lang=en');
  await expect(page.getByRole('heading', { name: 'Your seat for the season' })).toBeVisible();
  await takeOfferedSeat(page);
  await noSeriousAxeViolations(page);
  await shoot(page, 'enroll-member-seat-en-1280.png');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'Your ticket' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: "The season's screenings" })).toBeVisible();
  await expect(page.getByText('Required', { exact: true })).toHaveCount(2);
  await noSeriousAxeViolations(page);
  await shoot(page, 'enroll-presentations-en-1280.png');

  // Previous goes back a step, and Next on again.
  await page.getByRole('button', { name: 'Previous' }).click();
  await expect(page.getByRole('heading', { name: 'Your ticket' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByRole('heading', { name: 'A seat in each screening' })).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();

  // The pass has nothing left for its part of the tickets: the cart is refused, in words, as
  // soon as the details step prices it.
  await expect(page.getByRole('heading', { name: 'Details and payment', level: 2 })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    'The pass balance does not cover the part of the tickets it pays.',
  );
  await expect(page.getByLabel(/^ID number/)).toHaveCount(0);
  await noSeriousAxeViolations(page);
  await shoot(page, 'enroll-refused-en-1280.png');
});
