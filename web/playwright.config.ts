import { defineConfig, devices } from '@playwright/test';

// Runs against a kupa server that is already up (the Makefile starts one); this config starts
// nothing. Debian's chromium is used because Playwright's own browser download is not possible.
const baseURL = process.env.KUPA_E2E_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  // Each shard of scripts/e2e-shards.sh has its own (Playwright empties it when it starts).
  outputDir: process.env.KUPA_E2E_OUTPUT ?? './e2e-artifacts/test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    locale: 'he-IL',
    timezoneId: 'Asia/Jerusalem',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
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
          ],
        },
      },
    },
  ],
});
