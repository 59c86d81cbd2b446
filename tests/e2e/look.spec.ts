/**
 * What people see at 360 px (CONVENTIONS "What people see"): tab strips that scroll say so and
 * nothing covers the host cards; icons are SVG, so no screen shows an emoji glyph (an empty box
 * on a phone without an emoji font); Lighthouse's accessibility audit (axe inside, WCAG AA
 * colour contrast among its checks) scores the first screens and the money screens 100; the
 * money screens (a user's and a host's) lie whole across the phone with 44-px touch targets.
 */
import { createServer } from 'node:net';
import { chromium, expect, test } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import { snapshot } from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { baseURL, chromiumArgs } from '../../playwright.config';
import { findChromium } from '../../scripts/chromium.mjs';
import { firstAccount, openAppAs } from './support';

const PHONE = { width: 360, height: 740 };

/**
 * The text on the page drawn as emoji (pictographs, flags): the app's own icons are SVG. The
 * seeded people's names and messages hold none, so any found is the app's.
 */
const emojiOn = (page: Page) => page.evaluate(() => {
  const emoji = /[\p{Extended_Pictographic}\p{Regional_Indicator}]/u;
  const found: string[] = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (emoji.test(node.nodeValue ?? '')) found.push((node.nodeValue ?? '').trim());
  }
  return found;
});

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Whether `what` covers any of `items` on screen. */
async function covers(what: Locator, items: Locator): Promise<boolean> {
  const box = await what.boundingBox();
  if (!box) return false;
  for (const item of await items.all()) {
    const itemBox = await item.boundingBox();
    if (itemBox && overlaps(box, itemBox)) return true;
  }
  return false;
}

/** A recharge package by its diamonds (its accessible name starts with them). */
const packageButton = (page: Page, diamonds: number) => page.getByRole('button', { name: new RegExp(`^${diamonds} diamonds,`) });
const picker = (page: Page) => page.getByRole('dialog', { name: 'Choose how to pay' });

/** What of `items` does not lie whole across the phone's width, or (for touch targets) is under 44 × 44 px. */
async function misfits(items: Locator, { target = false } = {}): Promise<string[]> {
  const found: string[] = [];
  for (const item of await items.all()) {
    const box = await item.boundingBox();
    if (!box) continue;
    const name = (await item.getAttribute('aria-label')) ?? (await item.textContent())?.trim() ?? '?';
    if (box.x < 0 || box.x + box.width > PHONE.width + 0.5) found.push(`${name}: x ${Math.round(box.x)}–${Math.round(box.x + box.width)}`);
    if (target && (box.height < 44 || box.width < 44)) found.push(`${name}: ${Math.round(box.width)} × ${Math.round(box.height)} px`);
  }
  return found;
}

/** Whether anything on the page is wider than the phone (the page or a screen's body scrolls sideways). */
const overflowsSideways = (page: Page) => page.evaluate(() =>
  [document.documentElement, ...document.querySelectorAll('.screen, .screen *')].some((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible' && getComputedStyle(el).overflowX !== 'hidden')
  || document.documentElement.scrollWidth > window.innerWidth + 1);

/** Whether `what` ends at the screen body's right edge (16 px in from the phone's). */
const atRightEdge = async (what: Locator) => {
  const box = await what.boundingBox();
  return box !== null && Math.abs(box.x + box.width - (PHONE.width - 16)) <= 1;
};

/**
 * A host who has neither a withdrawal password nor a collection method (as seeded) makes both
 * through the screens, from /wallet/withdrawal: the password form, then the add form (`audit`
 * runs while it is open), back at the withdrawal with the new method chosen.
 */
async function readyToWithdraw(page: Page, { audit, shot }: { audit?: () => Promise<void>; shot?: (name: string) => Promise<unknown> } = {}) {
  await page.goto('/wallet/withdrawal');
  const setForm = page.getByRole('form', { name: 'Set withdrawal password' });
  await setForm.getByLabel('Withdrawal password').fill('246810');
  await setForm.getByLabel('Type it again').fill('246810');
  await shot?.('withdrawal-password-360.png');
  await setForm.getByRole('button', { name: 'Save password' }).click();
  await page.getByRole('link', { name: 'Add a collection method' }).click();
  const add = page.getByRole('form', { name: 'Add a collection method' });
  await expect(add.getByLabel('Account holder')).toBeVisible();
  await audit?.();
  await shot?.('add-method-360.png');
  await add.getByLabel('Account holder').fill('Maria Lopez');
  await add.getByLabel('Bank name').fill('Banco Uno');
  await add.getByLabel('Account number or IBAN').fill('ES91 2100 0418 4502 0005 1332');
  await add.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('form', { name: 'Withdrawal' }).getByRole('radio', { name: /Banco Uno •••• 1332/ })).toBeChecked();
}

const freePort = () => new Promise<number>((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
});

test('Lighthouse\'s accessibility audit scores the host\'s /, the host\'s /wallet, add-method form and withdrawal (with a method, and confirming), a user\'s /newsRestricted, /wallet with its picker, /usdtPay and /login 100 at 360 px: every text meets WCAG AA contrast', async ({ request }) => {
  test.setTimeout(120_000);
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
      // The app's only tab in this browser (its address may lag a moment behind the app's own
      // replaceState in Puppeteer's view, so it is found by origin).
      const target = (await devtools.pages()).find((p) => p.url().startsWith(new URL(at.url()).origin));
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
    await expect(all.getByRole('listitem').or(expand).first()).toBeVisible();
    if (await expand.isVisible()) await expand.click();
    await expect(all.getByRole('listitem').first()).toBeVisible();
    expect.soft(await audit(page), 'the host\'s /').toEqual({ score: 100, failed: [] });

    // The host's money: /wallet with the income list, the add form, the withdrawal with a method, its confirm step.
    await page.goto('/wallet');
    await expect(page.getByRole('list', { name: 'Income history' }).getByRole('article').first()).toBeVisible();
    expect.soft(await audit(page), 'the host\'s /wallet').toEqual({ score: 100, failed: [] });
    await readyToWithdraw(page, { audit: async () => expect.soft(await audit(page), '/wallet/addCollectionMethod').toEqual({ score: 100, failed: [] }) });
    expect.soft(await audit(page), '/wallet/withdrawal with a method').toEqual({ score: 100, failed: [] });
    await page.getByLabel('Amount in diamonds').fill('1000');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('form', { name: 'Confirm the withdrawal' })).toBeVisible();
    expect.soft(await audit(page), '/wallet/withdrawal confirming').toEqual({ score: 100, failed: [] });

    await openAppAs(page, request, user.userId);
    await expect(page).toHaveURL(/\/newsRestricted$/);
    await expect(page.getByText('No chats yet.').or(page.getByRole('list', { name: 'Chats' }))).toBeVisible();
    expect.soft(await audit(page), 'a user\'s /newsRestricted').toEqual({ score: 100, failed: [] });

    // The money screens: /wallet with its packages and the picker open, /usdtPay with an order.
    await page.goto('/wallet');
    await packageButton(page, 500).click();
    await expect(picker(page).getByRole('button', { name: 'USDT' })).toBeVisible();
    expect.soft(await audit(page), '/wallet with the picker open').toEqual({ score: 100, failed: [] });
    await picker(page).getByRole('button', { name: 'USDT' }).click();
    await page.getByRole('dialog', { name: 'Choose the chain' }).getByRole('button', { name: 'USDT on TRC20' }).click();
    await expect(page.getByRole('timer')).toBeVisible();
    expect.soft(await audit(page), '/usdtPay with an order').toEqual({ score: 100, failed: [] });
    await context.close();
  } finally {
    await devtools.disconnect();
    await browser.close();
  }
});

test('at 360 px the Home tabs show whole, Match and Go live cover no host card, the News tabs say they scroll, and no screen shows an emoji', async ({ browser, request }) => {
  test.setTimeout(60_000);
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const h = await browser.newContext({ viewport: PHONE });
  const page = await h.newPage();
  await openAppAs(page, request, host.userId);

  // Home: every tab whole on screen (All, the seeded three tags, Live, Users).
  const tabs = page.getByRole('tablist', { name: 'Host lists' }).getByRole('tab');
  await expect(tabs).toHaveCount(6);
  for (const tab of await tabs.all()) await expect(tab).toBeInViewport({ ratio: 1 });
  // Host cards fill the screen (the offline ones when nobody is online); Match and Go live cover none.
  const all = page.getByRole('tabpanel', { name: 'All' });
  const expand = page.getByRole('button', { name: 'More offline anchors' });
  await expect(all.getByRole('listitem').or(expand).first()).toBeVisible();
  if (await expand.isVisible()) await expand.click();
  await expect(all.getByRole('listitem').nth(5)).toBeVisible();
  const match = page.getByRole('button', { name: 'Match' });
  const goLive = page.getByRole('link', { name: 'Go live' });
  for (const action of [match, goLive]) {
    await expect(action).toBeInViewport({ ratio: 1 });
    expect(await covers(action, all.getByRole('listitem')), `${await action.textContent()} covers a host card`).toBe(false);
  }
  await page.screenshot({ path: test.info().outputPath('home-360.png') });
  expect(await emojiOn(page), 'Home').toEqual([]);

  // News: five tabs do not fit; the strip says there are more, and its chevron brings them into view.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'News' }).click();
  const strip = page.getByRole('tablist', { name: 'News' });
  await expect(strip.getByRole('tab', { name: 'Messages', exact: true })).toBeInViewport({ ratio: 1 });
  await expect(strip.getByRole('tab', { name: 'Call records' })).not.toBeInViewport({ ratio: 1 });
  const more = page.getByRole('button', { name: 'More tabs' });
  await expect(more).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('news-360.png') });
  await more.click();
  for (const name of ['Following', 'Call records']) await expect(strip.getByRole('tab', { name })).toBeInViewport({ ratio: 1 });
  await expect(more).toBeHidden();
  await expect(page.getByRole('button', { name: 'Earlier tabs' })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('news-scrolled-360.png') });
  // A tab chosen with the keyboard is brought into view.
  await strip.getByRole('tab', { name: 'Call records' }).click();
  await page.keyboard.press('ArrowRight');
  await expect(strip.getByRole('tab', { name: 'Messages', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(strip.getByRole('tab', { name: 'Messages', exact: true })).toBeInViewport({ ratio: 1 });
  expect(await emojiOn(page), 'News').toEqual([]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Mine' }).click();
  await expect(page.getByRole('heading', { name: 'Mine' })).toBeVisible();
  expect(await emojiOn(page), 'Mine').toEqual([]);
  await h.close();

  // A user: the chat with a host offers the call with its words beside the icon.
  const u = await browser.newContext({ viewport: PHONE });
  const userPage = await u.newPage();
  await openAppAs(userPage, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  const call = userPage.getByRole('button', { name: `Video call ${host.nickname}` });
  await expect(call).toHaveText('Video call');
  await expect(call).toBeInViewport({ ratio: 1 });
  await userPage.screenshot({ path: test.info().outputPath('talk-360.png') });
  expect(await emojiOn(userPage), '/talk').toEqual([]);
  await userPage.goto(`/userProfile?userId=${host.userId}`);
  await expect(userPage.getByRole('article', { name: host.nickname })).toBeVisible();
  expect(await emojiOn(userPage), '/userProfile').toEqual([]);
  await userPage.goto('/newsRestricted');
  await expect(userPage.getByRole('tablist', { name: 'News' })).toBeVisible();
  expect(await emojiOn(userPage), '/newsRestricted').toEqual([]);
  await u.close();
});

test('at 360 px the money screens show whole: Mine\'s wallet card, /wallet\'s packages and picker, /usdtPay with an order; touch targets are 44 px and no emoji', async ({ browser, request }) => {
  test.setTimeout(60_000);
  const user = await firstAccount(request, 1, (a) => a.userLevel === 3);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const shot = (name: string) => page.screenshot({ path: test.info().outputPath(name) });

  await openAppAs(page, request, user.userId, '/mineRestricted');
  const card = page.getByRole('region', { name: 'Wallet and VIP' });
  await expect(card.getByTestId('mine-diamonds')).toHaveText(/^\d+$/);
  await expect(card.getByText(/^(Become a VIP|VIP member)$/)).toBeVisible();
  expect(await misfits(card), 'Mine\'s wallet card').toEqual([]);
  expect(await misfits(card.getByRole('link'), { target: true }), 'Mine\'s wallet card').toEqual([]);
  await shot('mine-wallet-360.png');
  expect(await emojiOn(page), 'Mine').toEqual([]);

  await card.getByRole('link', { name: 'Recharge' }).click();
  await expect(page.getByTestId('wallet-diamonds')).toHaveText(/^\d+$/);
  const offers = page.getByRole('tabpanel', { name: 'Recharge' }).getByRole('button');
  await expect(offers.first()).toBeVisible();
  for (const tab of await page.getByRole('tablist', { name: 'Wallet' }).getByRole('tab').all()) await expect(tab).toBeInViewport({ ratio: 1 });
  expect(await misfits(offers, { target: true }), '/wallet packages').toEqual([]);
  expect(await misfits(page.getByRole('tab'), { target: true }), '/wallet tabs').toEqual([]);
  expect(await overflowsSideways(page), '/wallet scrolls sideways').toBe(false);
  await shot('wallet-360.png');
  expect(await emojiOn(page), '/wallet').toEqual([]);

  await packageButton(page, 500).click();
  const ways = picker(page).getByRole('button');
  await expect(ways.filter({ hasText: 'USDT' })).toBeInViewport({ ratio: 1 });
  expect(await misfits(ways, { target: true }), 'Choose how to pay').toEqual([]);
  await shot('wallet-picker-360.png');
  expect(await emojiOn(page), 'Choose how to pay').toEqual([]);

  await ways.filter({ hasText: 'USDT' }).click();
  const chains = page.getByRole('dialog', { name: 'Choose the chain' }).getByRole('button');
  expect(await misfits(chains, { target: true }), 'Choose the chain').toEqual([]);
  await chains.filter({ hasText: 'USDT on TRC20' }).click();
  await expect(page.getByRole('timer')).toHaveText(/^1[45]:\d\d$/);
  const pay = page.locator('.usdt-pay');
  for (const what of [page.getByRole('timer'), page.getByTestId('usdt-amount'), page.getByTestId('usdt-address')]) await expect(what).toBeInViewport({ ratio: 1 });
  expect(await misfits(pay.locator('dd')), '/usdtPay facts').toEqual([]);
  expect(await misfits(page.getByRole('button', { name: 'Copy address' }), { target: true }), '/usdtPay').toEqual([]);
  expect(await overflowsSideways(page), '/usdtPay scrolls sideways').toBe(false);
  await shot('usdt-pay-360.png');
  expect(await emojiOn(page), '/usdtPay').toEqual([]);
  await context.close();
});

test('at 360 px the host\'s money screens show whole: /wallet\'s figures and income list, the withdrawal\'s password, method, amount, confirm and applied steps, the add form, the records and methods; touch targets are 44 px and no emoji', async ({ browser, request }) => {
  test.setTimeout(60_000);
  const host = await firstAccount(request, 2);
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const shot = (name: string) => page.screenshot({ path: test.info().outputPath(name), fullPage: true });
  const whole = async (where: string, targets: Locator, facts?: Locator) => {
    expect(await misfits(targets, { target: true }), `${where} touch targets`).toEqual([]);
    if (facts) expect(await misfits(facts), `${where} facts`).toEqual([]);
    expect(await overflowsSideways(page), `${where} scrolls sideways`).toBe(false);
    expect(await emojiOn(page), where).toEqual([]);
  };

  // /wallet: the seeded income (6,019 diamonds), the figures, the ways to withdraw, the tabs and the income list.
  await openAppAs(page, request, host.userId, '/wallet');
  await expect(page.getByTestId('host-income')).toHaveText(/^[\d,]+$/);
  const rows = page.getByRole('list', { name: 'Income history' }).getByRole('article');
  await expect(rows.first()).toBeVisible();
  const income = page.getByRole('region', { name: 'Income' });
  for (const tab of await page.getByRole('tablist', { name: 'Wallet' }).getByRole('tab').all()) await expect(tab).toBeInViewport({ ratio: 1 });
  await whole('/wallet',
    page.locator('.host-actions a, .host-actions button, [role="tab"], .income-filters select'),
    income.locator('dt, dd').or(rows));
  await shot('host-wallet-360.png');

  // /wallet/withdrawal: the password first, the add form, then the amount with the method chosen.
  await readyToWithdraw(page, {
    shot: async (name) => {
      await whole(name, page.locator('main').getByRole('button').or(page.locator('main input:not([type="radio"]), main select, main .host-method')));
      await shot(name);
    },
  });
  const form = page.getByRole('form', { name: 'Withdrawal' });
  await form.getByRole('button', { name: 'All' }).click();
  await expect(form.getByText(/^Fee [\d,]+ diamonds · you receive US\$ [\d.]+$/)).toBeVisible();
  await whole('/wallet/withdrawal',
    form.getByRole('button').or(form.locator('.host-method, .host-add, input[inputmode="numeric"]')),
    page.getByRole('region', { name: 'Withdrawal rules' }).locator('dt, dd'));
  await shot('withdrawal-360.png');
  await form.getByLabel('Amount in diamonds').fill('1000');
  await form.getByRole('button', { name: 'Next' }).click();
  const confirm = page.getByRole('form', { name: 'Confirm the withdrawal' });
  await expect(confirm.getByTestId('withdraw-usd')).toHaveText('US$ 9.50');
  await confirm.getByLabel('Withdrawal password').fill('000000');
  await confirm.getByRole('button', { name: 'Apply for withdrawal' }).click();
  await expect(confirm.getByRole('alert')).toBeVisible();
  await whole('confirming the withdrawal', confirm.getByRole('button').or(confirm.locator('input')), confirm.locator('dt, dd, [role="alert"]'));
  await shot('withdrawal-confirm-360.png');

  // Applied, then the records and the collection methods.
  await confirm.getByLabel('Withdrawal password').fill('246810');
  await confirm.getByRole('button', { name: 'Apply for withdrawal' }).click();
  const applied = page.getByRole('status', { name: 'Withdrawal applied' });
  await expect(applied).toBeVisible();
  await whole('applied', applied.getByRole('button').or(applied.getByRole('link')), applied.locator('p'));
  await shot('withdrawal-applied-360.png');
  await applied.getByRole('link', { name: 'Withdrawal records' }).click();
  const records = page.getByRole('list', { name: 'Withdrawal records' }).getByRole('article');
  await expect(records.first()).toContainText('Applied');
  await whole('/wallet/withdrawalRecord', page.locator('main').getByRole('button'), records.locator('p'));
  // A row's two sides stand apart: the status at the right edge, not run on after the amount.
  expect(await atRightEdge(records.first().getByText('Applied', { exact: true })), 'the status at the right').toBe(true);
  // Where it went on one line (the masked number not broken from its dots).
  expect((await records.first().getByText('US$ 9.50 to Banco Uno •••• 1332').boundingBox())!.height, 'one line').toBeLessThan(24);
  await shot('withdrawal-records-360.png');
  await page.goto('/wallet/collectionInfo');
  const methods = page.getByRole('list', { name: 'Collection methods' }).getByRole('listitem');
  await expect(methods.first()).toContainText('Banco Uno •••• 1332');
  await whole('/wallet/collectionInfo', page.locator('main').getByRole('link'), methods.locator('p'));
  expect(await atRightEdge(methods.first().getByText('Banco Uno •••• 1332')), 'the method at the right').toBe(true);
  await shot('collection-info-360.png');
  await context.close();
});
