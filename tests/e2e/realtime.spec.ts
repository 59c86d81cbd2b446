/**
 * Two people in two browser contexts over the real hub (SPEC §2 incoming-message banner and
 * News badge, §4 Message service): a user writes to a host, the host sees it arrive.
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

test('a user sends a text; the host sees the banner, the News badge, and opens the talk from the banner', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const hostContext = await browser.newContext({ viewport: { width: 360, height: 640 } });
  const userContext = await browser.newContext({ viewport: { width: 360, height: 640 } });
  const hostPage = await hostContext.newPage();
  const userPage = await userContext.newPage();

  await openAppAs(hostPage, request, host.userId);
  await expect(hostPage.getByRole('heading', { name: 'Home' })).toBeVisible();
  await openAppAs(userPage, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  await expect(userPage.getByRole('heading', { name: `Chat with ${host.yxAccid}` })).toBeVisible();

  const text = `Hello from ${user.nickname} ${Date.now()}`;
  await userPage.getByRole('textbox', { name: 'Message' }).fill(text);
  await userPage.getByRole('button', { name: 'Send' }).click();
  await expect(userPage.locator('[data-status="sent"]')).toHaveText(text);

  const banner = hostPage.getByTestId('incoming-banner');
  await expect(banner).toBeVisible();
  await expect(banner.getByTestId('banner-preview')).toHaveText(text);
  await expect(banner).toContainText('Just Now');
  await expect(tabBar(hostPage).getByRole('link', { name: 'News, 1 unread' })).toBeVisible();

  await banner.getByRole('button', { name: new RegExp(text) }).click();
  await expect(hostPage).toHaveURL(new RegExp(`/talk\\?to=${user.yxAccid}`));
  await expect(hostPage.getByRole('heading', { name: `Chat with ${user.yxAccid}` })).toBeVisible();

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
