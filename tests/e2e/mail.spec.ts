/**
 * The mail views of /news against the real reference server (SPEC §2 message/systemMsg and
 * message/stationMsg, §7 /api/sysmail/loadList, §9 paging by 10). The News screen shows them
 * in tabs named 'System messages' and 'Station messages'.
 */
import { expect, test } from '@playwright/test';
import { cutChunk, firstAccount, markPage, openAppAs, watchPage } from './support';

test('a host reads system mail and station messages; the station list pages on scroll', async ({ page, request }) => {
  const problems = watchPage(page);
  const host = await firstAccount(request, 2);
  await openAppAs(page, request, host.userId, '/news');

  await page.getByRole('tab', { name: 'System messages' }).click();
  const system = page.getByRole('list', { name: 'System messages' });
  await expect(system.getByRole('listitem')).toHaveCount(3);
  await expect(system.getByRole('heading').first()).toHaveText('Weekly report');
  await expect(system.getByRole('heading', { name: `Welcome, ${host.nickname}!` })).toBeVisible();
  await expect(page.getByText('No more messages')).toBeVisible();

  await page.getByRole('tab', { name: 'Station messages' }).click();
  const station = page.getByRole('list', { name: 'Station messages' });
  // One page of 10, newest first; the next page comes when the end is scrolled into view.
  await expect(station.getByRole('listitem')).toHaveCount(10);
  await expect(station.getByRole('heading').first()).toHaveText('New: secret messages');
  await expect(station.getByRole('article', { name: 'Community guidelines' }))
    .toContainText('Be kind and respectful. Harassment, nudity and scams lead to a permanent ban.');
  await station.getByRole('listitem').last().scrollIntoViewIfNeeded();
  await expect(station.getByRole('listitem')).toHaveCount(12);
  await expect(station.getByRole('heading').last()).toHaveText('Welcome to the app');
  await expect(page.getByText('No more messages').last()).toBeVisible();
  expect(problems).toEqual([]);
});

test('a mail list whose code cannot be fetched says so, and Retry fetches it without reloading the page', async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  const restore = await cutChunk(page, 'MailList');
  await openAppAs(page, request, host.userId, '/news');
  const kept = await markPage(page);

  await page.getByRole('tab', { name: 'System messages' }).click();
  await expect(page.getByRole('alert')).toHaveText('This list could not be loaded. Check the connection and try again.');
  restore();
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('list', { name: 'System messages' }).getByRole('listitem')).toHaveCount(3);
  expect(await kept()).toBe(true);
});
