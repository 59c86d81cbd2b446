/**
 * Builds the RTC e2e harnesses (tests/e2e/rtc/index.html for calls, live.html for live rooms'
 * media: tests/e2e/live-media.spec.ts) in production mode into
 * `RTC_HARNESS_OUT` (default .tmp/rtc-harness) for the URL path `RTC_HARNESS_BASE`.
 * tests/e2e/rtc.spec.ts builds it into a folder of the e2e server's `dist`, which the server
 * serves as it is (no route is added to the server): the page is then on the app's own origin
 * and address space, with the app's headers, and reaches the API and the hub as the app does.
 * (A page fulfilled by Playwright's routing would not: Chromium's local network access checks
 * refuse its WebSocket to localhost.)
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  base: process.env.RTC_HARNESS_BASE ?? '/__rtc-harness/',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: process.env.RTC_HARNESS_OUT ?? here('../../../.tmp/rtc-harness'),
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    modulePreload: { polyfill: false },
    // The Agora SDK chunk is built (src/app/rtc.ts can choose it) but never loaded here.
    chunkSizeWarningLimit: 2000,
    rollupOptions: { input: { index: here('index.html'), live: here('live.html') } },
  },
});
