/**
 * In a connected call, through the UI of both people (SPEC §2 in-call screen and the user's
 * call screen, §4 system messages 4, 16 and 18, §5 in-call chat and the ask cooldown, §6 the
 * price after discount): chat both ways, a gift from the user reaching the host's gift income
 * and gift card, and the host's ask for a gift refused by the user while the ask cools down.
 */
import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { VIDEO_LOCK, accounts, callFromTalk, callScreen, firstAccount, openAppAs, phoneOf } from './support';
import type { Account } from './support';

// Video flows in every test here: one such test at a time (VIDEO_LOCK).
test.describe.configure({ lock: VIDEO_LOCK });


/**
 * A user with 1000 diamonds (seeded level-0 users), so a call billed every 2 s lasts the test:
 * taken from the end of the list, one per worker, which firstAccount (levels above 0) never gives.
 */
async function richUser(request: APIRequestContext): Promise<Account> {
  const rich = (await accounts(request)).filter((a) => a.userType === 1 && a.userLevel === 0).reverse();
  const found = rich[test.info().parallelIndex % 2];
  if (!found) throw new Error('no seeded level-0 users');
  return found;
}

test('in a call: chat both ways, a gift reaches the host, an ask for a gift is refused and cools down', async ({ browser, request }) => {
  test.setTimeout(90_000);
  // Seeded hosts 1, 7, 13, … charge 30 diamonds a minute (a period here is 2 s).
  const host = await firstAccount(request, 2, (a) => (a.userId - 100_001) % 6 === 0);
  const user = await richUser(request);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  await openAppAs(h.page, request, host.userId);
  await expect(h.page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);

  await callFromTalk(u.page, h.page, host);

  // The user sees the price a minute and what is left.
  await expect(callScreen(u.page).getByTestId('call-price')).toContainText('30 diamonds/min');
  await expect(callScreen(u.page).getByTestId('call-balance')).toHaveText(/^Balance \d+ diamonds$/);

  // Chat both ways, trimmed, over IM.
  const stamp = Date.now().toString(36);
  await callScreen(u.page).getByPlaceholder('Say hi...').fill(`  Hello from the user ${stamp}  `);
  await callScreen(u.page).getByRole('button', { name: 'Send', exact: true }).click();
  await expect(callScreen(h.page).getByRole('list', { name: 'Chat' })).toContainText(`Hello from the user ${stamp}`);
  await callScreen(h.page).getByPlaceholder('Say hi...').fill(`Hi from the host ${stamp}`);
  await callScreen(h.page).getByPlaceholder('Say hi...').press('Enter');
  await expect(callScreen(u.page).getByRole('list', { name: 'Chat' })).toContainText(`Hi from the host ${stamp}`);
  // Over 200 characters is refused with a reason, not cut.
  await callScreen(u.page).getByPlaceholder('Say hi...').fill('x'.repeat(201));
  await expect(callScreen(u.page).getByRole('alert')).toContainText('up to 200 characters');
  await expect(callScreen(u.page).getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await callScreen(u.page).getByPlaceholder('Say hi...').fill('');

  // The user sends two roses: the host's gift income rises and the gift card shows.
  await callScreen(u.page).getByRole('button', { name: 'Send a gift' }).click();
  const gifts = callScreen(u.page).getByRole('dialog', { name: 'Popular' });
  await gifts.getByRole('button', { name: 'Rose, 1 diamonds' }).click();
  await gifts.getByRole('button', { name: 'More' }).click();
  await expect(gifts.getByLabel('Quantity')).toHaveValue('2');
  await gifts.getByRole('button', { name: 'Sure' }).click();
  await expect(callScreen(u.page).getByText('Gift sent')).toBeVisible();
  await expect(callScreen(h.page).getByTestId('gift-income')).toHaveText('Gift income 2', { timeout: 10_000 });
  await expect(callScreen(h.page).getByTestId('gift-card')).toContainText('sent Rose ×2');

  // The host asks for a heart; the ask cools down; the user refuses; the host is told.
  await callScreen(h.page).getByRole('button', { name: 'Ask for a gift' }).click();
  const askFor = callScreen(h.page).getByRole('dialog', { name: 'Popular' });
  await askFor.getByRole('button', { name: 'Heart, 5 diamonds' }).click();
  await askFor.getByRole('button', { name: 'Sure' }).click();
  const askButton = callScreen(h.page).getByRole('button', { name: 'Ask for a gift' });
  await expect(askButton).toBeDisabled();
  await expect(callScreen(h.page).getByRole('timer', { name: 'Ask again in' })).toHaveText(/^Again in (1[0-5]|[1-9]) s$/);
  const ask = callScreen(u.page).getByRole('region', { name: 'Gift request' });
  await expect(ask).toContainText('asks for a Heart');
  await ask.getByRole('button', { name: 'Refuse' }).click();
  await expect(ask).toBeHidden();
  await expect(callScreen(h.page).getByText('Asking for a gift was refused')).toBeVisible({ timeout: 10_000 });
  await expect(askButton).toBeDisabled();
  // The countdown ends and the button comes back.
  await expect(askButton).toBeEnabled({ timeout: 17_000 });

  await callScreen(u.page).getByRole('button', { name: 'End call' }).click();
  await expect(u.page.getByRole('dialog', { name: 'Call ended' })).toBeVisible();
  await expect(h.page.getByRole('dialog', { name: 'Call ended' })).toBeVisible({ timeout: 10_000 });
  await h.context.close();
  await u.context.close();
});
