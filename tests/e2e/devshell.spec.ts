/** The dev shell stands in for the native shell: frames side by side, hide/show, no-session open. */
import { expect, test } from '@playwright/test';
import type { FrameLocator, Page } from '@playwright/test';
import { firstAccount } from './support';

class DevShell {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto('/shell');
    await expect(this.page.getByTestId('account-list')).toBeVisible();
  }

  async open(userId: number): Promise<FrameLocator> {
    const frames = this.page.locator('iframe[data-testid^="frame-"]');
    const before = await frames.count();
    await this.page.getByTestId(`open-${userId}`).click();
    // The frame is added once the shell has the session: wait, so that a second open counts it.
    await expect(frames).toHaveCount(before + 1);
    return this.page.frameLocator(`iframe[data-testid="frame-${before + 1}"]`);
  }

  async openWithoutSession(): Promise<FrameLocator> {
    const before = await this.page.locator('iframe[data-testid^="frame-"]').count();
    await this.page.getByTestId('open-no-session').click();
    return this.page.frameLocator(`iframe[data-testid="frame-${before + 1}"]`);
  }
}

const tabs = (frame: FrameLocator) => frame.getByRole('navigation', { name: 'Main' }).getByRole('link');

test('a host and a user open side by side from the dev shell, each in their own mode', async ({ page, request }) => {
  const shell = new DevShell(page);
  await shell.goto();
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);

  const hostFrame = await shell.open(host.userId);
  const userFrame = await shell.open(user.userId);

  await expect(hostFrame.getByRole('heading', { name: 'Home' })).toBeVisible();
  await expect(tabs(hostFrame)).toHaveText(['List', 'News', 'Circle', 'Mine']);
  await expect(userFrame.getByRole('heading', { name: 'News' })).toBeVisible();
  await expect(tabs(userFrame)).toHaveText(['News', 'Mine']);
  // Each frame is its own account.
  await hostFrame.getByRole('link', { name: 'Mine' }).click();
  await expect(hostFrame.getByTestId('profile-card')).toContainText(host.nickname);
  await userFrame.getByRole('link', { name: 'Mine' }).click();
  await expect(userFrame.getByTestId('profile-card')).toContainText(user.nickname);
});

test('hide and show fire the page visibility change inside the frame', async ({ page, request }) => {
  const shell = new DevShell(page);
  await shell.goto();
  const host = await firstAccount(request, 2);
  const frame = await shell.open(host.userId);
  await expect(frame.getByRole('heading', { name: 'Home' })).toBeVisible();

  const app = (await (await page.locator('iframe[data-testid="frame-1"]').elementHandle())!.contentFrame())!;
  await app.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seen: string[] }).seen = seen;
    document.addEventListener('visibilitychange', () => seen.push(document.visibilityState));
  });
  await page.getByTestId('hide-1').click();
  await expect.poll(() => app.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['hidden']);
  expect(await app.evaluate(() => document.hidden)).toBe(true);
  await page.getByTestId('show-1').click();
  await expect.poll(() => app.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['hidden', 'visible']);
});

test('a frame opened without a session goes to /login', async ({ page }) => {
  const shell = new DevShell(page);
  await shell.goto();
  const frame = await shell.openWithoutSession();
  await expect(frame.getByRole('heading', { name: 'Log in' })).toBeVisible();
});
