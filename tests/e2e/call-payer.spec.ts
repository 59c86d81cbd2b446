/**
 * Who pays for a call sees what it costs (SPEC §6 VIP discount, §8 1080) and the host's income
 * follows the server's billing (SPEC §4 attachType 15), in two browser contexts: a prime host
 * calls a user from Home → Users, by audio (signalling action 10); a user with no diamonds calls
 * a host, and a host calls that user. The bodies are read as the server reads them (the shared
 * development AES key).
 */
import { expect, test } from '@playwright/test';
import type { Locator, Page, Request } from '@playwright/test';
import { createAesCodec } from '../../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY } from '../../src/api/codes';
import { callScreen, firstAccount, openAppAs, phoneOf, present } from './support';

const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);
const opened = <T>(text: string) => (JSON.parse(codec.decrypt(text)) as { data: T }).data;

/** An endpoint of the encrypted API with the session of the page that sent `sent`. */
async function asSender<T>(page: Page, sent: Request, path: string, body: object): Promise<T> {
  const headers = Object.fromEntries(Object.entries(await sent.allHeaders()).filter(([name]) => name.startsWith('x-') || name === 'content-type'));
  const response = await page.request.post(path, { headers, data: codec.encrypt(JSON.stringify(body)) });
  return opened<T>(await response.text());
}

/** 24 diamonds a minute, the list price of 30 struck through, and the VIP discount as "100 − 80 % off" (SPEC §6). */
async function expectPrice(screen: Locator) {
  const price = screen.getByTestId('call-price');
  await expect(price).toContainText('24 diamonds/min');
  await expect(price.locator('s')).toHaveText('was 30');
  await expect(price).toContainText('VIP 20% off');
}

/** The Users tab of a host's home, once `nickname` is listed there with calls open. */
async function usersTab(page: Page, nickname: string) {
  await page.getByRole('tab', { name: 'Users' }).click();
  const users = page.getByRole('list', { name: 'Users' });
  await expect(users.getByRole('button', { name: `Call ${nickname}`, exact: true })).toBeEnabled({ timeout: 10_000 });
  return users;
}

test('a prime host calls a user by audio from Home → Users: she sees the price with its VIP discount and her balance before taking it and in the call; the host\'s call income is what the server credited', async ({ browser, request }) => {
  test.setTimeout(60_000);
  // Seeded hosts 1, 7, 13, … charge 30 diamonds a minute (a period here is 2 s); level-1 users are VIPs (80 % of the price,
  // "20 % off") with 200 diamonds: 24 a period, eight periods before the server ends the call.
  const host = await firstAccount(request, 2, (a) => (a.userId - 100_001) % 6 === 0);
  const user = await firstAccount(request, 1, (a) => a.userLevel === 1);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  const here = present(u.page);
  await openAppAs(u.page, request, user.userId);
  await here;
  await openAppAs(h.page, request, host.userId);
  const users = await usersTab(h.page, user.nickname);

  const created = h.page.waitForRequest('**/api/call/record/v2/createCall');
  const terms = u.page.waitForResponse('**/api/call/record/v2/callTerms');
  await users.getByRole('button', { name: `Audio call ${user.nickname}`, exact: true }).click();
  const call = opened<{ channelId: string; videoPrice: number; listPrice: number; callType: number }>(await (await (await created).response())!.text());
  expect(call).toMatchObject({ videoPrice: 24, listPrice: 30, callType: 10 });

  // Rung, she sees what she would pay and what she has before she can take it.
  const ring = callScreen(u.page);
  await expect(ring).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  await expect(ring.getByText('Incoming audio call')).toBeVisible();
  const { balance } = opened<{ balance: number }>(await (await terms).text());
  expect(balance).toBe(200);
  await expectPrice(ring);
  await expect(ring.getByTestId('call-balance')).toHaveText('Balance 200 diamonds');
  await ring.getByRole('button', { name: 'Accept' }).click();

  await expect(callScreen(h.page)).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
  await expect(ring).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
  // In the call: the price, and what is left once the first period (charged as she took it) and the next are paid.
  await expectPrice(ring);
  const left = Number((await ring.getByTestId('call-balance').textContent())?.match(/Balance (\d+) diamonds/)?.[1]);
  expect(left).toBeLessThanOrEqual(200 - 24);
  expect((200 - left) % 24).toBe(0);

  // The host's income counts the first period too: the last figure shown before the end is what the server credited.
  const income = callScreen(h.page).getByTestId('call-income');
  await income.evaluate((el) => {
    const w = window as unknown as { lastIncome: string };
    w.lastIncome = el.textContent ?? '';
    new MutationObserver(() => { w.lastIncome = el.textContent ?? w.lastIncome; }).observe(el, { childList: true, characterData: true, subtree: true });
  });
  // Just after a period's notice (so that no other is due while the call is ended).
  const shown = await income.textContent();
  await expect(income).not.toHaveText(shown ?? '', { timeout: 5_000 });
  await callScreen(h.page).getByRole('button', { name: 'End call' }).click();
  await expect(h.page.getByRole('dialog', { name: 'Call ended' })).toBeVisible();
  const record = await asSender<{ callIncome: number; periods: number }>(h.page, await created, '/api/call/record/detail', { searchValue: call.channelId });
  expect(record.periods).toBeGreaterThanOrEqual(2);
  expect(await h.page.evaluate(() => (window as unknown as { lastIncome: string }).lastIncome)).toBe(`Call income ${record.callIncome}`);
  await h.context.close();
  await u.context.close();
});

test('[§8 1080] said in words: a user with no diamonds who calls is told so and offered a recharge (the wallet); a host who calls her is told she cannot pay', async ({ browser, request }) => {
  // Seeded level-3 users have no diamonds.
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1, (a) => a.userLevel === 3);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  const hostHere = present(h.page);
  await openAppAs(h.page, request, host.userId);
  await hostHere;
  const here = present(u.page);
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  await here;

  await u.page.getByRole('button', { name: `Video call ${host.nickname}` }).click();
  const ended = u.page.getByRole('dialog', { name: 'Call ended' });
  await expect(ended.getByRole('status')).toHaveText('You do not have enough diamonds for this call.');
  await ended.getByRole('link', { name: 'Recharge' }).click();
  await expect(u.page).toHaveURL(/\/wallet$/);
  await expect(u.page.getByRole('heading', { name: 'Wallet' })).toBeVisible();
  await expect(ended).toHaveCount(0);

  const users = await usersTab(h.page, user.nickname);
  await users.getByRole('button', { name: `Call ${user.nickname}`, exact: true }).click();
  const hostEnded = h.page.getByRole('dialog', { name: 'Call ended' });
  await expect(hostEnded.getByRole('status')).toHaveText(`${user.nickname} does not have enough diamonds for this call.`);
  await expect(hostEnded.getByRole('link', { name: 'Recharge' })).toHaveCount(0);
  await h.context.close();
  await u.context.close();
});
