/**
 * The non-paid user quota over the real server and hub (SPEC §3 businessConfig.nonPaidUserCount,
 * which the reference server seeds as 3; §4 Recharge "Non-paid user quota resets at the end of
 * the local day"): a seeded user who never paid (no recharge, not VIP) writes to three hosts, each on a fresh load of the
 * app (the day's count is kept on the device), and a text to a fourth is refused with the quota's
 * text and Recharge, staying in the field; writing again to one of the three still goes.
 */
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { TEXT_CHAT_LIMIT } from '../../machines/talk/chat-quota';
import { RECHARGE_PATH } from '../../src/app/recharge';
import type { Account } from './support';
import { accounts, firstAccount, openAppAs, watchPage } from './support';

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const field = (page: Page) => page.getByRole('textbox', { name: 'Message' });

async function talkTo(page: Page, peer: Account) {
  await page.goto(`/talk?to=${peer.yxAccid}&taPath=e2e`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(peer.nickname);
  await expect(messages(page)).toHaveAttribute('data-history', 'loaded');
}

async function say(page: Page, text: string) {
  await field(page).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

test('[§4 Recharge] a user who never paid writes to three hosts in a day; a fourth is refused with Recharge, the text kept', async ({ page, request }) => {
  // Not a VIP: VIP is bought, and a VIP member is never limited.
  const user = await firstAccount(request, 1, (a) => !a.isVip);
  // Level-0 hosts, from the end: no other spec signs in as them or reads their chats.
  const hosts = (await accounts(request)).filter((a) => a.userType === 2 && a.userLevel === 0).reverse().slice(0, 4);
  expect(hosts).toHaveLength(4);
  const problems = watchPage(page);
  await openAppAs(page, request, user.userId, '/newsRestricted');

  for (const [i, host] of hosts.slice(0, 3).entries()) {
    await talkTo(page, host);
    await expect(page.getByTestId('chat-limit')).toHaveCount(0);
    await say(page, `Hello ${i + 1}`);
    await expect(field(page)).toHaveValue('');
    await expect(messages(page)).toHaveAttribute('data-count', '1');
    await expect(messages(page)).toHaveAttribute('data-sending', '0');
    await expect(messages(page)).toHaveAttribute('data-failed', '0');
  }

  // The fourth host: the talk says why, with Recharge, and nothing is sent.
  await talkTo(page, hosts[3]!);
  const notice = page.getByTestId('chat-limit');
  await expect(notice).toContainText(TEXT_CHAT_LIMIT);
  await expect(notice.getByRole('link', { name: 'Recharge' })).toHaveAttribute('href', RECHARGE_PATH);
  await say(page, 'Hello 4');
  await expect(field(page)).toHaveValue('Hello 4');
  await expect(messages(page)).toHaveAttribute('data-count', '0');

  // Someone already written to today: always allowed.
  await talkTo(page, hosts[0]!);
  await expect(page.getByTestId('chat-limit')).toHaveCount(0);
  await say(page, 'Hello again');
  await expect(field(page)).toHaveValue('');
  await expect(messages(page)).toHaveAttribute('data-sending', '0');
  await expect(messages(page)).toHaveAttribute('data-count', '2');
  expect(problems).toEqual([]);
});
