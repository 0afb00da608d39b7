import { expect, test, type Page } from '@playwright/test';
import { OrderPage } from './pages/OrderPage';
import {
  DETAILS_EN,
  PLAIN_FREE_EN,
  fillDetails,
  holdSeatsInOneRow,
  payByCard,
  reservedScreening,
  throughTicketsAndExtras,
} from './order-flow';

/** Every Content-Security-Policy refusal Chromium reports on the page or its frames. */
function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Content-Security-Policy/i.test(text)) seen.push(text);
  });
  return seen;
}

test('the shop works under its Content-Security-Policy: a whole purchase, no violation', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const violations = cspViolations(page);
  const presentationId = await reservedScreening(request, 6, 1);

  const answer = await page.goto(`/order/${presentationId}?lang=en`);
  const csp = answer!.headers()['content-security-policy'];
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(answer!.headers()['x-frame-options']).toBe('DENY');

  const order = new OrderPage(page);
  await expect(order.seatMap()).toBeVisible();
  await holdSeatsInOneRow(order, 1, PLAIN_FREE_EN);
  await throughTicketsAndExtras(page, order, 'Your details');
  await fillDetails(page, DETAILS_EN);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('dialog', { name: 'Payment' })).toBeVisible();
  // The gateway's page in the dialog's frame: framed by the shop under its own policy.
  await payByCard(page, 'Secure payment form', '4000 0000 0000 3220');
  const gateway = page.frameLocator('iframe[title="Secure payment form"]');
  await gateway.locator('input[name="code"]').fill('1234');
  await gateway.locator('button[type="submit"], input[type="submit"]').first().click();
  await expect(page.getByRole('heading', { name: 'Your order is complete' })).toBeVisible({
    timeout: 20_000,
  });

  // The pages outside the order: the index, a page that does not exist, the test outbox.
  await page.goto('/');
  await expect(page.locator('#root')).not.toBeEmpty();
  await page.goto('/no/such/page');
  await expect(page.locator('#root')).not.toBeEmpty();
  const outbox = await page.goto('/dev/outbox');
  expect(outbox!.headers()['content-security-policy']).toContain("default-src 'none'");
  await expect(page.getByRole('heading', { name: /Outbox/ })).toBeVisible();

  expect(violations, violations.join('\n')).toEqual([]);
});
