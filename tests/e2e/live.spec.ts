/**
 * Live rooms end to end (SPEC §2 /liveSetting, /liveRoom, /liveEnds; §3 Live info and chat
 * records; §4 Live state, viewing front status, gag; §6 highlights; §7 Calls and live) in three
 * browser contexts with the fake camera: a host and two viewers on their own reference server
 * (a 10 s heartbeat window, 2 s billing periods), through the app's screens only.
 *
 * Viewer A is a level-0 user with 1000 diamonds (no entering-room highlight: SPEC §6 shows them
 * for userLevel above 0); viewer B is level 1 with 200 diamonds (enough for a short private call).
 */
import { expect, request as playwrightRequest, test } from '@playwright/test';
import type { APIRequestContext, Browser } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { serverProcess } from './server-process';
import type { ServerProcess } from './server-process';
import { VIDEO_LOCK, accounts } from './support';
import type { Account } from './support';
import { FRONT, HEARTBEAT_WINDOW_MS, chatLines, decoded, endLive, goLive, person as openPerson, room, say } from './live-support';

// Video flows in every test here: one such test at a time (VIDEO_LOCK).
test.describe.configure({ lock: VIDEO_LOCK });

let server: ServerProcess;
let api: APIRequestContext;

test.beforeAll(async () => {
  // A server of its own per parallel slot (a stable index, unlike the worker's, which grows when a worker restarts).
  const slot = test.info().parallelIndex;
  test.setTimeout(90_000);
  server = serverProcess(Number(new URL(baseURL).port) + 40 + slot, `live-${slot}`, {
    SEED_HOSTS: '3', SEED_USERS: '4', LIVE_HEARTBEAT_WINDOW_MS: String(HEARTBEAT_WINDOW_MS), CALL_BILLING_PERIOD_MS: '2000',
  });
  await server.start();
  api = await playwrightRequest.newContext({ baseURL: server.baseURL });
});

test.afterAll(async () => {
  await api?.dispose();
  await server?.kill();
});

const person = (browser: Browser, account: Account, path: string) => openPerson(browser, api, server.baseURL, account, path);

test('a host goes live; two viewers watch, chat, see a highlight and gifts in order, one is gagged and ungagged, one calls the host privately; the host ends the live', async ({ browser }) => {
  // The longest flow (three people, ~40 s alone): a loaded CI run took it past 150 s.
  test.setTimeout(300_000);
  const all = await accounts(api);
  const hostAccount = all.find((a) => a.userType === 2 && a.userLevel > 0)!;
  const users = all.filter((a) => a.userType === 1);
  const aAccount = users.find((a) => a.userLevel === 0)!;
  const bAccount = users.find((a) => a.userLevel === 1)!;

  const host = await person(browser, hostAccount, '/liveSetting');
  await goLive(host.page, 'Evening chat', 2);
  // The host's own camera is on air.
  expect((await decoded(room(host.page).locator('video'))).frames).toBeGreaterThanOrEqual(1);

  // Viewers open the room as a link to it does (/liveRoom?anchorId=…).
  const a = await person(browser, aAccount, `/liveRoom?anchorId=${hostAccount.userId}`);
  await expect(room(a.page)).toHaveAttribute('data-front-status', FRONT.live, { timeout: 15_000 });
  const aVideo = await decoded(room(a.page).locator('video'));
  expect(aVideo.frames, 'A decodes the host').toBeGreaterThanOrEqual(3);
  expect(aVideo.width).toBe(1280);

  // Viewer B enters: a level-1 member's entering highlight shows to those inside (SPEC §6). It shows
  // for 2 s, so A watches for it from before B opens the room (B's own checks may take longer).
  const highlight = a.page.getByTestId('enter-highlight').filter({ hasText: bAccount.nickname }).waitFor({ state: 'visible', timeout: 30_000 });
  highlight.catch(() => undefined);
  const b = await person(browser, bAccount, `/liveRoom?anchorId=${hostAccount.userId}`);
  await expect(room(b.page)).toHaveAttribute('data-front-status', FRONT.live, { timeout: 15_000 });
  expect((await decoded(room(b.page).locator('video'))).frames, 'B decodes the host').toBeGreaterThanOrEqual(3);
  await highlight;
  await expect(host.page.getByTestId('join-num')).toHaveText(/2/);

  // Chat both ways.
  await say(a.page, 'hello from A');
  await say(host.page, 'welcome all');
  for (const p of [host.page, b.page]) await expect(chatLines(p).filter({ hasText: 'hello from A' })).toBeVisible();
  for (const p of [a.page, b.page]) await expect(chatLines(p).filter({ hasText: 'welcome all' })).toBeVisible();

  // A sends two roses: the gift plays on every screen and completes the wish.
  await a.page.getByRole('button', { name: /Gift/ }).click();
  const popup = a.page.getByRole('dialog', { name: 'Popular' });
  await popup.getByRole('button', { name: 'Rose, 1 diamonds' }).click();
  await popup.getByRole('button', { name: 'More' }).click();
  await popup.getByRole('button', { name: 'Sure' }).click();
  // Its status reads the gift alone (the close button beside it is a labelled button of its own).
  await Promise.all([host.page, a.page, b.page].map((p) => expect(p.getByRole('status').filter({ hasText: 'sent Rose' }))
    .toHaveText(`${aAccount.nickname} sent Rose ×2`, { timeout: 10_000 })));
  await expect(a.page.getByTestId('gift-card').getByRole('button', { name: 'Dismiss gift' })).toBeVisible();
  for (const p of [host.page, a.page, b.page]) {
    await expect(chatLines(p).filter({ hasText: /Rose|×\s*2/ }).first()).toBeVisible({ timeout: 10_000 });
    await expect(p.getByTestId('wish').first()).toHaveAttribute('data-completed', 'true', { timeout: 10_000 });
  }

  // The host gags A: A cannot send and sees why; B can. Then ungags.
  await host.page.getByRole('button', { name: /Audience, \d+ joined/ }).click();
  await host.page.getByRole('button', { name: `Gag ${aAccount.nickname}` }).click();
  await expect(room(a.page).locator('[data-muted="true"]').first()).toBeVisible({ timeout: 10_000 });
  await expect(a.page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await say(b.page, 'B still talks');
  await expect(chatLines(host.page).filter({ hasText: 'B still talks' })).toBeVisible();
  await host.page.getByRole('button', { name: `Ungag ${aAccount.nickname}` }).click();
  await expect(room(a.page).locator('[data-muted="true"]')).toHaveCount(0, { timeout: 10_000 });
  await host.page.getByRole('dialog', { name: 'Audience' }).getByRole('button', { name: 'Close' }).click();
  await say(a.page, 'A is back');
  await expect(chatLines(b.page).filter({ hasText: 'A is back' })).toBeVisible();

  // The host closes private calls: the viewers' button goes at once; opening them brings it back.
  const hostSwitch = host.page.getByTestId('private-call-switch');
  await hostSwitch.getByRole('switch').click();
  await expect(hostSwitch).toHaveAttribute('data-state', 'off');
  await expect(b.page.getByRole('button', { name: 'Private call' })).toHaveCount(0);
  await hostSwitch.getByRole('switch').click();
  await expect(hostSwitch).toHaveAttribute('data-state', 'on');
  await expect(b.page.getByRole('button', { name: 'Private call' })).toBeVisible();

  // B calls the host privately: A sees calling while the call lasts, then the live again.
  await b.page.getByRole('button', { name: 'Private call' }).click();
  const hostCall = host.page.getByRole('dialog', { name: 'Call' });
  await expect(hostCall).toHaveAttribute('data-phase', 'ringing', { timeout: 10_000 });
  await hostCall.getByRole('button', { name: 'Accept' }).click();
  await expect(b.page.getByRole('dialog', { name: 'Call' })).toHaveAttribute('data-phase', 'connected', { timeout: 15_000 });
  await expect(room(a.page)).toHaveAttribute('data-front-status', FRONT.calling, { timeout: 10_000 });
  await expect(room(host.page)).toHaveAttribute('data-live-state', 'liveCalling');
  await b.page.getByRole('dialog', { name: 'Call' }).getByRole('button', { name: 'End call' }).click();
  await expect(room(a.page)).toHaveAttribute('data-front-status', FRONT.live, { timeout: 15_000 });
  expect((await decoded(room(a.page).locator('video'))).frames, 'A sees the host again').toBeGreaterThanOrEqual(3);
  await expect(room(host.page)).toHaveAttribute('data-live-state', 'living', { timeout: 15_000 });

  // The host ends the live: viewers see the end, the host the figures.
  for (const p of [host.page, b.page]) await p.getByRole('dialog', { name: 'Call ended' }).getByRole('button', { name: 'Close' }).click();
  await endLive(host.page);
  for (const p of [a.page, b.page]) await expect(room(p)).toHaveAttribute('data-front-status', FRONT.liveEnd, { timeout: 10_000 });
  // Two viewers, two roses, 2 diamonds of income (a rose is 1).
  for (const [figure, value] of [['viewers', '2'], ['gifts', '2'], ['income', '2']] as const) {
    await expect(host.page.getByTestId(`live-ends-${figure}`)).toHaveText(value);
  }
  await expect(host.page.getByTestId('live-ends-duration')).toHaveText(/^\d+:\d\d/);

  for (const p of [host, a, b]) await p.context.close();
});

test('a user finds a live host from News → Following, the profile and the chat, and watches; the room ends for them within the heartbeat window once the host vanishes', async ({ browser }) => {
  test.setTimeout(60_000);
  const all = await accounts(api);
  const hostAccount = all.filter((a) => a.userType === 2 && a.userLevel > 0).at(-1)!;
  const viewerAccount = all.filter((a) => a.userType === 1).at(-1)!;
  const host = await person(browser, hostAccount, '/liveSetting');
  await goLive(host.page, 'Short one');
  // The user (who follows the host: seed) finds the host live where they see the host: News → Following,
  // the profile, the chat; each says so with a Live button, and the chat's opens the room.
  const viewer = await person(browser, viewerAccount, '/newsRestricted');
  const watch = viewer.page.getByRole('button', { name: `Watch ${hostAccount.nickname} live` });
  await viewer.page.getByRole('tab', { name: 'Following' }).click();
  const row = viewer.page.getByRole('list', { name: 'Following' }).getByRole('listitem').filter({ hasText: hostAccount.nickname });
  await expect(row.getByRole('button', { name: `Watch ${hostAccount.nickname} live` })).toBeVisible();
  await row.getByRole('link').click();
  await expect(viewer.page.getByText(`${hostAccount.nickname} is live now.`)).toBeVisible();
  await expect(watch).toBeVisible();
  await viewer.page.getByRole('link', { name: 'Chat', exact: true }).click();
  await expect(viewer.page).toHaveURL(/\/talk\?/);
  await watch.click();
  await expect(room(viewer.page)).toHaveAttribute('data-front-status', FRONT.live, { timeout: 15_000 });
  // The host's phone dies: no leave, no end, no more heartbeats.
  const gone = Date.now();
  await host.context.close();
  await expect(room(viewer.page)).toHaveAttribute('data-front-status', FRONT.liveEnd, { timeout: HEARTBEAT_WINDOW_MS + 5_000 });
  expect(Date.now() - gone, 'ended within the window (and a beat)').toBeLessThan(HEARTBEAT_WINDOW_MS + 4000);
  await viewer.context.close();
});
