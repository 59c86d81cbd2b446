/** The app shell: every route, the not-found screen, cached views, layout habits. */
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { TEXT_APP_NOT_LOADED } from '../../src/app/bootText';
import { cutChunk, expectTabs, firstAccount, markPage, openAppAs, tabBar, watchPage } from './support';

const ROUTES: [string, string][] = [
  ['/beautySettings', 'Beauty settings'], ['/chat', 'Chat'], ['/dailyTask', 'Daily tasks'],
  ['/dataStatistics', 'Data statistics'], ['/followList', 'Follow list'], ['/iframePage', 'Web page'],
  ['/circle', 'Circle'], ['/invite', 'Invite'], ['/liveEnds', 'Live ended'], ['/liveRoom', 'Live room'],
  ['/liveSetting', 'Go live'], ['/secretSettings', 'Secret settings'], ['/userProfile', 'Profile'],
  ['/profile', 'Edit profile'], ['/vedioRecorder', 'Video recorder'], ['/mine', 'Mine'], ['/news', 'News'],
  ['/pointsRank', 'Points ranking'], ['/rank', 'Ranking'], ['/settings', 'Settings'], ['/task', 'Tasks'],
  ['/wallet', 'Wallet'], ['/wallet/withdrawal', 'Withdraw'], ['/wallet/addCollectionMethod', 'Add a collection method'],
  ['/wallet/collectionInfo', 'Collection methods'], ['/wallet/withdrawalRecord', 'Withdrawal records'], ['/talk?to=yx-peer-1&taPath=news', 'Chat'],
  ['/customer-talk', 'Customer service'], ['/usdtPay', 'USDT payment'], ['/usdtPay/pay-status', 'Payment status'],
  ['/', 'Home'],
];
const TAB_ROOTS = new Set(['/', '/news', '/circle', '/mine']);

test('every route of SPEC §2 renders its frame, with the tab bar only on the tab roots', async ({ page, request }) => {
  test.setTimeout(60_000);
  const problems = watchPage(page);
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  for (const [path, title] of ROUTES) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
    await expect(tabBar(page)).toHaveCount(TAB_ROOTS.has(path) ? 1 : 0);
    if (!TAB_ROOTS.has(path)) await expect(page.getByRole('button', { name: 'Back', exact: true })).toBeVisible();
    // A host who has never been live has no figures to see: an empty state that offers to go live, not an error.
    if (path === '/liveEnds') {
      await expect(page.getByRole('heading', { name: 'No live yet' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Go live' })).toBeVisible();
      await expect(page.getByRole('alert')).toHaveCount(0);
    }
  }
  expect(problems).toEqual([]);
});

test('an unknown path shows not-found with a way home', async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectTabs(page, ['List', 'News', 'Circle', 'Mine']);
});

test('the cached Home view keeps its scroll position across a tab switch', async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId);
  const home = page.locator('[data-cached-view="/"]').getByTestId('screen-body');
  await expect(home).toBeVisible();
  // A tag tab has a page of hosts whatever their presence (the All tab lists only online ones first).
  await page.getByRole('tab', { name: 'Popular' }).click();
  await expect(page.getByRole('list', { name: 'Popular hosts' })).toBeVisible();
  const max = await home.evaluate((el) => el.scrollHeight - el.clientHeight);
  expect(max).toBeGreaterThan(50);
  await home.evaluate((el) => { el.scrollTop = 120; });
  await home.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
  const before = await home.evaluate((el) => el.scrollTop);
  expect(before).toBeGreaterThan(40);

  await tabBar(page).getByRole('link', { name: 'Mine' }).click();
  await expect(page.getByRole('heading', { name: 'Mine' })).toBeVisible();
  await expect(home).toBeHidden();
  await tabBar(page).getByRole('link', { name: 'List' }).click();
  await expect(home).toBeVisible();
  await expect.poll(() => home.evaluate((el) => el.scrollTop)).toBe(before);
});

test('works at 360 px: no sideways scroll, 44 px touch targets, labelled controls', async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  for (const path of ['/', '/mine', '/login']) {
    if (path === '/login') {
      await page.evaluate(() => localStorage.clear());
      await page.goto('/login');
    } else {
      await page.goto(path);
    }
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    const small = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('a, button, input')]
        .filter((el) => el.offsetParent !== null)
        .map((el) => ({ el: el.outerHTML.slice(0, 80), r: el.getBoundingClientRect() }))
        .filter(({ r }) => r.height < 44 || r.width < 44)
        .map(({ el }) => el));
    expect(small).toEqual([]);
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('a, button')]
        .filter((el) => !(el.getAttribute('aria-label') || el.textContent?.trim()))
        .map((el) => el.outerHTML.slice(0, 80)));
    expect(unlabelled).toEqual([]);
  }
});

test('the inspector is off by default and the app makes no request off its origin', async ({ page, request, baseURL }) => {
  const foreign: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(baseURL!) && !r.url().startsWith('data:')) foreign.push(r.url());
  });
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await tabBar(page).getByRole('link', { name: 'Mine' }).click();
  await expect(page.getByRole('heading', { name: 'Mine' })).toBeVisible();
  expect(foreign).toEqual([]);
});

// The start's code, part by part: src/main.tsx's chunk, the chunk of what it imports, and the
// cipher (in the chunk of the start's first requests, src/app/askEarly.ts) and the machines it
// imports before it renders (vite.config.ts). Any of them missing, as when the network drops at
// that moment, the page's entry says so without them.
for (const part of ['main', 'app', 'early', 'machines']) {
  test(`when the app's code cannot be fetched (${part}) the start-up shell says so, and Retry starts the app`, async ({ page }) => {
    const restore = await cutChunk(page, part);
    await page.goto('/login');
    await expect(page.getByText('Anchor Call', { exact: true })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText(TEXT_APP_NOT_LOADED);
    restore();
    await page.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  });
}

const SCREEN_NOT_LOADED = 'This screen could not be loaded. Check the connection and try again.';

/** A host on the home, with the chunk `name` cut off and the page marked (a reload would show). */
async function homeWithChunkCut(page: Page, request: APIRequestContext, name: string) {
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  return { restore: await cutChunk(page, name), kept: await markPage(page) };
}

test('a screen whose code cannot be fetched says so in place, and Try again fetches it without reloading the page', async ({ page, request }) => {
  const { restore, kept } = await homeWithChunkCut(page, request, 'WalletScreen');
  await tabBar(page).getByRole('link', { name: 'Mine' }).click();
  await page.getByRole('link', { name: 'Wallet' }).click();
  await expect(page.getByRole('alert')).toHaveText(`${SCREEN_NOT_LOADED}Try again`);
  restore();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Wallet' })).toBeVisible();
  expect(await kept()).toBe(true);
});

test('a tab whose code cannot be fetched says so in its place, the tab bar stays, and Try again fetches it without a reload', async ({ page, request }) => {
  const { restore, kept } = await homeWithChunkCut(page, request, 'CircleScreen');
  await tabBar(page).getByRole('link', { name: 'Circle' }).click();
  await expect(page.getByRole('alert')).toHaveText(`${SCREEN_NOT_LOADED}Try again`);
  await expectTabs(page, ['List', 'News', 'Circle', 'Mine']);
  restore();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('heading', { name: 'Circle' })).toBeVisible();
  // The home, a cached view, kept its place.
  await tabBar(page).getByRole('link', { name: 'List' }).click();
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  expect(await kept()).toBe(true);
});
