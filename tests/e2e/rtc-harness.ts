/**
 * The harness pages of tests/e2e/rtc/ (index.html: calls, tests/e2e/rtc.spec.ts; live.html:
 * live rooms' media, tests/e2e/live-media.spec.ts) as the specs use them: built with Vite
 * before a spec's tests into a folder of the e2e server's dist, so they are served from the
 * app's origin (see tests/e2e/rtc/vite.config.ts), and opened for one seeded person each.
 */
import { test } from '@playwright/test';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { HarnessSession } from './rtc/page';
import { type Account, firstAccount, openParams } from './support';

/**
 * Builds the harness pages for this spec file before its tests and removes them after;
 * returns the folder's URL path (known from `beforeAll` on). One folder per worker (and per
 * `name`), so that parallel workers never write over each other.
 */
export function buildHarnessPages(name: string): () => string {
  let harnessBase = '';
  test.beforeAll(() => {
    // Built into the e2e server's dist (DIST_DIR=dist, served as files).
    harnessBase = `/__${name}-${process.env.TEST_WORKER_INDEX ?? '0'}/`;
    const build = spawnSync('npx', ['vite', 'build', '--config', 'tests/e2e/rtc/vite.config.ts'], {
      encoding: 'utf8',
      env: {
        ...process.env,
        RTC_HARNESS_OUT: join(process.cwd(), 'dist', harnessBase),
        RTC_HARNESS_BASE: harnessBase,
        VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true',
      },
    });
    if (build.status !== 0) throw new Error(`harness build failed: ${build.stderr || build.stdout}`);
  });
  test.afterAll(() => {
    rmSync(join(process.cwd(), 'dist', harnessBase), { recursive: true, force: true });
  });
  return () => harnessBase;
}

export interface Person {
  account: Account;
  context: BrowserContext;
  page: Page;
  /** Requests that left this machine's server, CSP refusals and page errors (there must be none). */
  problems: string[];
}

/**
 * The first seeded account of `userType` in a browser context of its own, with the harness
 * page at `url` open and started (`start`, run in the page) with the account's session.
 */
export async function openHarness(
  browser: Browser, request: APIRequestContext, userType: 1 | 2, url: string, start: (session: HarnessSession) => void,
  /** Browser permissions the page has from the start (e.g. camera and microphone allowed already). */
  permissions?: string[],
): Promise<Person> {
  const account = await firstAccount(request, userType);
  const context = await browser.newContext({ permissions });
  const page = await context.newPage();
  const problems: string[] = [];
  const origin = new URL(test.info().project.use.baseURL ?? 'http://localhost').origin;
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) problems.push(`outside: ${r.url()}`);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to/.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await page.goto(url);
  const params = await openParams(request, account.userId);
  await page.evaluate(start, { token: params.token ?? '', appId: params.appId ?? '', appVersion: params.appVersion });
  return { account, context, page, problems };
}
