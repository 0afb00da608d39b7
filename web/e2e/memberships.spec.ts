import { expect, test } from '@playwright/test';
import { noSeriousAxeViolations } from './axe';
import {
  DETAILS_EN,
  DETAILS_HE,
  PLAIN_FREE_EN,
  fillDetails,
  holdSeatsInOneRow,
  payByCard,
  payOnGatewayPage,
  reservedScreening,
  shoot,
} from './order-flow';
import { OrderPage } from './pages/OrderPage';
import { mailedLink } from './outbox';

// A valid Israeli ID number (its check digit): a membership order requires one.
const ID_NUMBER = '123456782';

test('a new customer buys the 10-film pass in Hebrew, and tops it up from the customer area in English', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);

  // The choice, in Hebrew: the memberships on sale, as cards.
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/memberships');
  await expect(page.getByRole('heading', { name: 'מנויים', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'כרטיס סטודנט' })).toBeVisible();
  const pass = page.getByRole('region', { name: 'כרטיסייה – 10 סרטים' });
  await expect(pass.getByText('בתוקף 12 חודשים מיום התשלום', { exact: false })).toBeVisible();
  await noSeriousAxeViolations(page);
  await shoot(page, 'memberships-choose-he-360.png');

  // The 10-film pass: ₪330 for a ₪350 balance; one of it at most.
  const ten = pass.getByRole('button', { name: /^עוד: כרטיסייה – 10 סרטים .*330.*350/ });
  await ten.click();
  await expect(ten).toBeDisabled();
  await expect(
    pass.getByRole('button', { name: /^עוד: כרטיסייה – 10 סרטים .*175/ }),
  ).toBeDisabled();
  await page.getByRole('button', { name: 'המשך', exact: true }).click();

  // Nobody is logged in: the auth step. A new customer opens an account, confirms it by the
  // mailed link, and comes back to the memberships' checkout with the choice.
  await expect(page.getByRole('heading', { name: 'התחברות לאזור האישי' })).toBeVisible();
  await expect(page.getByText(/1 × כרטיסייה – 10 סרטים/)).toBeVisible();
  const email = `member-${Date.now()}@example.com`;
  await page.getByRole('link', { name: 'פתיחת חשבון חדש' }).click();
  const form = page.getByRole('form', { name: 'הרשמה' });
  await form.getByLabel('שם פרטי').fill('יעל');
  await form.getByLabel('שם משפחה').fill('אדלר');
  await form.getByLabel('כתובת מייל').fill(email);
  await form.getByLabel('סיסמה', { exact: true }).fill('סיסמה ארוכה 8');
  await form.getByRole('button', { name: 'הרשמה' }).click();
  await expect(page.getByRole('status')).toContainText(email);
  await page.goto(await mailedLink(request, email, 'verifyEmail'));
  await expect(page).toHaveURL(/\/memberships\?.*step=checkout/, { timeout: 15_000 });
  await expect(page.getByText(/1 × כרטיסייה – 10 סרטים/)).toBeVisible();

  // The details, with the ID number a membership requires, and the gateway's page.
  await expect(page.getByText('המנוי מונפק על שם החבר בו: נדרש מספר תעודת זהות.')).toBeVisible();
  await page.getByLabel(/^תעודת זהות/).fill(ID_NUMBER);
  await fillDetails(page, DETAILS_HE);
  await page.getByRole('button', { name: /^לתשלום / }).click();
  await payOnGatewayPage(page, '4242 4242 4242 4242');

  // The confirmation: the new member number, its dates, its balance.
  await expect(page.getByRole('heading', { name: 'המנוי שלך מוכן', level: 1 })).toBeVisible({
    timeout: 20_000,
  });
  expect(page.url()).toMatch(/\/memberships\?order=/);
  const memberNumber = (
    await page.locator('.membership-member__number').first().innerText()
  ).trim();
  expect(memberNumber).toMatch(/^\d{8}$/);
  const member = page.locator('.membership-member', { hasText: memberNumber });
  await expect(member).toContainText('כרטיסייה – 10 סרטים');
  await expect(member).toContainText(/יתרה: .*350\.00/);
  await expect(member).toContainText(/בתוקף .* – /);
  await noSeriousAxeViolations(page);
  await shoot(page, 'memberships-confirmation-he-360.png');
  // Its own address: a reload keeps it.
  await page.reload();
  await expect(page.getByText(memberNumber)).toBeVisible();

  // The card in the customer area, with its balance.
  await page.getByRole('link', { name: 'לכרטיסי החבר שלי' }).click();
  const section = page.getByRole('region', { name: 'מנויים ושוברים' });
  const card = section.locator('.area__card', { hasText: memberNumber });
  await expect(card).toBeVisible();
  await expect(card).toContainText('כרטיסייה – 10 סרטים');
  await expect(card).toContainText(/350\.00/);

  // In English at 390 px: a top-up of 5 films from the card's link.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/customer-area?lang=en');
  const enCard = page
    .getByRole('region', { name: 'Memberships and vouchers' })
    .locator('.area__card', { hasText: memberNumber });
  await enCard.getByRole('link', { name: `Top up 10-film pass, card ${memberNumber}` }).click();
  await expect(page).toHaveURL(new RegExp(`/memberships\\?topUp=${memberNumber}&lang=en$`));
  await expect(page.getByRole('heading', { name: 'Top up your card', level: 1 })).toBeVisible();
  await expect(
    page.getByText(`Adds to the balance of member card ${memberNumber}`, { exact: false }),
  ).toBeVisible();
  // Only what can be topped up.
  await expect(page.getByRole('region')).toHaveCount(1);
  await noSeriousAxeViolations(page);
  await shoot(page, 'memberships-topup-en-390.png');
  await page.getByRole('button', { name: /^More: 10-film pass .*175/ }).click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(
    page.getByText(new RegExp(`1 × 10-film pass .*top-up of card ${memberNumber}`)),
  ).toBeVisible();
  await page.getByLabel(/^ID number/).fill(ID_NUMBER);
  await fillDetails(page, DETAILS_EN);
  await page.getByRole('button', { name: /^Pay / }).click();
  await payOnGatewayPage(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'Your card is topped up', level: 1 })).toBeVisible(
    {
      timeout: 20_000,
    },
  );
  const topped = page.locator('.membership-member', { hasText: memberNumber });
  await expect(topped).toContainText(/Balance: .*525\.00/);
  await noSeriousAxeViolations(page);
  await shoot(page, 'memberships-topped-up-en-390.png');

  await page.goto('/customer-area?lang=en');
  await expect(
    page
      .getByRole('region', { name: 'Memberships and vouchers' })
      .locator('.area__card', { hasText: memberNumber }),
  ).toContainText(/525\.00/);

  // The pass pays for a ticket: its member number on the tickets step lists the pass ticket,
  // which takes ₪35 from the balance and nothing in money.
  const presentationId = await reservedScreening(request, 10, 0);
  await page.goto(`/order/${presentationId}?lang=en`);
  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_EN);
  await order.continueButton().click();
  await page.getByLabel('Member number (for member tickets)').fill(memberNumber);
  await page.getByRole('button', { name: 'Show member tickets' }).click();
  await expect(page.getByText(`Member tickets for ${memberNumber} are shown`)).toBeVisible();
  await expect(page.getByText(/^from your film pass: .*35\.00/)).toBeVisible();
  await order.moreTickets('Film pass – from your balance').click();
  await expect(order.seatTicketChoice(0).locator('option:checked')).toHaveText(/^Film pass/);
  await shoot(page, 'memberships-pass-ticket-en-390.png');
  await order.continueButton().click();
  const details = page.getByRole('heading', { name: 'Your details' });
  await expect(details.or(order.continueButton())).toBeVisible();
  if (!(await details.isVisible())) await order.continueButton().click();
  await expect(details).toBeVisible();
  await fillDetails(page, DETAILS_EN);
  await page.getByRole('button', { name: /^Pay / }).click();
  const dialog = page.getByRole('dialog', { name: 'Payment' });
  const done = page.getByRole('heading', { name: 'Your order is complete' });
  await expect(dialog.or(done)).toBeVisible({ timeout: 20_000 });
  if (await dialog.isVisible()) await payByCard(page, 'Secure payment form', '4242 4242 4242 4242');
  await expect(done).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(/^Paid from your film pass: .*35\.00/)).toBeVisible();
  await page.goto('/customer-area?lang=en');
  await expect(
    page
      .getByRole('region', { name: 'Memberships and vouchers' })
      .locator('.area__card', { hasText: memberNumber }),
  ).toContainText(/490\.00/);
});

test('the choice of memberships in English on a wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/memberships?lang=en');
  await expect(page.getByRole('heading', { name: 'Memberships', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: /^More: Student card/ }).click();
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  // The student card asks for its card number, checked with its pattern before going on.
  const field = page.getByLabel(/^Student card number/);
  await field.fill('12ab');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('This is not a valid Student card number');
  await noSeriousAxeViolations(page);
  await shoot(page, 'memberships-member-details-en-1280.png');
  await page.getByRole('button', { name: 'Back to the choice' }).click();
  await expect(page.getByRole('region', { name: 'Student card' }).locator('output')).toHaveText(
    '1',
  );
  await noSeriousAxeViolations(page);
  await shoot(page, 'memberships-choose-en-1280.png');
});

test('the member details step in Hebrew on a phone, kept by a reload', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/memberships');
  await page.getByRole('button', { name: /^עוד: כרטיס סטודנט/ }).click();
  await page.getByRole('button', { name: 'המשך', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'פרטי החבר: כרטיס סטודנט' })).toBeVisible();
  await page.getByRole('button', { name: 'המשך', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('נא למלא: מספר תעודת סטודנט');
  await noSeriousAxeViolations(page);
  await shoot(page, 'memberships-member-details-he-360.png');
  await page.getByLabel(/^מספר תעודת סטודנט/).fill('2024001');
  await page.getByRole('button', { name: 'המשך', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'התחברות לאזור האישי' })).toBeVisible();
  await page.reload();
  await expect(page.getByText(/1 × כרטיס סטודנט/)).toBeVisible();
  expect(new URL(page.url()).searchParams.get('refs')).toBe('{"3:301":{"reference1":"2024001"}}');
});
