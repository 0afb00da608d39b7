import { expect, test, type Page } from '@playwright/test';
import type { Presentation } from '../src/lib/api/types';
import { addDays, todayInCinema } from '../src/lib/format';
import { IndexPage } from './pages/IndexPage';

const LEGAL_EN = ['Terms of use', 'Privacy policy', 'Contact us', 'Accessibility statement'];

async function expectLegalFooter(page: Page) {
  const nav = page.getByRole('contentinfo').getByRole('navigation', { name: 'Site information' });
  await expect(nav.getByRole('link')).toHaveText(LEGAL_EN);
}

test('every page has a footer with the legal pages, and each is a real page', async ({
  page,
  request,
}) => {
  const day = (await (
    await request.get(`/api/seats/presentations?date=${todayInCinema()}`)
  ).json()) as { presentations: Presentation[] };
  const some = day.presentations.find((p) => !p.isVod)!;
  for (const path of ['/', `/order/${some.id}`, '/nope', '/terms', '/order/999999']) {
    await page.goto(`${path}?lang=en`);
    await expectLegalFooter(page);
  }
  for (const [name, heading] of [
    ['Terms of use', 'Ticket terms'],
    ['Privacy policy', 'Your rights'],
    ['Contact us', 'Box offices'],
    ['Accessibility statement', 'Accessibility coordinator'],
  ]) {
    await page.getByRole('contentinfo').getByRole('link', { name }).click();
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    expect((await page.request.get(new URL(page.url()).pathname)).status()).toBe(200);
  }
  // What else the site sells is a link away from every page too.
  for (const [name, title] of [
    ['Gift vouchers', 'Gift vouchers'],
    ['Memberships and film passes', 'Memberships'],
    ['Donate', 'Donate'],
  ]) {
    await page.getByRole('contentinfo').getByRole('link', { name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  }
});

test('the date strip reaches the last day with screenings on sale', async ({ page, request }) => {
  const today = todayInCinema();
  const body = (await (await request.get(`/api/seats/presentations?date=${today}`)).json()) as {
    saleDates: string[];
  };
  const last = body.saleDates[body.saleDates.length - 1];
  const onLast = (await (await request.get(`/api/seats/presentations?date=${last}`)).json()) as {
    presentations: Presentation[];
  };
  const show = onLast.presentations.find((p) => p.isOnSale && !p.isVod)!;
  expect(show, `something on sale on ${last}`).toBeTruthy();
  const lastIndex = Math.round(
    (Date.parse(`${last}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000,
  );

  const index = new IndexPage(page);
  await index.goto('?lang=en');
  const days = page.getByRole('group', { name: 'Choose a date' }).getByRole('button');
  await expect(days).toHaveCount(Math.max(14, lastIndex + 1));
  await index.chooseDay(lastIndex);
  await expect(page).toHaveURL(new RegExp(`date=${last}`));
  await expect(index.featureCard(show.featureNameEn)).toBeVisible();
  await expect(page.getByRole('link', { name: /^Buy tickets: / }).first()).toBeVisible();

  // A date after the sale says so instead of quietly showing today.
  await page.goto(`/?lang=en&date=${addDays(last, 1)}`);
  await expect(
    page.getByRole('heading', { name: 'Nothing is on sale on this date.' }),
  ).toBeVisible();
  // And "Watch now" leads to a real order of the film (decision 0053), not a screen that is not there.
  await index.goto('?lang=en');
  await page
    .getByRole('link', { name: /^Watch now: / })
    .first()
    .click();
  await expect(page).toHaveURL(/\/order\/\d+/);
  await expect(page.getByRole('heading', { name: 'Choose your tickets' })).toBeVisible();
});

test('the order page of a screening that does not exist is a 404 with a way back', async ({
  page,
}) => {
  const response = await page.goto('/order/999999?lang=en');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This screening was not found' })).toBeVisible();
  await page.getByRole('link', { name: "See what's on" }).click();
  await expect(page.getByRole('heading', { level: 1, name: "What's on" })).toBeVisible();
});
