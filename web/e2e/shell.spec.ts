import { expect, test } from '@playwright/test';
import { firstDayOnSale, scheduleFor } from './api';
import { IndexPage } from './pages/IndexPage';
import { OrderPage } from './pages/OrderPage';
import { addDays, todayInCinema } from '../src/lib/format';

test('the index is Hebrew, switches to English and leads to the order page', async ({
  page,
  request,
}) => {
  const today = todayInCinema();
  const todays = await scheduleFor(request, today);
  // Late at night today's list may be empty or sold out; then walk to the first day on sale.
  const day = todays.presentations.some((p) => p.isOnSale && !p.isVod)
    ? todays
    : await firstDayOnSale(request);
  const presentation = day.presentations.find((p) => p.isOnSale && !p.isVod)!;
  const dayIndex = Math.round(
    (Date.parse(`${day.date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000,
  );
  expect(addDays(today, dayIndex)).toBe(day.date);

  const index = new IndexPage(page);
  await index.goto();
  await expect(index.html).toHaveAttribute('dir', 'rtl');
  await expect(index.html).toHaveAttribute('lang', 'he');
  if (dayIndex > 0) await index.chooseDay(dayIndex);
  await expect(index.featureCard(presentation.featureName)).toBeVisible();

  await index.switchLanguage('English');
  await expect(index.html).toHaveAttribute('dir', 'ltr');
  await expect(index.html).toHaveAttribute('lang', 'en');
  await expect(page).toHaveURL(/[?&]lang=en/);
  const card = index.featureCard(presentation.featureNameEn);
  await expect(card).toBeVisible();

  const buy = index.firstBuyButton(presentation.featureNameEn);
  const href = await buy.getAttribute('href');
  expect(href).toMatch(/^\/order\/\d+\?lang=en$/);
  await buy.click();
  await expect(page).toHaveURL(new RegExp(`/order/\\d+\\?lang=en$`));
  expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe(href);

  const order = new OrderPage(page);
  await expect(order.featureHeading(presentation.featureNameEn)).toBeVisible();
  await expect(order.steps()).toBeVisible();
});
