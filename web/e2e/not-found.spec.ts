import { expect, test } from '@playwright/test';

const EN = 'This page could not be found.';
const HE = 'הדף לא נמצא.';

test('a language the site does not offer is a 404, in English', async ({ page }) => {
  const response = await page.goto('/?lang=xx');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: EN })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
});

test('an unknown path is a 404, in Hebrew by default', async ({ page }) => {
  const response = await page.goto('/nope');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: HE })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
});

test('an unknown path is a 404, in English with ?lang=en', async ({ page }) => {
  const response = await page.goto('/nope?lang=en');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: EN })).toBeVisible();
});

test('an external address outside the allow list is a 404, not a redirect', async ({
  page,
  baseURL,
}) => {
  await page.goto('/https://evil.example/steal');
  await expect(page.getByRole('heading', { name: HE })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
});
