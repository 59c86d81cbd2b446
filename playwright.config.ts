import { defineConfig } from '@playwright/test';
import { findChromium } from './scripts/chromium.mjs';
import { E2E_BUILD_ENV, e2eBuildCommand, e2eDistDir } from './scripts/e2e-build.mjs';

const PORT = Number(process.env.E2E_PORT ?? 4310);
// Another port gets its own build and database, so two runs of the suite can go side by side.
const DIST = e2eDistDir();
process.env.E2E_DIST_DIR = DIST; // specs that start their own server serve the same build
const DATA = process.env.E2E_PORT ? `.tmp/e2e-${PORT}` : '.tmp/e2e';
export const baseURL = `http://localhost:${PORT}`;

/** Flags for headless Debian Chromium on a closed network (see README), plus fake media devices. */
export const chromiumArgs = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
  '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', '--allow-loopback-in-peer-connection',
];

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.PW_JSON ? [['list'], ['json', { outputFile: process.env.PW_JSON }]] : 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    launchOptions: { executablePath: findChromium() ?? undefined, args: chromiumArgs },
    viewport: { width: 360, height: 640 },
    trace: 'off',
  },
  webServer: {
    // A fresh database every run; the app is built first so the server serves the current code
    // (unless `npm test` built it already, into the folder it names in E2E_PREBUILT).
    command: `${process.env.E2E_PREBUILT === DIST ? '' : `${e2eBuildCommand(DIST)} && `}rm -rf ${DATA} && npx tsx server/main.ts`,
    // Enough accounts that parallel tests never share one (a second IM login kicks the first).
    // Calls bill every 2 s here, so a billing period passes within a test. What the build is made
    // with (VITE_*) goes in E2E_BUILD_ENV (scripts/e2e-build.mjs), which `npm test` builds with too.
    env: {
      PORT: String(PORT), DB_PATH: `${DATA}/app.db`, DIST_DIR: DIST, SEED_HOSTS: '120', SEED_USERS: '120', CALL_BILLING_PERIOD_MS: '2000',
      ...E2E_BUILD_ENV,
    },
    url: `${baseURL}/shell`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
