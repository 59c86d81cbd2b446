/**
 * Two people in two browser contexts over the real hub (SPEC §2 incoming-message banner and
 * News badge, /talk; §4 Message service): a user writes to a host, the host sees it arrive.
 */
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { firstAccount, openAppAs, tabBar } from './support';

async function imSockets(page: Page) {
  const sockets: { url: string; closed: boolean }[] = [];
  page.on('websocket', (ws) => {
    if (!ws.url().endsWith('/realtime/im')) return;
    const entry = { url: ws.url(), closed: false };
    sockets.push(entry);
    ws.on('close', () => { entry.closed = true; });
  });
  return sockets;
}

test('a user sends a text; the host sees the banner with the sender\'s avatar, the News badge, and opens the talk, titled with the name, from the banner', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const hostContext = await browser.newContext({ viewport: { width: 360, height: 640 } });
  const userContext = await browser.newContext({ viewport: { width: 360, height: 640 } });
  const hostPage = await hostContext.newPage();
  const userPage = await userContext.newPage();

  await openAppAs(hostPage, request, host.userId);
  await expect(hostPage.getByRole('heading', { name: 'Home' })).toBeVisible();
  await openAppAs(userPage, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  // The talk is titled with the peer's name, on one line at 360 px; never the IM account.
  const title = userPage.getByRole('heading', { level: 1 });
  await expect(title).toHaveText(host.nickname);
  expect(await title.evaluate((el) => el.scrollHeight <= el.clientHeight + 1 && getComputedStyle(el).whiteSpace === 'nowrap')).toBe(true);

  const text = `Hello from ${user.nickname} ${Date.now()}`;
  await userPage.getByRole('textbox', { name: 'Message' }).fill(text);
  await userPage.getByRole('button', { name: 'Send' }).click();
  await expect(userPage.locator('[data-status="sent"]').filter({ hasText: text })).toHaveText(text);

  const banner = hostPage.getByTestId('incoming-banner');
  await expect(banner).toBeVisible();
  await expect(banner.getByTestId('banner-preview')).toHaveText(text);
  await expect(banner).toContainText('Just Now');
  // SPEC §2: the sender's avatar, not the fixed icon.
  const avatar = banner.locator('img.avatar');
  await expect(avatar).toHaveAttribute('src', `/avatars/${user.account.split('@')[0]}.svg`);
  await expect.poll(() => avatar.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect(banner.locator('.banner-icon')).toHaveCount(0);
  await hostPage.screenshot({ path: test.info().outputPath('banner-360.png') });
  await expect(tabBar(hostPage).getByRole('link', { name: 'News, 1 unread' })).toBeVisible();

  await banner.getByRole('button', { name: new RegExp(text) }).click();
  await expect(hostPage).toHaveURL(new RegExp(`/talk\\?to=${user.yxAccid}`));
  await expect(hostPage.getByRole('heading', { level: 1 })).toHaveText(user.nickname);
  await userPage.screenshot({ path: test.info().outputPath('talk-360.png') });

  await hostContext.close();
  await userContext.close();
});

test('an empty or blank message is not sent', async ({ page, request }) => {
  const user = await firstAccount(request, 1);
  await openAppAs(page, request, user.userId, '/talk?to=yx-nobody&taPath=e2e');
  await page.getByRole('textbox', { name: 'Message' }).fill('    ');
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
});

test("hiding a host's frame disconnects IM and showing it reconnects", async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  const sockets = await imSockets(page);
  await page.goto('/shell');
  await page.getByTestId(`open-${host.userId}`).click();
  const frame = page.frameLocator('iframe[data-testid="frame-1"]');
  await expect(frame.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expect.poll(() => sockets.filter((s) => !s.closed).length).toBe(1);

  await page.getByTestId('hide-1').click();
  await expect.poll(() => sockets.filter((s) => !s.closed).length).toBe(0);

  await page.getByTestId('show-1').click();
  await expect.poll(() => sockets.filter((s) => !s.closed).length).toBe(1);
  expect(sockets).toHaveLength(2);
});

test('delivery between two browser contexts: every message once, latency measured on the wire', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const hostContext = await browser.newContext();
  const userContext = await browser.newContext();
  const hostPage = await hostContext.newPage();
  const userPage = await userContext.newPage();
  const sentAt = new Map<string, number>();
  const receivedAt = new Map<string, number[]>();
  userPage.on('websocket', (ws) => ws.on('framesent', (f) => {
    const frame = JSON.parse(String(f.payload)) as { op?: string; text?: string };
    if (frame.op === 'send' && frame.text) sentAt.set(frame.text, Date.now());
  }));
  hostPage.on('websocket', (ws) => ws.on('framereceived', (f) => {
    const frame = JSON.parse(String(f.payload)) as { push?: { type?: string; message?: { text?: string } } };
    const text = frame.push?.type === 'message' ? frame.push.message?.text : undefined;
    if (text) receivedAt.set(text, [...(receivedAt.get(text) ?? []), Date.now()]);
  }));

  await openAppAs(hostPage, request, host.userId);
  await expect(hostPage.getByRole('heading', { name: 'Home' })).toBeVisible();
  await openAppAs(userPage, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  const box = userPage.getByRole('textbox', { name: 'Message' });
  const list = userPage.getByRole('list', { name: 'Messages' });
  await expect(list).toHaveAttribute('data-history', 'loaded');
  const before = Number(await list.getAttribute('data-count'));
  const texts = Array.from({ length: 20 }, (_, i) => `latency probe ${i} ${Date.now()}`);
  for (const text of texts) {
    await box.fill(text);
    await userPage.getByRole('button', { name: 'Send' }).click();
  }
  await expect(list).toHaveAttribute('data-count', String(before + 20));
  await expect(list).toHaveAttribute('data-sending', '0');
  await expect(list).toHaveAttribute('data-failed', '0');
  await expect.poll(() => texts.filter((t) => receivedAt.has(t)).length).toBe(20);

  expect(texts.map((t) => receivedAt.get(t)?.length)).toEqual(texts.map(() => 1));
  const latencies = texts.map((t) => receivedAt.get(t)![0]! - sentAt.get(t)!).sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  console.log(`IM delivery between two browser contexts (ms): p50 ${pct(50)}, p95 ${pct(95)}, n=${latencies.length}`);
  await expect(tabBar(hostPage).getByRole('link', { name: 'News, 20 unread' })).toBeVisible();
  await hostContext.close();
  await userContext.close();
});
