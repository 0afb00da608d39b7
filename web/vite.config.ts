/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The kupa server serves /api and the payment pages; in development Vite forwards both to it.
const kupaServer = process.env.KUPA_DEV_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
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
    // Vitest's default (cores - 1) runs one file at a time on a two-core CI machine; the files
    // wait on jsdom and timers as much as they compute, so two at once take two thirds the time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
