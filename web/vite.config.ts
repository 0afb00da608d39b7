/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The kupa server serves /api and the payment pages; in development Vite forwards both to it.
const kupaServer = process.env.KUPA_DEV_SERVER ?? 'http://127.0.0.1:8080';

/**
 * The app's scripts at low fetch priority (decision 0056): module scripts never block rendering,
 * so the stylesheet, its fonts and the first poster go first on a slow line, and Lighthouse's
 * model stops counting the scripts as blocking the first paint.
 */
export function lowPriorityScripts(html: string): string {
  return html
    .replace(
      /<script type="module" crossorigin/g,
      '<script type="module" fetchpriority="low" crossorigin',
    )
    .replace(
      /<link rel="modulepreload" crossorigin/g,
      '<link rel="modulepreload" fetchpriority="low" crossorigin',
    );
}

const scriptsAtLowPriority: Plugin = {
  name: 'kupa-low-priority-scripts',
  apply: 'build',
  transformIndexHtml: { order: 'post', handler: lowPriorityScripts },
};

export default defineConfig({
  plugins: [react(), scriptsAtLowPriority],
  server: {
    proxy: {
      '/api': kupaServer,
      '/pay': kupaServer,
    },
  },
  build: {
    outDir: 'dist',
    // The server embeds dist/ in its binary; maps would triple its size for no visitor.
    sourcemap: false,
    // Which chunks each route loads: `make bench` reads it to report the order page's JavaScript.
    manifest: true,
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    restoreMocks: true,
    // A test may wait for several screens, each given 5 s (src/test/setup.ts): its own limit is
    // larger than one wait, so a loaded machine is not mistaken for a bug (the DoorPage, TicketsStep
    // and SeatChangePage tests timed out at the default 5 s under load, and passed alone).
    testTimeout: 20000,
    // Vitest's default (cores - 1) runs one file at a time on a two-core CI machine; the files
    // wait on jsdom and timers as much as they compute, so two at once take two thirds the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
