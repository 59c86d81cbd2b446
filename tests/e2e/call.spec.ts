/**
 * One-to-one calls through the UI, in two browser contexts with fake camera and microphone
 * (SPEC §2 host overlays and call screens, §4 Call status, §7 calls, billing by the server).
 */
import { expect, test } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';
import { createAesCodec } from '../../src/api/codec';
import { APP_VERSION, DEV_AES_IV, DEV_AES_KEY, Header } from '../../src/api/codes';
import { COUNTRY_LANGUAGE, DEFAULT_LANGUAGE } from '../../server/api/call-translation';
import { translateByStandIn } from '../../server/api/translator';
import { VIDEO_LOCK, callScreen, decoded, firstAccount, openAppAs, openParams, phoneOf, present } from './support';
import type { Account } from './support';

// Video flows in every test here: one such test at a time (VIDEO_LOCK).
test.describe.configure({ lock: VIDEO_LOCK });


const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);

/** The newest of a person's call records as the server tells them (a session of their own, as the shell opens one). */
async function newestRecord(request: APIRequestContext, userId: number): Promise<Record<string, unknown>> {
  const token = (await openParams(request, userId)).token!;
  const response = await request.post('/api/call/record/list', {
    headers: {
      'content-type': 'text/plain;charset=utf-8', [Header.loginToken]: token, [Header.anchorToken]: token,
      [Header.appId]: 'web', [Header.appVersion]: APP_VERSION,
    },
    data: codec.encrypt(JSON.stringify({ currentPage: 1, pageSize: 1 })),
  });
  return (JSON.parse(codec.decrypt(await response.text())) as { data: { list: Record<string, unknown>[] } }).data.list[0]!;
}

/** The language a person reads, as the server takes it (their country's; server/api/call-translation.ts). */
const languageOf = (a: Account) => (a.countryCode !== null ? COUNTRY_LANGUAGE[a.countryCode] : undefined) ?? DEFAULT_LANGUAGE;

test('a user calls a host from the chat; the host accepts; both see each other; billing reaches the host; a chat line reaches her translated; the user hangs up (the record says so) and rates', async ({ browser, request }) => {
  test.setTimeout(60_000);
  // Seeded hosts 1, 7, 13, … charge 30 diamonds a minute (a period here is 2 s); level-0 users start with 1000
  // diamonds (not VIPs): 33 periods, so the call outlasts the test on a slow machine (a VIP's 200 diamonds can run out within 16 s there, and ended the call under the test on a slow machine).
  // The host reads a language the translator stand-in's phrase-book knows, and not the user's.
  const user = await firstAccount(request, 1, (a) => a.userLevel === 0, { levelZero: true });
  const host = await firstAccount(request, 2, (a) => (a.userId - 100_001) % 6 === 0
    && ['es', 'pt', 'fr', 'id'].includes(languageOf(a)) && languageOf(a) !== languageOf(user));
  const h = await phoneOf(browser);
  const u = await phoneOf(browser);
  const hostHere = present(h.page);
  await openAppAs(h.page, request, host.userId);
  await expect(h.page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await hostHere;
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);

  await u.page.getByRole('button', { name: `Video call ${host.nickname}` }).click();
  await expect(callScreen(u.page)).toHaveAttribute('data-phase', 'dialling');
  await expect(callScreen(h.page)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  // The waiting-call screen names the caller as the server knows them, not by IM account.
  await expect(callScreen(h.page).getByRole('heading', { name: user.nickname })).toBeVisible();
  await callScreen(h.page).getByRole('button', { name: 'Accept' }).click();

  await expect(callScreen(h.page)).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
  await expect(callScreen(u.page)).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
  for (const page of [h.page, u.page]) {
    const remote = await decoded(callScreen(page).getByLabel('Their video'));
    expect(remote.frames).toBeGreaterThanOrEqual(3);
    expect(remote.width).toBeGreaterThan(0);
  }
  // The server bills per period and tells the host (attachType 15).
  await expect(callScreen(h.page).getByTestId('call-income')).not.toHaveText('Call income 0', { timeout: 10_000 });
  // SPEC §4 -1: the user's line reaches the host, who reads another language, translated too (the server sends it).
  await callScreen(u.page).getByPlaceholder('Say hi...').fill('Hello friend');
  await callScreen(u.page).getByRole('button', { name: 'Send', exact: true }).click();
  const hostChat = callScreen(h.page).getByRole('list', { name: 'Chat' });
  await expect(hostChat).toContainText('Hello friend');
  await expect(hostChat.getByRole('listitem').filter({ hasText: 'Translated' })).toContainText(translateByStandIn('Hello friend', languageOf(host)));

  // SPEC §4: the one who taps End call ended it, though the host's app reports the end (reason 2) before the
  // user's own report arrives (held back here, as a slow network would).
  await u.page.route('**/api/call/record/v2/endCall', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 700));
    await route.continue();
  });
  await callScreen(u.page).getByRole('button', { name: 'End call' }).click();
  const ended = u.page.getByRole('dialog', { name: 'Call ended' });
  await expect(ended).toBeVisible();
  await expect(h.page.getByRole('dialog', { name: 'Call ended' })).toBeVisible({ timeout: 10_000 });
  expect(await newestRecord(request, user.userId)).toMatchObject({ endCause: 'hangup', hangupReason: 1 });
  expect(await newestRecord(request, host.userId)).toMatchObject({ endCause: 'hangup', hangupReason: 2 });
  await ended.getByRole('button', { name: '4 stars' }).click();
  const rated = u.page.waitForResponse((r) => r.url().endsWith('/api/chat/callRate'));
  await ended.getByRole('button', { name: 'Send rating' }).click();
  expect((await rated).ok()).toBe(true);
  await expect(ended.getByText('Thank you for rating.')).toBeVisible();
  await h.context.close();
  await u.context.close();
});

test('camera and microphone allowed already: the host is rung before the camera opens; a camera that then cannot be read ends the call with §3\'s text, and her ring stops', async ({ browser, request }) => {
  test.setTimeout(60_000);
  const host = await firstAccount(request, 2);
  const user = await firstAccount(request, 1, (a) => a.userLevel === 1);
  const h = await phoneOf(browser);
  const context = await browser.newContext({ viewport: { width: 360, height: 640 }, permissions: ['camera', 'microphone'] });
  // The camera is allowed but does not open until the test says, and then cannot be read (in use elsewhere).
  await context.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => new Promise((_, reject) => {
      (window as unknown as { failCamera: () => void }).failCamera = () => reject(new DOMException('Could not start video source', 'NotReadableError'));
    });
  });
  const u = { context, page: await context.newPage() };
  // Home shows before the host's presence is up; the call waits for her to be here (else she is 'not available').
  const hostHere = present(h.page);
  await openAppAs(h.page, request, host.userId);
  await expect(h.page.getByRole('heading', { name: 'Home' })).toBeVisible();
  await hostHere;
  await openAppAs(u.page, request, user.userId, `/talk?to=${host.yxAccid}&taPath=e2e`);
  await expect(u.page.getByRole('button', { name: `Video call ${host.nickname}` })).toBeVisible();
  // The chat warms the call's media adapter when idle; it tells whether the camera is allowed once loaded.
  await u.page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('rtc.local')));

  await u.page.getByRole('button', { name: `Video call ${host.nickname}` }).click();
  await expect(callScreen(h.page)).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  await u.page.evaluate(() => (window as unknown as { failCamera: () => void }).failCamera());

  const ended = u.page.getByRole('dialog', { name: 'Call ended' });
  await expect(ended).toBeVisible();
  await expect(ended).toContainText('No camera or microphone was found.');
  // Her ring stops: the caller's cancel reaches her, and she sees the call ended.
  await expect(h.page.getByRole('dialog', { name: 'Call ended' })).toBeVisible({ timeout: 10_000 });
  await expect(h.page.locator('[data-phase="ringing"]')).toHaveCount(0);
  await h.context.close();
  await u.context.close();
});
