/**
 * The /news sub-views beside the chats (SPEC §2 follow/list and records/list with status
 * and type tags, §9 record labels), against the real server.
 */
import { expect, test } from '@playwright/test';
import { firstAccount, openAppAs, phoneOf } from './support';

test('a user sees who they follow; a refused call shows as [rejected] video call on both sides', async ({ browser, request }) => {
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1, (a) => a.userLevel === 1);
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  await openAppAs(u.page, request, user.userId, '/newsRestricted');
  await u.page.getByRole('tab', { name: 'Following' }).click();
  // Seeded users follow three hosts each.
  await expect(u.page.getByRole('list', { name: 'Following' }).getByRole('listitem')).toHaveCount(3);

  await openAppAs(h.page, request, host.userId);
  await expect(h.page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await u.page.goto(`/talk?to=${host.yxAccid}&taPath=e2e`);
  await u.page.getByRole('button', { name: `Video call ${host.nickname}` }).click();
  const ring = h.page.getByRole('dialog', { name: 'Call' });
  await expect(ring).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  await ring.getByRole('button', { name: 'Reject' }).click();
  await expect(u.page.getByRole('dialog', { name: 'Call ended' })).toContainText('The other party has refused.');
  await u.page.getByRole('dialog', { name: 'Call ended' }).getByRole('button', { name: 'Close' }).click();
  await h.page.getByRole('dialog', { name: 'Call ended' }).getByRole('button', { name: 'Close' }).click();

  for (const [page, path, peer] of [[u.page, '/newsRestricted', host], [h.page, '/news', user]] as const) {
    await page.goto(path);
    await page.getByRole('tab', { name: 'Call records' }).click();
    const record = page.getByRole('list', { name: 'Call records' }).getByRole('listitem').filter({ hasText: peer.nickname }).first();
    await expect(record.locator('[data-kind="type"]')).toHaveText('Video');
    await expect(record.locator('[data-kind="status"]')).toHaveText('[rejected]');
  }
  await h.context.close();
  await u.context.close();
});
