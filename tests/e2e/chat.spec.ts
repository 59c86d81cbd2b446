/**
 * News and chat between two people in two browser contexts over the real server and hub
 * (SPEC §2 /news, /newsRestricted, /talk; §3 Chat session; §5 pinning and sending; §9).
 */
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { TEXT_PIN_LIMIT, TEXT_PIN_VIP_ONLY } from '../../machines/conversations/conversations.machine';
import { MAX_TEXT, TEXT_TOO_LONG } from '../../machines/talk/talk.machine';
import { TEXT_TALK_NOT_LOADED } from '../../machines/talks/talks.machine';
import type { Account } from './support';
import { accounts, firstAccount, openAppAs, phoneOf, tabBar, watchPage } from './support';

const messages = (page: Page) => page.getByRole('list', { name: 'Messages' });
const chats = (page: Page) => page.getByRole('list', { name: 'Chats' });

async function say(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

async function talkTo(page: Page, peer: Account) {
  await page.goto(`/talk?to=${peer.yxAccid}&taPath=e2e`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(peer.nickname);
}

test('a user and a host write both ways; unread counts and the News badge rise and clear on reading', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  const problems = [...watchPage(h.page), ...watchPage(u.page)];

  await openAppAs(h.page, request, host.userId, '/news');
  await expect(h.page.getByRole('tab', { name: 'Messages', exact: true })).toHaveAttribute('aria-selected', 'true');
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  await say(u.page, 'Hi, are you there?');
  await expect(messages(u.page)).toHaveAttribute('data-sending', '0');

  // The host's list gets the chat (batched within 2 s) with its preview, the sender's name and one unread.
  const row = chats(h.page).getByRole('link', { name: new RegExp(`^${user.nickname}, .*1 unread: Hi, are you there\\?$`) });
  await expect(row).toBeVisible({ timeout: 10_000 });
  await expect(tabBar(h.page).getByRole('link', { name: 'News, 1 unread' })).toBeVisible();

  // Reading clears both.
  await row.click();
  await expect(messages(h.page).getByText('Hi, are you there?')).toBeVisible();
  await say(h.page, 'Yes, hello!');
  await expect(messages(u.page).getByText('Yes, hello!')).toBeVisible();
  await h.page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(tabBar(h.page).getByRole('link', { name: 'News', exact: true })).toBeVisible();
  await expect(chats(h.page).getByRole('link', { name: new RegExp(`^${user.nickname}, [A-Za-z]+: Yes, hello!$`) }))
    .toBeVisible({ timeout: 10_000 });

  // The user had the talk open: the reply was read there, so nothing is unread on that side.
  await u.page.goto('/newsRestricted');
  await expect(chats(u.page).getByRole('link', { name: new RegExp(`: Yes, hello!$`) })).toBeVisible({ timeout: 10_000 });
  await expect(tabBar(u.page).getByRole('link', { name: 'News', exact: true })).toBeVisible();
  expect(problems).toEqual([]);
  await h.context.close();
  await u.context.close();
});

test('a VIP pins five chats, pinned first, and a sixth is refused; a member who is not VIP cannot pin', async ({ browser, request }) => {
  test.setTimeout(60_000);
  const vip = await firstAccount(request, 1, (a) => a.isVip);
  const plain = await firstAccount(request, 1, (a) => !a.isVip);
  const hosts = (await accounts(request)).filter((a) => a.userType === 2).slice(-6);
  const v = await phoneOf(browser);
  await openAppAs(v.page, request, vip.userId, '/newsRestricted');
  for (const host of hosts) {
    await talkTo(v.page, host);
    await say(v.page, `Hello ${host.nickname}`);
    // Sent (acknowledged), not only no longer sending: the next page load would drop a text not yet taken.
    await expect(messages(v.page).locator('[data-status="sent"]').filter({ hasText: `Hello ${host.nickname}` })).toHaveCount(1);
  }
  await v.page.goto('/newsRestricted');
  await expect(chats(v.page)).toHaveAttribute('data-count', '6', { timeout: 10_000 });

  // Pin the five oldest chats, one by one; each goes to the top.
  for (const host of hosts.slice(0, 5)) {
    await v.page.getByRole('button', { name: `Pin chat with ${host.nickname}` }).click();
    await expect(v.page.getByRole('button', { name: `Unpin chat with ${host.nickname}` })).toBeVisible();
    await expect(chats(v.page).getByRole('listitem').first()).toContainText(host.nickname);
  }
  await v.page.getByRole('button', { name: `Pin chat with ${hosts[5]!.nickname}` }).click();
  await expect(v.page.getByText(TEXT_PIN_LIMIT)).toBeVisible();
  await expect(v.page.getByRole('button', { name: /^Unpin chat/ })).toHaveCount(5);
  await expect(chats(v.page).getByRole('listitem').last()).toContainText(hosts[5]!.nickname);

  // Pins are kept across a reload.
  await v.page.reload();
  await expect(v.page.getByRole('button', { name: /^Unpin chat/ })).toHaveCount(5, { timeout: 10_000 });
  await v.context.close();

  const p = await phoneOf(browser);
  await openAppAs(p.page, request, plain.userId, `/talk?to=${hosts[0]!.yxAccid}&taPath=e2e`);
  await say(p.page, 'Hi');
  await expect(messages(p.page)).toHaveAttribute('data-sending', '0');
  await p.page.goto('/newsRestricted');
  await p.page.getByRole('button', { name: `Pin chat with ${hosts[0]!.nickname}` }).click();
  await expect(p.page.getByText(TEXT_PIN_VIP_ONLY)).toBeVisible();
  await expect(p.page.getByRole('button', { name: /^Unpin chat/ })).toHaveCount(0);
  await p.context.close();
});

test('markup in a message is shown as text and runs nothing; an oversize text is refused with a reason and kept', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  const problems = [...watchPage(h.page), ...watchPage(u.page)];
  const dialogs: string[] = [];
  h.page.on('dialog', (d) => { dialogs.push(d.message()); void d.dismiss(); });

  await openAppAs(h.page, request, host.userId, `/talk?to=${user.yxAccid}&taPath=e2e`);
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  const markup = '<img src=x onerror=alert(1)><script>alert(2)</script>';
  await say(u.page, markup);
  await expect(messages(h.page).getByText(markup, { exact: true })).toBeVisible();
  await expect(h.page.locator('img[src="x"], .talk-list script')).toHaveCount(0);

  const huge = 'x'.repeat(64 * 1024);
  const box = u.page.getByRole('textbox', { name: 'Message' });
  await box.fill(huge);
  await expect(u.page.getByRole('alert')).toHaveText(`${TEXT_TOO_LONG} (${huge.length}/${MAX_TEXT})`);
  await expect(u.page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await box.press('Enter');
  expect(await box.inputValue()).toHaveLength(huge.length);
  await expect(messages(u.page)).toHaveAttribute('data-count', '1');

  expect(dialogs).toEqual([]);
  expect(problems).toEqual([]);
  await h.context.close();
  await u.context.close();
});

test("a peer's text is translated into the reader's language on request", async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const h = await phoneOf(browser);
  const uContext = await browser.newContext({ viewport: { width: 360, height: 640 }, locale: 'es-ES' });
  const uPage = await uContext.newPage();
  await openAppAs(uPage, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  await openAppAs(h.page, request, host.userId, `/talk?to=${user.yxAccid}&taPath=e2e`);
  await say(h.page, 'hello');
  const bubble = messages(uPage).getByRole('listitem').filter({ hasText: 'hello' });
  await bubble.getByRole('button', { name: 'Translate' }).click();
  await expect(bubble.locator('[lang="es"]')).toHaveText('hola');
  await h.context.close();
  await uContext.close();
});

test("a peer lookup that fails is tried again: the host's name and call button come without reopening the chat", async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const u = await phoneOf(browser);
  let failing = true;
  let refused = 0;
  await u.page.route('**/api/anchor/batchQueryYxStat', async (route) => {
    if (!failing) return route.continue();
    refused++;
    return route.abort('connectionreset');
  });
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  await expect.poll(() => refused, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  const call = u.page.getByRole('button', { name: `Video call ${host.nickname}` });
  await expect(call).toHaveCount(0);
  failing = false;
  await expect(call).toBeVisible({ timeout: 10_000 });
  await u.context.close();
});

test('blocking a peer makes their messages refused (7101) until unblocked', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  await openAppAs(h.page, request, host.userId, `/talk?to=${user.yxAccid}&taPath=e2e`);
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  await expect(h.page.getByText(user.nickname, { exact: true })).toBeVisible();

  await h.page.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(h.page.getByRole('button', { name: 'Unblock' })).toBeVisible();
  await say(u.page, 'Can you hear me?');
  await expect(messages(u.page)).toHaveAttribute('data-failed', '1');
  await expect(u.page.locator('[data-status="refused"]')).toBeVisible();

  await h.page.getByRole('button', { name: 'Unblock' }).click();
  await expect(h.page.getByRole('button', { name: 'Block', exact: true })).toBeVisible();
  await say(u.page, 'And now?');
  await expect(messages(h.page).getByText('And now?')).toBeVisible();
  await expect(messages(h.page).getByText('Can you hear me?')).toHaveCount(0);
  await h.context.close();
  await u.context.close();
});

test('a host sends a secret message; its reader is shown the price and the balance, cancels, then unlocks it; one without diamonds is told so and pays nothing', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  // Seeded users at level 1 start with 200 diamonds, at level 3 with none.
  const rich = await firstAccount(request, 1, (a) => a.userLevel === 1);
  const poor = await firstAccount(request, 1, (a) => a.userLevel === 3);
  const h = await phoneOf(browser);
  const r = await phoneOf(browser);
  const p = await phoneOf(browser);

  for (const [reader, page] of [[rich, r.page], [poor, p.page]] as const) {
    await openAppAs(h.page, request, host.userId, `/talk?to=${reader.yxAccid}&taPath=e2e`);
    // As a person would: the chat is there (so the IM is logged in) before anything is sent.
    await expect(messages(h.page)).toHaveAttribute('data-history', 'loaded');
    await h.page.getByRole('button', { name: 'Secret message' }).click();
    const form = h.page.getByRole('form', { name: 'Secret message' });
    await form.getByLabel('Secret text').fill(`Just for you, ${reader.nickname}`);
    await form.getByLabel('Price (diamonds)').fill('20');
    await form.getByRole('button', { name: 'Send secret message' }).click();
    await expect(messages(h.page)).toHaveAttribute('data-sending', '0');
    await expect(messages(h.page)).toHaveAttribute('data-failed', '0');
    await expect(messages(h.page).getByText('Secret message · 20 diamonds')).toBeVisible();
    await openAppAs(page, request, reader.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
    await expect(messages(page).getByText('[Secret Message]')).toBeVisible();
    await expect(messages(page).getByText(`Just for you`)).toHaveCount(0);
  }

  // Unlock asks first, with the price and the balance; Cancel pays nothing.
  const unlock = messages(r.page).getByRole('button', { name: 'Unlock for 20 diamonds' });
  const ask = r.page.getByRole('dialog', { name: 'Unlock this secret message?' });
  await unlock.click();
  await expect(ask.getByTestId('unlock-price')).toHaveText('Price: 20 diamonds');
  await expect(ask.getByTestId('unlock-balance')).toHaveText('Your balance: 200 diamonds');
  await r.page.screenshot({ path: test.info().outputPath('unlock-ask-360.png') });
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(messages(r.page).getByText('Just for you')).toHaveCount(0);
  await unlock.click();
  await expect(ask.getByTestId('unlock-balance')).toHaveText('Your balance: 200 diamonds');
  await ask.getByRole('button', { name: 'Unlock for 20 diamonds' }).click();
  await expect(messages(r.page).getByText(`Just for you, ${rich.nickname}`)).toBeVisible();

  // Too few diamonds: the dialog says so and offers no Unlock, but a Recharge.
  await messages(p.page).getByRole('button', { name: 'Unlock for 20 diamonds' }).click();
  const short = p.page.getByRole('dialog', { name: 'Unlock this secret message?' });
  await expect(short.getByTestId('unlock-balance')).toHaveText('Your balance: 0 diamonds');
  await expect(short.getByRole('alert')).toHaveText('You do not have enough diamonds.');
  await expect(short.getByRole('button', { name: /Unlock/ })).toHaveCount(0);
  // It offers the recharge instead (SPEC §4 Recharge), which leaves the secret locked.
  await expect(short.getByRole('link', { name: 'Recharge' })).toHaveAttribute('href', '/wallet');
  await short.getByRole('button', { name: 'Close' }).click();
  await expect(short).toBeHidden();
  await expect(messages(p.page).getByText('Just for you')).toHaveCount(0);
  await messages(p.page).getByRole('button', { name: 'Unlock for 20 diamonds' }).click();
  await short.getByRole('link', { name: 'Recharge' }).click();
  await expect(p.page.getByRole('heading', { name: 'Wallet' })).toBeVisible();
  await expect(p.page.getByTestId('wallet-diamonds')).toHaveText('0');
  for (const c of [h, r, p]) await c.context.close();
});

test('a chat whose code cannot be fetched says so, keeps what was typed, and opens on Retry', async ({ browser, request }) => {
  const all = await accounts(request);
  const user = all.filter((a) => a.userType === 1).at(-3)!;
  const host = all.filter((a) => a.userType === 2).at(-3)!;
  const { page } = await phoneOf(browser);
  // The chat's code (the session's per-use chunk) cannot be fetched, as when the network drops at that moment.
  let blocked = true;
  await page.route(/per-use[^/]*\.js/, (route) => (blocked ? route.abort('internetdisconnected') : route.continue()));
  await openAppAs(page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  await expect(page.getByRole('alert')).toHaveText(TEXT_TALK_NOT_LOADED, { timeout: 15_000 });
  await page.getByRole('textbox', { name: 'Message' }).fill('kept for later');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  blocked = false;
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(messages(page)).toHaveAttribute('data-history', 'loaded');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(messages(page).locator('[data-status="sent"]')).toHaveText('kept for later');
});
