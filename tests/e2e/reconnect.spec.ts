/**
 * The realtime link under faults, in real browsers against the real hub (SPEC §4 Message
 * service and Presence, §8): network resets, a server restart, and the idle-host rule.
 */
import { expect, request as playwrightRequest, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { PresenceCode } from '../../machines/ports/presence.port';
import { TEXT_NOT_CONNECTED } from '../../machines/im-connection/im-connection.machine';
import { baseURL } from '../../playwright.config';
import { serverProcess } from './server-process';
import { accounts, firstAccount, openAppAs, tabBar } from './support';

const parse = (payload: string | Buffer): Record<string, unknown> | null => {
  try {
    return JSON.parse(String(payload)) as Record<string, unknown>;
  } catch {
    return null;
  }
};

/** When each successful IM login of the page was answered (test-process clock). */
function imLogins(page: Page): number[] {
  const answered: number[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().endsWith('/realtime/im')) return;
    let loginId: unknown = null;
    ws.on('framesent', (f) => {
      const frame = parse(f.payload);
      if (frame?.op === 'login') loginId = frame.id;
    });
    ws.on('framereceived', (f) => {
      const frame = parse(f.payload);
      if (frame && loginId !== null && frame.id === loginId && frame.ok === true) answered.push(Date.now());
    });
  });
  return answered;
}

/** The presence codes the page sent, in order. */
function presenceCodes(page: Page): number[] {
  const codes: number[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().endsWith('/realtime/presence')) return;
    ws.on('framesent', (f) => {
      const frame = parse(f.payload);
      if (frame?.op === 'status' && typeof frame.code === 'number') codes.push(frame.code);
    });
  });
  return codes;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** The host's unread total as the News tab states it. */
async function unreadOf(page: Page): Promise<number> {
  const name = await tabBar(page).getByRole('link', { name: /^News/ }).getAttribute('aria-label')
    ?? await tabBar(page).getByRole('link', { name: /^News/ }).innerText();
  return Number(/(\d+) unread/.exec(name)?.[1] ?? 0);
}

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

test('a reset link is back at once, and what was sent meanwhile arrives exactly once', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const hostContext = await browser.newContext();
  const userContext = await browser.newContext();
  const hostPage = await hostContext.newPage();
  const userPage = await userContext.newPage();
  const logins = imLogins(hostPage);

  await openAppAs(hostPage, request, host.userId);
  await expect(hostPage.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expect.poll(() => logins.length).toBe(1);
  await openAppAs(userPage, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  // What this chat already held (an account may have talked before): the count goes on from there.
  const list = userPage.getByRole('list', { name: 'Messages' });
  await expect(list).toHaveAttribute('data-history', 'loaded');
  const before = Number(await list.getAttribute('data-count'));
  const unreadBefore = await unreadOf(hostPage);

  const RESETS = 10;
  const reconnectMs: number[] = [];
  for (let i = 0; i < RESETS; i++) {
    const before = logins.length;
    const droppedAt = Date.now();
    const res = await request.post('/shell/api/drop', { data: { userId: host.userId } });
    expect(((await res.json()) as { dropped: number }).dropped).toBeGreaterThanOrEqual(1);
    // Sent while the host is reconnecting: delivered live or replayed after the login, once.
    await send(userPage, `during reset ${i}`);
    await expect.poll(() => logins.length).toBe(before + 1);
    reconnectMs.push(logins.at(-1)! - droppedAt);
  }
  await expect(list).toHaveAttribute('data-count', String(before + RESETS));
  await expect(list).toHaveAttribute('data-sending', '0');
  await expect(list).toHaveAttribute('data-failed', '0');
  await expect(tabBar(hostPage).getByRole('link', { name: `News, ${unreadBefore + RESETS} unread` })).toBeVisible();
  await expect(hostPage).not.toHaveURL(/\/login/);
  console.log(`IM reconnect in the browser after a reset (ms): p50 ${percentile(reconnectMs, 50)}, p95 ${percentile(reconnectMs, 95)}, n=${RESETS}`);

  await hostContext.close();
  await userContext.close();
});

test('a server restart is survived without user action', async ({ browser }) => {
  test.setTimeout(90_000);
  const server = serverProcess(Number(new URL(baseURL).port) + 1, 'restart');
  await server.start();
  const api = await playwrightRequest.newContext({ baseURL: server.baseURL });
  try {
    const all = await accounts(api);
    const host = all.find((a) => a.userType === 2)!;
    const user = all.find((a) => a.userType === 1)!;
    const hostContext = await browser.newContext({ baseURL: server.baseURL });
    const userContext = await browser.newContext({ baseURL: server.baseURL });
    const hostPage = await hostContext.newPage();
    const userPage = await userContext.newPage();
    const hostLogins = imLogins(hostPage);
    userPage.on('pageerror', (e) => console.log('USER PAGEERROR', e.message, e.stack));
    userPage.on('console', (m) => { if (m.type() === 'error') console.log('USER CONSOLE', m.text()); });
    const userLogins = imLogins(userPage);

    await openAppAs(hostPage, api, host.userId);
    await expect(hostPage.getByRole('heading', { name: 'Home' })).toBeVisible();
    await openAppAs(userPage, api, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
    await expect.poll(() => [hostLogins.length, userLogins.length]).toEqual([1, 1]);
    // The chat is open (its code and history are in) when the server goes.
    await expect(userPage.getByRole('list', { name: 'Messages' })).toHaveAttribute('data-history', 'loaded');

    await server.kill();
    // Longer than three quick login attempts (0, 1, 2 s): the session must outlast them.
    await userPage.waitForTimeout(4000);
    await expect(userPage.getByTestId('offline-strip')).toHaveText('No connection. Reconnecting…');
    await send(userPage, 'while the server is away');
    await expect(userPage.locator('[data-status="failed"]')).toContainText(TEXT_NOT_CONNECTED);

    const restartedAt = Date.now();
    await server.start();
    await expect.poll(() => [hostLogins.length, userLogins.length], { timeout: 15_000 }).toEqual([2, 2]);
    const back = Math.max(hostLogins[1]!, userLogins[1]!) - restartedAt;
    console.log(`IM back after a server restart (ms from listening again to both logged in): ${back}`);

    await expect(hostPage).not.toHaveURL(/\/login/);
    await expect(userPage).toHaveURL(/\/talk/);
    await expect(userPage.getByTestId('offline-strip')).toBeHidden();
    await send(userPage, 'after the restart');
    await expect(userPage.locator('[data-status="sent"]')).toHaveText('after the restart');
    await expect(hostPage.getByTestId('banner-preview')).toHaveText('after the restart');

    await hostContext.close();
    await userContext.close();
  } finally {
    await api.dispose();
    await server.kill();
  }
});

test('an idle host is set offline with a dialog, and Go Online sets them online again', async ({ page, request }) => {
  await page.clock.install();
  const host = await firstAccount(request, 2);
  const codes = presenceCodes(page);
  await openAppAs(page, request, host.userId);
  await expect(page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expect.poll(() => codes).toContain(PresenceCode.foreground);

  // The seeded limit (max_no_use_app_reminder_time) is one minute without input.
  await page.clock.fastForward('00:50');
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await page.clock.fastForward('00:11');
  const dialog = page.getByRole('alertdialog', { name: 'You are offline' });
  await expect(dialog).toBeVisible();
  await expect.poll(() => codes.at(-1)).toBe(PresenceCode.offline);

  await dialog.getByRole('button', { name: 'Go Online' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(() => codes.at(-1)).toBe(PresenceCode.foreground);
});

test('[§8, §9] presence that cannot reconnect gives up after its tries, says so, and Try again connects it', async ({ page, request }) => {
  const user = await firstAccount(request, 1);
  // The presence socket cannot get through (its server is out of reach) until the test lets it.
  let reachable = false;
  let refused = 0;
  await page.routeWebSocket(/\/realtime\/presence$/, (ws) => {
    if (reachable) {
      ws.connectToServer();
      return;
    }
    refused += 1;
    ws.close({ code: 1011, reason: 'out of reach' });
  });
  const codes = presenceCodes(page);
  // SPEC §9's 720 tries 5 s apart are an hour: the e2e build takes a shorter policy from the address (src/app/devSettings.ts).
  await openAppAs(page, request, user.userId, '/?presenceRetry=3x200');
  const strip = page.getByRole('alert').filter({ hasText: 'Failed to connect WebSocket after retries' });
  await expect(strip).toBeVisible();
  expect(refused).toBe(3);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.screenshot({ path: test.info().outputPath('presence-gave-up-360.png') });

  reachable = true;
  await strip.getByRole('button', { name: 'Try again' }).click();
  await expect(strip).toBeHidden();
  await expect.poll(() => codes).toContain(PresenceCode.foreground);
  expect(refused).toBe(3);
});
