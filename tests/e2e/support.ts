/**
 * Shared pieces of the end-to-end tests: the seeded accounts, open parameters from the
 * reference server (what the native shell would hand the app), and page objects.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import type { ShellAccount } from '../../server/users/users';
import { RealtimePath } from '../../src/api/contract/realtime';

/** An account as the dev shell lists it. */
export type Account = ShellAccount;

export const PASSWORD = 'password1';

/**
 * The lock (Playwright's test locks) of tests in which video flows: a call between two people,
 * or a live room with its viewers. Each side encodes 720p VP9 in software, so one call fills the
 * two cores of the machine the suite runs on. Two at once made each ~3× slower (alone 11–14 s, together
 * 33–52 s for the connected call paths) and took them to their 60 s limit: slower in all than one
 * after the other. Tests without video go on beside them.
 */
export const VIDEO_LOCK = 'video';

export async function accounts(request: APIRequestContext): Promise<Account[]> {
  const response = await request.get('/shell/api/accounts');
  expect(response.ok()).toBe(true);
  return (await response.json()) as Account[];
}

/**
 * Accounts this worker slot has handed out in this run, by userId: none is handed out twice.
 * Kept in the run's output folder (emptied as a run starts), not in memory: a worker that
 * restarts after a failed test has the same slot, and must not take its accounts again.
 */
function claimedIds(): { has(id: number): boolean; add(id: number): void } {
  const file = join(test.info().project.outputDir, `.claimed-accounts-${test.info().parallelIndex}.json`);
  const read = (): number[] => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as number[]) : []);
  return {
    has: (id) => read().includes(id),
    add: (id) => {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify([...read(), id]));
    },
  };
}

/**
 * An account of `userType` that no other running test uses: the same account logged in
 * twice would have the second IM login kick the first (SPEC §8), as it should.
 * Each parallel worker takes from its own half of the seeded accounts of that type (whatever
 * `which` asks for, so two workers never meet on one account), and never the same one twice.
 * Level-0 users come only with `levelZero`, and from the start of each half: the specs that take
 * rich users by hand take them from the end of the list.
 */
export async function firstAccount(
  request: APIRequestContext, userType: 1 | 2, which: (a: Account) => boolean = () => true,
  { levelZero = false }: { levelZero?: boolean } = {},
): Promise<Account> {
  // Level-0 hosts may not take calls (achor_hide_button); level-0 users (1000 diamonds, not VIPs) only when asked for.
  const all = (await accounts(request)).filter((a) => a.userType === userType && (a.userLevel > 0 || (levelZero && userType === 1)));
  const half = Math.floor(all.length / 2);
  const mine = test.info().parallelIndex % 2 === 0 ? all.slice(0, half) : all.slice(half, 2 * half);
  const claimed = claimedIds();
  const found = mine.find((a) => !claimed.has(a.userId) && which(a));
  if (!found) throw new Error(`no unused seeded account of userType ${userType} left for this worker`);
  claimed.add(found.userId);
  return found;
}

/** Open parameters for a fresh session, as the shell supplies them (SPEC §3 stored auth data). */
export async function openParams(request: APIRequestContext, userId: number): Promise<Record<string, string>> {
  const response = await request.post('/shell/api/open', { data: { userId } });
  expect(response.ok()).toBe(true);
  return (await response.json()) as Record<string, string>;
}

export async function openAppAs(page: Page, request: APIRequestContext, userId: number, path = '/'): Promise<void> {
  const url = new URL(path, 'http://app');
  for (const [key, value] of Object.entries(await openParams(request, userId))) url.searchParams.set(key, value);
  await page.goto(url.pathname + url.search);
}

/** Collects Content-Security-Policy and Trusted Types violations and uncaught errors of a page. */
export function watchPage(page: Page) {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content Security Policy|Refused to|Trusted ?(HTML|Script|Types)/.test(msg.text())) problems.push(msg.text());
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return problems;
}

/** A phone of its own (a browser context at 360 × 640) for one person of a two-person test. */
export async function phoneOf(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  return { context, page: await context.newPage() };
}

/** The call screen, on either side. */
export const callScreen = (page: Page) => page.getByRole('dialog', { name: 'Call' });

/** The user, in a talk with the host, calls her; the host accepts; both see the call connected. */
export async function callFromTalk(user: Page, host: Page, hostAccount: Account): Promise<void> {
  await user.getByRole('button', { name: `Video call ${hostAccount.nickname}` }).click();
  await expect(callScreen(host)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  await callScreen(host).getByRole('button', { name: 'Accept' }).click();
  await expect(callScreen(host)).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
  await expect(callScreen(user)).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
}

export const tabBar = (page: Page) => page.getByRole('navigation', { name: 'Main' });

export async function expectTabs(page: Page, labels: string[]): Promise<void> {
  await expect(tabBar(page).getByRole('link')).toHaveCount(labels.length);
  for (const label of labels) await expect(tabBar(page).getByRole('link', { name: label })).toBeVisible();
}

export async function logInWithForm(page: Page, account: string, password: string): Promise<void> {
  await page.getByLabel('Account', { exact: true }).fill(account);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function logOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/**
 * Makes a chunk of the built app (`/assets/<name>-<hash>.js`) fail to fetch, as when the network
 * drops at that moment, until the function it returns lets it through again.
 */
export async function cutChunk(page: Page, name: string): Promise<() => void> {
  let cut = true;
  await page.route(new RegExp(`/assets/${name}-[^/]*\\.js$`), (route) => (cut ? route.abort('internetdisconnected') : route.continue()));
  return () => { cut = false; };
}

/** Marks the page; the function it returns says whether the page is still the same (not reloaded: a call or a live would have ended). */
export async function markPage(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => { (window as { kept?: boolean }).kept = true; });
  return () => page.evaluate(() => (window as { kept?: boolean }).kept === true);
}

/**
 * Whether a video element decodes: it waits for `frames` frames to be presented
 * (requestVideoFrameCallback), or `timeoutMs`, and gives the count and the video's width. On a
 * loaded machine a 30 fps fake camera can come out at a frame a second, so the wait is long; it
 * ends as soon as the frames are there.
 */
export async function decoded(video: Locator, { frames = 3, timeoutMs = 10_000 } = {}): Promise<{ frames: number; width: number }> {
  return video.evaluate(async (el, { want, wait }) => {
    const v = el as HTMLVideoElement;
    const seen = await new Promise<number>((resolve) => {
      let n = 0;
      const step = () => {
        n++;
        if (n >= want) resolve(n);
        else v.requestVideoFrameCallback(step);
      };
      v.requestVideoFrameCallback(step);
      setTimeout(() => resolve(n), wait);
    });
    return { frames: seen, width: v.videoWidth };
  }, { want: frames, wait: timeoutMs });
}

/** Resolves once the page's presence socket has said the person is here (the server then lists them online). */
export function present(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      if (!ws.url().includes(RealtimePath.presence)) return;
      let said = false;
      ws.on('framesent', (frame) => { said ||= String(frame.payload).includes('"status"'); });
      ws.on('framereceived', () => { if (said) resolve(); });
    });
  });
}
