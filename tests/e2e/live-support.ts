/**
 * What the live room specs share (live.spec.ts, live-paths.spec.ts): a person's browser
 * context on a live server, the room's root, chat, video frames, and going live through
 * /liveSetting.
 */
import { expect } from '@playwright/test';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { openAppAs } from './support';
export { decoded } from './support';
import type { Account } from './support';

/** SPEC §4 viewing front status, as the room's `data-front-status` says it. */
/**
 * The window after which the live specs' servers end a room whose host has not beaten (30 s in
 * production, a beat every third of it). Short so a vanished host's room ends within a test, but
 * not 3 s: on a loaded 2-core run the host's page (encoding for two viewers) fired its 1 s beat
 * timer 2.5 s late, and the room ended under the viewers (a beat 3.6 s after the one before).
 */
export const HEARTBEAT_WINDOW_MS = 10_000;

export const FRONT = { loading: '1', live: '2', liveEnd: '3', calling: '5' } as const;

export interface Person {
  account: Account;
  context: BrowserContext;
  page: Page;
}

export async function person(browser: Browser, api: APIRequestContext, baseURL: string, account: Account, path: string): Promise<Person> {
  const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 640 } });
  const page = await context.newPage();
  await openAppAs(page, api, account.userId, path);
  return { account, context, page };
}

export const room = (page: Page) => page.getByTestId('live-room');
export const chatLines = (page: Page) => page.getByTestId('live-chat-line');
export const callScreen = (page: Page) => page.getByRole('dialog', { name: 'Call' });

export async function say(page: Page, text: string) {
  await page.getByPlaceholder('Say hi...').fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

/** The host goes live from /liveSetting (the page is there), with a wish of `roses` roses when asked. */
export async function goLive(page: Page, title: string, roses = 0) {
  await expect(page.getByRole('heading', { name: 'Go live' })).toBeVisible();
  await page.getByLabel('Title').fill(title);
  if (roses > 0) {
    await page.getByRole('button', { name: 'Add a wish' }).click();
    await page.getByLabel('Wish 1 gift').selectOption({ label: 'Rose' });
    await page.getByLabel('Wish 1 count').fill(String(roses));
    await page.getByRole('button', { name: 'Save wishlist' }).click();
    await expect(page.getByRole('status').filter({ hasText: /saved/i })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Go live', exact: true }).click();
  await expect(room(page)).toHaveAttribute('data-role', 'host', { timeout: 15_000 });
  await expect(room(page)).toHaveAttribute('data-live-state', 'living', { timeout: 15_000 });
}

/** The host ends the live from the room (End live, then End now). */
export async function endLive(page: Page) {
  await page.getByRole('button', { name: 'End live' }).click();
  await page.getByRole('alertdialog', { name: 'End this live?' }).getByRole('button', { name: 'End now' }).click();
  await expect(page.getByTestId('live-ends')).toBeVisible({ timeout: 10_000 });
}
