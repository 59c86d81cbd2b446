/**
 * Money in, end to end on the reference server (SPEC §4 Recharge and Crypto payment, §5 VIP
 * text, §6 VIP discount, §8 'no pay'): a user with no diamonds is led from a call to the
 * recharge, pays by card in the payment sandbox and comes back with the diamonds, then calls;
 * a store payment through the dev shell's bridge, declined then approved; 'no pay' with no
 * bridge; a USDT order paid while the app is hidden; a USDT order that runs out, is checked and
 * goes back; a VIP bought and the discounted price of a call; the recharge message's banner and
 * preview.
 */
import { expect, test } from '@playwright/test';
import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { firstAccount, openAppAs, phoneOf, present } from './support';
import type { Account } from './support';

type Surface = Page | FrameLocator;

const packageButton = (app: Surface, diamonds: number, vip = false) =>
  app.getByRole('button', { name: new RegExp(`^${vip ? 'VIP, ' : ''}${diamonds} diamonds,`) });

/** Chooses a package of the wallet's recharge and, in the picker, a way to pay. */
async function buy(app: Surface, diamonds: number, method: string, { vip = false } = {}) {
  await packageButton(app, diamonds, vip).click();
  const picker = app.getByRole('dialog', { name: 'Choose how to pay' });
  await picker.getByRole('button', { name: method, exact: false }).first().click();
}

/** The dev shell opens the person's app in its first frame; from Mine, Recharge leads to the wallet. */
async function walletInDevShell(page: Page, user: Account): Promise<FrameLocator> {
  await page.goto('/shell');
  await page.getByTestId(`open-${user.userId}`).click();
  const app = page.frameLocator('iframe[data-testid="frame-1"]');
  await expect(app.getByRole('heading', { name: 'News' })).toBeVisible();
  await app.getByRole('link', { name: 'Mine' }).click();
  await app.getByRole('link', { name: 'Recharge' }).click();
  return app;
}

const sandbox = (request: APIRequestContext, orderCode: string, outcome: 'pay' | 'fail' | 'expire') =>
  request.post(`/sandbox/pay/${orderCode}/${outcome}`);

test('[§4 Recharge] a user with no diamonds who calls is led to the recharge, pays by card in the sandbox, comes back with the diamonds, and calls', async ({ browser, request }) => {
  test.setTimeout(60_000);
  // Seeded level-3 users have no diamonds and never paid.
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1, (a) => a.userLevel === 3);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  const hostHere = present(h.page);
  await openAppAs(h.page, request, host.userId);
  await hostHere;
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);

  await u.page.getByRole('button', { name: `Video call ${host.nickname}` }).click();
  const ended = u.page.getByRole('dialog', { name: 'Call ended' });
  await expect(ended.getByRole('status')).toHaveText('You do not have enough diamonds for this call.');
  await ended.getByRole('link', { name: 'Recharge' }).click();
  await expect(u.page.getByTestId('wallet-diamonds')).toHaveText('0');
  // 500 diamonds with 50 more, and 100 on a first recharge: the card of the picker (several ways to pay).
  await expect(packageButton(u.page, 500)).toHaveAccessibleName(/plus 50, plus 100 on a first recharge, US\$ 4\.99/);
  await buy(u.page, 500, 'Card');
  await expect(u.page.getByRole('heading', { name: 'Payment sandbox' })).toBeVisible();
  await u.page.getByRole('button', { name: 'Pay' }).click();

  await expect(u.page).toHaveURL(/\/wallet$/);
  await expect(u.page.getByRole('status').filter({ hasText: 'Payment successful' })).toBeVisible();
  await expect(u.page.getByTestId('wallet-diamonds')).toHaveText('650');
  // The first recharge's gift is gone from the packages now.
  await expect(packageButton(u.page, 500)).not.toHaveAccessibleName(/first recharge/);
  await u.page.getByRole('tab', { name: 'Diamond history' }).click();
  await expect(u.page.getByRole('article', { name: 'Recharge', exact: true })).toContainText('+500');
  await expect(u.page.getByRole('article', { name: 'Recharge bonus' })).toHaveCount(2);

  await u.page.goto(`/talk?to=${host.yxAccid}&taPath=e2e`);
  await u.page.getByRole('button', { name: `Video call ${host.nickname}` }).click();
  // The host's phone rings: the call was placed, paid for by the new diamonds.
  await expect(h.page.getByRole('dialog', { name: 'Call' })).toBeVisible({ timeout: 15_000 });
  await expect(u.page.getByRole('dialog', { name: 'Call ended' })).toHaveCount(0);
  await h.context.close();
  await u.context.close();
});

test('[§4 Recharge] a store payment goes through the dev shell\'s bridge: declined, then approved', async ({ page, request }) => {
  const app = await walletInDevShell(page, await firstAccount(request, 1, (a) => a.userLevel === 3));
  await expect(app.getByTestId('wallet-diamonds')).toHaveText('0');

  await buy(app, 100, 'Google Pay');
  await page.getByTestId('store-declined').click();
  await expect(app.getByRole('alert')).toHaveText('The payment was declined.');
  await expect(app.getByTestId('wallet-diamonds')).toHaveText('0');

  await buy(app, 100, 'Google Pay');
  await page.getByTestId('store-approved').click();
  // 100 diamonds and 20 on a first recharge.
  await expect(app.getByTestId('wallet-diamonds')).toHaveText('120');
});

test('[§8 no pay] a store payment with no native bridge says \'no pay\', and nothing is charged', async ({ page, request }) => {
  const user = await firstAccount(request, 1, (a) => a.userLevel === 3);
  await openAppAs(page, request, user.userId, '/wallet');
  await expect(page.getByTestId('wallet-diamonds')).toHaveText('0');
  await buy(page, 100, 'Apple Pay');
  await expect(page.getByRole('alert')).toHaveText('no pay');
  await expect(page.getByTestId('wallet-diamonds')).toHaveText('0');
});

test('[§4 Crypto payment] a USDT order paid while the app is hidden shows the status page on return, with the diamonds and the recharge message', async ({ page, request }) => {
  const app = await walletInDevShell(page, await firstAccount(request, 1, (a) => a.userLevel === 3));

  await buy(app, 1000, 'USDT');
  await app.getByRole('dialog', { name: 'Choose the chain' }).getByRole('button', { name: 'USDT on ERC20' }).click();
  await expect(app.getByRole('heading', { name: 'USDT payment' })).toBeVisible();
  await expect(app.getByTestId('usdt-amount')).toHaveText('9.99 USDT');
  await expect(app.getByRole('timer')).toHaveText(/^1[45]:\d\d$/);
  const orderCode = (await app.getByRole('definition').last().textContent())!;

  await page.getByTestId('hide-1').click();
  expect((await sandbox(request, orderCode, 'pay')).ok()).toBe(true);
  await page.getByTestId('show-1').click();
  await expect(app.getByRole('heading', { name: 'Payment status' })).toBeVisible();
  await expect(app.getByRole('status').getByRole('heading')).toHaveText('Payment successful');
  // 1000 diamonds, 200 more, and 200 on a first recharge.
  await expect(app.getByTestId('status-diamonds')).toHaveText('You have 1400 diamonds.');
  // The server's recharge message: its preview in the conversations (the frame opens News, signed in still).
  const frame = (await (await page.locator('iframe[data-testid="frame-1"]').elementHandle())!.contentFrame())!;
  await frame.goto('/newsRestricted');
  await expect(app.getByText('[recharge successful!]').first()).toBeVisible();
});

test('[§4 Crypto payment, §9] a USDT order that runs out is checked at its deadline and, unpaid, goes back to the wallet', async ({ page, request }) => {
  const user = await firstAccount(request, 1, (a) => a.userLevel === 3);
  await page.clock.install();
  await openAppAs(page, request, user.userId, '/wallet');
  await buy(page, 100, 'USDT');
  await page.getByRole('dialog', { name: 'Choose the chain' }).getByRole('button', { name: 'USDT on TRC20' }).click();
  await expect(page.getByRole('heading', { name: 'USDT payment' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Send the exact amount to the address below before the time is up.');

  await page.clock.fastForward('10:30');
  await expect(page.getByRole('status')).toHaveText('Less than 5 minutes left to pay.');
  await page.clock.fastForward('04:00');
  await expect(page.getByRole('status')).toHaveText('Less than a minute left to pay.');
  const checks = page.waitForRequest('**/api/fuse/queryUsdtOrderStat');
  await page.clock.fastForward('01:00');
  await checks;
  await expect(page.getByRole('heading', { name: 'Wallet' })).toBeVisible();
  await expect(page.getByTestId('wallet-diamonds')).toHaveText('0');
  // Nothing is waiting any more.
  await page.goto('/usdtPay');
  await expect(page.getByText('No USDT payment is waiting.')).toBeVisible();
});

test('[§6 VIP] a VIP bought by card shows on Mine with its benefits, and the call price has the VIP discount', async ({ browser, request }) => {
  test.setTimeout(60_000);
  // Seeded hosts 1, 7, 13, … charge 30 diamonds a minute; the VIP pays 80 % of it. Level-2 users are not VIPs and have 50 diamonds.
  const host = await firstAccount(request, 2, (a) => (a.userId - 100_001) % 6 === 0);
  const user = await firstAccount(request, 1, (a) => a.userLevel === 2);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  const hostHere = present(h.page);
  await openAppAs(h.page, request, host.userId);
  await hostHere;
  await openAppAs(u.page, request, user.userId, '/mineRestricted');
  const card = u.page.getByRole('region', { name: 'Wallet and VIP' });
  await expect(card).toContainText('Become a VIP');
  await expect(card).toContainText('20% off video calls');

  await card.getByRole('link', { name: 'Recharge' }).click();
  await buy(u.page, 300, 'Card', { vip: true });
  await u.page.getByRole('button', { name: 'Pay' }).click();
  await expect(u.page.getByTestId('wallet-diamonds')).toHaveText('350');
  await expect(u.page.getByText('VIP member')).toBeVisible();
  await u.page.goto('/mineRestricted');
  await expect(card).toContainText('VIP member');

  await u.page.goto(`/talk?to=${host.yxAccid}&taPath=e2e`);
  await u.page.getByRole('button', { name: `Video call ${host.nickname}` }).click();
  const price = u.page.getByRole('dialog', { name: 'Call' }).getByTestId('call-price');
  await expect(price).toContainText('24 diamonds/min');
  await expect(price).toContainText('VIP 20% off');
  await h.context.close();
  await u.context.close();
});

test('[§2 banner] the recharge message shows in the banner as \'[recharge successful!]\', and its tap does nothing', async ({ page, request }) => {
  const user = await firstAccount(request, 1, (a) => a.userLevel === 3);
  await openAppAs(page, request, user.userId, '/wallet');
  await buy(page, 100, 'PayPal');
  await expect(page.getByRole('heading', { name: 'Payment sandbox' })).toBeVisible();
  const orderCode = new URL(page.url()).pathname.split('/').pop()!;
  // Back in the app before the provider confirms: the confirmation reaches the open app.
  await page.goBack();
  await expect(page.getByTestId('wallet-diamonds')).toHaveText('0');
  expect((await sandbox(request, orderCode, 'pay')).ok()).toBe(true);
  const banner = page.getByRole('button', { name: /System information/ });
  await expect(banner).toContainText('[recharge successful!]');
  await expect(page.getByTestId('wallet-diamonds')).toHaveText('120');
  await banner.click();
  await expect(page.getByRole('heading', { name: 'Wallet' })).toBeVisible();
});
