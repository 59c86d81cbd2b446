/** [§4 Login] The session flows against the real reference server. */
import { expect, test } from '@playwright/test';
import type { Page, Request } from '@playwright/test';
import { getBaseConfigForIntoBagV2, getBaseConfigForIntoBagV4 } from '../../src/api/contract/home';
import {
  PASSWORD, expectTabs, firstAccount, logInWithForm, logOut, openAppAs, tabBar, watchPage,
} from './support';

test('a host opened with open params lands on / with four tabs', async ({ page, request }) => {
  const problems = watchPage(page);
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expectTabs(page, ['List', 'News', 'Circle', 'Mine']);
  // The token does not stay in the address bar.
  expect(page.url()).not.toContain('token=');
  expect(problems).toEqual([]);
});

test('a non-host opened with open params lands on /newsRestricted with two tabs', async ({ page, request }) => {
  const user = await firstAccount(request, 1);
  await openAppAs(page, request, user.userId);
  await expect(page).toHaveURL(/\/newsRestricted$/);
  await expectTabs(page, ['News', 'Mine']);
  // A non-host is kept off the host's tab roots, and off the host-only screens reached by their address (SPEC §6: live is the host's).
  for (const path of ['/circle', '/liveSetting', '/liveEnds']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/newsRestricted$/);
  }
  await expect(page.getByRole('button', { name: 'Go live' })).toHaveCount(0);
});

/** The app's code: src/main.tsx's chunk and the chunk of what it imports (vite.config.ts), not the page's entry. */
const APP_CODE = /\/assets\/(main|app)-[^/]*\.js$/;

test('open params are kept from the first moment: leaving the page before the app\'s code ran keeps the session', async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  // The app's code (its entry module and its large shared chunk) never arrives on this first load,
  // as on a slow network: the page's own entry takes the open parameters all the same.
  await page.route(APP_CODE, (route) => route.abort('timedout'));
  await openAppAs(page, request, host.userId, '/mine');
  expect(page.url()).not.toContain('token=');
  await page.unroute(APP_CODE);
  await page.goto('/mine');
  await expect(page.getByRole('heading', { name: 'Mine' })).toBeVisible();
  await expectTabs(page, ['List', 'News', 'Circle', 'Mine']);
});

/** The base-config requests of a page, by app id (v2) and for a session (v4). */
function baseConfigRequests(page: Page) {
  const seen = { byAppId: [] as Request[], forSession: [] as Request[] };
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === getBaseConfigForIntoBagV2.path) seen.byAppId.push(r);
    if (path === getBaseConfigForIntoBagV4.path) seen.forSession.push(r);
  });
  return seen;
}

test('without open params a protected path goes to /login, which loads the base config by app id', async ({ page }) => {
  const baseConfig = baseConfigRequests(page);
  await page.goto('/wallet');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await expect(tabBar(page)).toHaveCount(0);
  // SPEC §7 "or by app id": the page without a session names the app, and the server answers.
  await expect.poll(() => baseConfig.byAppId.length).toBe(1);
  const [asked] = baseConfig.byAppId;
  expect(await asked!.headerValue('x-app-id')).toBe('web');
  expect(await asked!.headerValue('x-login-token')).toBeNull();
  expect((await asked!.response())?.status()).toBe(200);
  expect(baseConfig.forSession).toEqual([]);
});

test('the landing page retries the base config by app id 3 times, then says it could not load it; Retry loads it', async ({ page }) => {
  const statuses: number[] = [];
  let failures = 4;
  await page.route(`**${getBaseConfigForIntoBagV2.path}`, async (route) => {
    if (failures > 0) {
      failures -= 1;
      statuses.push(500);
      return route.fulfill({ status: 500, body: 'Server Failure' });
    }
    const response = await route.fetch();
    statuses.push(response.status());
    return route.fulfill({ response });
  });
  // The pauses between tries (0.5, 1 and 2 s) are skipped. The installed clock also runs on by
  // itself (the start's own timers need it), so a pause may pass before it is skipped: checking
  // the count after each skip saw 4 tries at the second skip in a loaded full run.
  await page.clock.install();
  await page.goto('/landingPage');
  const failed = page.getByTestId('base-config-failed');
  await expect(async () => {
    await page.clock.fastForward(2_000);
    await expect(failed.getByRole('heading', { name: "We couldn't load the app settings" })).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 15_000 });
  // The first try and 3 retries.
  expect(statuses).toEqual([500, 500, 500, 500]);
  await page.screenshot({ path: test.info().outputPath('base-config-failed-360.png') });
  await failed.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome' })).toBeVisible();
  await expect.poll(() => statuses).toEqual([500, 500, 500, 500, 200]);
  await expect(failed).toHaveCount(0);
});

test('a seeded host logs in with the form and lands on /; a reload keeps the session', async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  await page.goto('/login');
  await logInWithForm(page, host.account, PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await expectTabs(page, ['List', 'News', 'Circle', 'Mine']);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
});

test('a wrong password is refused with the server message and nothing else changes', async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  await page.goto('/login');
  await logInWithForm(page, host.account, 'wrong-password');
  await expect(page.getByRole('alert')).toHaveText('Incorrect account or password.');
  await expect(page).toHaveURL(/\/login$/);
});

test('registering a new account signs in as a non-host', async ({ page }) => {
  const baseConfig = baseConfigRequests(page);
  await page.goto('/register');
  // The register page loads the base config by app id; once signed in, the session's is loaded.
  await expect.poll(() => baseConfig.byAppId.length).toBe(1);
  await page.getByLabel('Account', { exact: true }).fill(`new-${Date.now()}@example.com`);
  await page.getByLabel('Password', { exact: true }).fill('secret-pass');
  await page.getByLabel('Nickname', { exact: true }).fill('Newcomer');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/newsRestricted$/);
  await page.getByRole('link', { name: 'Mine' }).click();
  await expect(page.getByTestId('profile-card')).toContainText('Newcomer');
  await expect.poll(() => baseConfig.forSession.length).toBe(1);
  expect(baseConfig.byAppId).toHaveLength(1);
});

test('visitor entry from the landing page signs in as a non-host', async ({ page }) => {
  await page.goto('/landingPage');
  await page.getByRole('button', { name: 'Continue as a visitor' }).click();
  await expect(page).toHaveURL(/\/newsRestricted$/);
});

test('logout clears the token and every stored item', async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  // Something in every kind of browser storage, as later features will write.
  await page.evaluate(async () => {
    sessionStorage.setItem('draft', 'hello');
    await caches.open('media').then((c) => c.put('/probe', new Response('x')));
    await new Promise<void>((resolve, reject) => {
      const open = indexedDB.open('chat-cache', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('messages');
      open.onsuccess = () => { open.result.close(); resolve(); };
      open.onerror = () => reject(open.error);
    });
  });
  expect(await page.evaluate(() => localStorage.length)).toBeGreaterThan(0);

  await page.getByRole('link', { name: 'Mine' }).click();
  await logOut(page);

  const left = await page.evaluate(async () => ({
    local: Object.keys(localStorage),
    session: Object.keys(sessionStorage),
    idb: (await indexedDB.databases()).map((d) => d.name),
    caches: await caches.keys(),
  }));
  expect(left).toEqual({ local: [], session: [], idb: [], caches: [] });
  // The old session is gone: a protected page sends us back to login.
  await page.goto('/mine');
  await expect(page).toHaveURL(/\/login$/);
});

test('a revoked token on reopen clears the session and shows login', async ({ page, request, context }) => {
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  const stored = await page.evaluate(() => localStorage.getItem('app.auth'));
  await page.getByRole('link', { name: 'Mine' }).click();
  await logOut(page);
  // Put the revoked auth back, as a stale copy would be, and reopen.
  await page.evaluate((auth) => localStorage.setItem('app.auth', auth!), stored);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('app.auth'))).toBeNull();
  await context.clearCookies();
});
