/**
 * Profiles, following and blocking against the real reference server and hub (SPEC §2
 * /userProfile, /profile, /followList; §4 system message -4 "increments follower count").
 */
import { expect, test } from '@playwright/test';
import type { Browser, Page } from '@playwright/test';
import { deflateSync } from 'node:zlib';
import { firstAccount, openAppAs, watchPage } from './support';

async function phone(browser: Browser) {
  const context = await browser.newContext({ viewport: { width: 360, height: 640 } });
  return { context, page: await context.newPage() };
}

const followers = (page: Page) => page.getByTestId('follow-counts').getByRole('link', { name: /followers$/ });
const countOf = async (page: Page) => Number((await followers(page).getAttribute('aria-label'))?.split(' ')[0]);

/** A 1×1 PNG (the server checks a file's first bytes against its type). */
function png(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from([0, 255, 79, 123]))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('a host follows another from its profile: the follower count rises live on Mine, and /followList lists the host', async ({ browser, request }) => {
  // Seeded hosts follow the next two: taking the star first, the fan (next) does not follow it yet.
  const [star, fan] = [await firstAccount(request, 2), await firstAccount(request, 2)];
  const f = await phone(browser);
  const s = await phone(browser);
  const problems = [...watchPage(f.page), ...watchPage(s.page)];

  // The followed host watches its own Mine page.
  await openAppAs(s.page, request, star.userId, '/mine');

  await openAppAs(f.page, request, fan.userId, `/userProfile?userId=${star.userId}`);
  const profile = f.page.getByRole('article', { name: star.nickname });
  await expect(profile).toBeVisible();
  await expect(profile.getByRole('link', { name: 'Chat' })).toHaveAttribute('href', `/talk?to=${star.yxAccid}&taPath=profile`);
  // A host does not call a host.
  await expect(profile.getByRole('button', { name: 'Call' })).toHaveCount(0);
  const follow = profile.getByRole('button', { name: 'Follow', exact: true });
  const unfollow = profile.getByRole('button', { name: 'Unfollow', exact: true });
  await expect(follow.or(unfollow)).toBeVisible();
  // Whatever the seed or an earlier run did, start from not following.
  if (await unfollow.isVisible()) {
    await unfollow.click();
    await expect(follow).toBeVisible();
  }
  await expect(followers(s.page)).toHaveAccessibleName(/^\d+ followers$/);
  await s.page.reload();
  await expect(followers(s.page)).toHaveAccessibleName(/^\d+ followers$/);
  const before = await countOf(s.page);
  await follow.click();
  await expect(unfollow).toHaveAttribute('aria-pressed', 'true');
  await expect(profile.getByTestId('profile-counts')).toContainText(`${before + 1} followers`);

  // SPEC §4 -4: the followed host's count goes up without a reload.
  await expect(followers(s.page)).toHaveAccessibleName(`${before + 1} followers`, { timeout: 10_000 });

  // The newest follow is first on the fan's Following list.
  await f.page.goto('/followList');
  const following = f.page.getByRole('list', { name: 'Following' });
  await expect(following.getByRole('link').first()).toContainText(star.nickname);

  // Unfollowing takes it off again.
  await f.page.goto(`/userProfile?userId=${star.userId}`);
  await f.page.getByRole('button', { name: 'Unfollow', exact: true }).click();
  await expect(f.page.getByRole('button', { name: 'Follow', exact: true })).toHaveAttribute('aria-pressed', 'false');
  await f.page.goto('/followList');
  await expect(f.page.getByRole('list', { name: 'Following' }).getByRole('link', { name: new RegExp(`^${star.nickname}\\b`) }))
    .toHaveCount(0);
  expect(problems).toEqual([]);
  await f.context.close();
  await s.context.close();
});

test('a host blocks and unblocks another from its profile; the block holds across a reload', async ({ page, request }) => {
  const [me, other] = [await firstAccount(request, 2), await firstAccount(request, 2)];
  await openAppAs(page, request, me.userId, `/userProfile?userId=${other.userId}`);
  await page.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unblock', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('status').filter({ hasText: `You blocked ${other.nickname}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Unblock', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Unblock', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Block', exact: true })).toHaveAttribute('aria-pressed', 'false');
  await page.reload();
  await expect(page.getByRole('button', { name: 'Block', exact: true })).toBeVisible();
});

test('a user sees a host\'s photos and videos with Follow, Chat and Call; an unknown person is said so', async ({ page, request }) => {
  const [user, host] = [await firstAccount(request, 1), await firstAccount(request, 2)];
  await openAppAs(page, request, user.userId, `/userProfile?userId=${host.userId}`);
  const profile = page.getByRole('article', { name: host.nickname });
  const media = profile.getByRole('list', { name: `Photos and videos of ${host.nickname}` });
  await expect(media.getByRole('img', { name: 'Photo 1' })).toBeVisible();
  await expect(media.locator('[data-media-type="2"]')).toHaveCount(1);
  // Seeded users follow a few hosts: this one may already be followed.
  for (const name of [/^(Follow|Unfollow)$/, /^Call$/, /^(Block|Unblock)$/]) await expect(profile.getByRole('button', { name })).toBeVisible();
  // 360 px wide: nothing sticks out sideways; every control is a 44 px target.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  const small = await profile.evaluate((el) => [...el.querySelectorAll<HTMLElement>('a, button')]
    .map((b) => b.getBoundingClientRect()).filter((r) => r.height < 44 || r.width < 44).length);
  expect(small).toBe(0);

  await page.goto('/userProfile?userId=999999');
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
});

test('a host edits its nickname and adds a photo with upload progress; Mine follows, and the photo can be removed', async ({ page, request }) => {
  const host = await firstAccount(request, 2);
  const problems = watchPage(page);
  await openAppAs(page, request, host.userId, '/profile');
  const media = page.getByRole('list', { name: 'Photos and videos of you' });
  await expect(media).toBeVisible();
  const before = await media.getByRole('listitem').count();

  const nickname = `Nova ${Date.now() % 10_000}`;
  await page.getByLabel('Nickname').fill(`  ${nickname}  `);
  await page.getByRole('button', { name: 'Save nickname' }).click();
  await expect(page.getByRole('button', { name: 'Save nickname' })).toBeDisabled();
  // Saved, and told so (the field reads the same before and after).
  await expect(page.getByText('Nickname saved.')).toBeVisible();
  // One change at a time: the pickers are off while the nickname saves (a file set on a disabled
  // input would reach nothing, as for a person who cannot pick one then).
  await expect(page.getByLabel('Add photo or video')).toBeEnabled();

  // A slow uplink shows the progress: a picture of some 400 KB (a PNG with trailing bytes) at 200 KB/s.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 200 * 1024 });
  await page.getByLabel('Add photo or video').setInputFiles({
    name: 'dot.png', mimeType: 'image/png', buffer: Buffer.concat([png(), Buffer.alloc(400 * 1024)]),
  });
  const progress = page.getByRole('progressbar', { name: 'Upload progress' });
  await expect(progress).toBeVisible();
  await expect.poll(async () => Number(await progress.getAttribute('value')), { timeout: 5000 }).toBeGreaterThan(0);
  await expect(progress).toHaveCount(0, { timeout: 15_000 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(media.getByRole('listitem')).toHaveCount(before + 1);
  await expect(media.getByRole('img', { name: `Photo ${before}` })).toHaveAttribute('src', /^\/media\/[a-f0-9]{32}\.png$/);
  // A file of the wrong kind is refused before it is sent.
  await page.getByLabel('Add photo or video').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByRole('alert')).toContainText('Only PNG, JPEG, GIF or WebP pictures');

  await page.goto('/mine');
  await expect(page.getByTestId('profile-card')).toContainText(nickname);
  await page.goto('/profile');
  await page.getByRole('button', { name: `Remove photo ${before}` }).click();
  await expect(page.getByRole('list', { name: 'Photos and videos of you' }).getByRole('listitem')).toHaveCount(before);
  expect(problems).toEqual([]);
});
