/**
 * What people see at 360 px (CONVENTIONS "What people see"): Lighthouse's accessibility audit
 * (axe inside, WCAG AA colour contrast among its checks) on the first screens.
 */
import { createServer } from 'node:net';
import { chromium, expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { snapshot } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { baseURL, chromiumArgs } from '../../playwright.config';
import { findChromium } from '../../scripts/chromium.mjs';
import { firstAccount, openAppAs } from './support';

const PHONE = { width: 360, height: 740 };

const freePort = () => new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

test('Lighthouse\'s accessibility audit scores the host\'s /, a user\'s /newsRestricted and /login 100 at 360 px: every text meets WCAG AA contrast', async ({ request }) => {
  test.setTimeout(90_000);
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  // Lighthouse audits the screen as it is (snapshot mode: no reload, no throttling) over the
  // DevTools protocol, through Puppeteer; Playwright opens the screen and waits for its content.
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: findChromium() ?? undefined, args: [...chromiumArgs, `--remote-debugging-port=${port}`] });
  const devtools = await puppeteer.connect({ browserURL: `http://127.0.0.1:${port}`, defaultViewport: null });
  try {
    const context = await browser.newContext({ viewport: PHONE, baseURL });
    const page = await context.newPage();
    const audit = async (at: Page) => {
      const target = (await devtools.pages()).find((p) => p.url() === at.url());
      if (!target) throw new Error(`no DevTools page at ${at.url()}`);
      const result = await snapshot(target, {
        config: { extends: 'lighthouse:default', settings: { onlyCategories: ['accessibility'], disableFullPageScreenshot: true } },
      });
      const lhr = result!.lhr;
      // The audits that count toward the score (axe's experimental ones weigh nothing).
      const failed = (lhr.categories.accessibility?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0)
        .map((ref) => lhr.audits[ref.id]!)
        .filter((a) => a.score !== null && a.score < 1)
        .map((a) => `${a.id}: ${((a.details as { items?: { node?: { snippet?: string; explanation?: string } }[] } | undefined)?.items ?? [])
          .map((i) => `${i.node?.snippet} (${i.node?.explanation?.split('\n').at(-1)?.trim()})`).join('; ')}`);
      return { score: Math.round((lhr.categories.accessibility?.score ?? 0) * 100), failed };
    };

    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Log in' })).toBeVisible();
    expect.soft(await audit(page), '/login').toEqual({ score: 100, failed: [] });

    await openAppAs(page, request, host.userId);
    await expect(page).toHaveURL(/\/$/);
    // The home with host cards on it (the offline ones when nobody is online).
    const all = page.getByRole('tabpanel', { name: 'All' });
    const expand = page.getByRole('button', { name: 'More offline anchors' });
    await expect(all.getByRole('listitem').first().or(expand)).toBeVisible();
    if (await expand.isVisible()) await expand.click();
    await expect(all.getByRole('listitem').first()).toBeVisible();
    expect.soft(await audit(page), 'the host\'s /').toEqual({ score: 100, failed: [] });

    await openAppAs(page, request, user.userId);
    await expect(page).toHaveURL(/\/newsRestricted$/);
    await expect(page.getByText('No chats yet.').or(page.getByRole('list', { name: 'Chats' }))).toBeVisible();
    expect.soft(await audit(page), 'a user\'s /newsRestricted').toEqual({ score: 100, failed: [] });
    await context.close();
  } finally {
    await devtools.disconnect();
    await browser.close();
  }
});
