/**
 * The live room's media in Chromium (SPEC §2 /liveRoom, §9 Video: 720p, VP9): the local live
 * media adapter (src/adapters/live.local.ts) one-to-many over the reference server's hub,
 * one host and two viewers in three browser contexts with the fake camera. The live room
 * screen does not use it yet, so a harness page (tests/e2e/rtc/live.html) builds the adapter
 * and shows its media view; it is built with Vite before the tests into the e2e server's
 * dist, so it is served from the app's origin (see tests/e2e/rtc/vite.config.ts).
 */
import { expect, test } from '@playwright/test';
import type { APIRequestContext, Browser } from '@playwright/test';
import { buildHarnessPages, liveRoom, openHarness, type Person } from './rtc-harness';
import { VIDEO_LOCK } from './support';

// Video flows in every test here: one such test at a time (VIDEO_LOCK).
test.describe.configure({ lock: VIDEO_LOCK });

const harnessBase = buildHarnessPages('live-harness');

function person(browser: Browser, request: APIRequestContext, userType: 1 | 2): Promise<Person> {
  return openHarness(browser, request, userType, `${harnessBase()}live.html`, (session) => window.liveHarness.start(session));
}

const eventTypes = (p: Person) => p.page.evaluate(() => window.live.events.map((e) => e.type));
/** When the n-th (0-based) firstRemoteFrame came, or null. */
const frameAt = (p: Person, n: number) =>
  p.page.evaluate((i) => window.live.events.filter((e) => e.type === 'firstRemoteFrame')[i]?.at ?? null, n);
/** The viewer's newest peer connection (the one with the host). */
const hostLink = async (p: Person) => (await p.page.evaluate(() => window.live.links())).at(-1)!;

test('[§2 /liveRoom, §9] one host, two viewers: both decode 1280×720 VP9; the host leaving is hostLeft for both, its return hostJoined and video again; a viewer leaving does not disturb the other', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const host = await person(browser, request, 2);
  const viewers = [await person(browser, request, 1), await person(browser, request, 1)] as const;
  const [a, b] = viewers;
  const everyone = [host, a, b];
  // Begun as the app begins it: the relay admits its host as publisher, and viewers, while it is live.
  const room = await liveRoom(request, host);
  const { channelId } = room;
  const watch = (p: Person) => p.page.evaluate(([c, acc]) => window.live.watch(c, acc), [channelId, p.account.yxAccid] as const);
  const publish = () => host.page.evaluate(([c, acc]) => window.live.publish(c, acc), [channelId, host.account.yxAccid] as const);

  // The host goes on the air: its own preview shows.
  expect((await publish()).error).toBeNull();
  expect(await host.page.evaluate(() => window.live.showsOwn())).toBe(true);
  expect(await host.page.evaluate(() => window.live.ownTracks())).toEqual(['audio:live', 'video:live']);

  // Two viewers watch; each decodes the host's video.
  const watchedAt = [await watch(a), await watch(b)];
  for (const [i, viewer] of viewers.entries()) {
    await expect.poll(() => frameAt(viewer, 0), { timeout: 15_000 }).not.toBeNull();
    const ms = (await frameAt(viewer, 0))! - watchedAt[i]!;
    test.info().annotations.push({ type: 'watch → first remote frame (ms)', description: String(ms) });
    console.log(`[live] viewer ${i + 1}: watch → first remote frame ${ms} ms`);
  }
  for (const viewer of viewers) {
    await expect.poll(() => viewer.page.evaluate(() => window.live.remoteVideo()), { timeout: 10_000 }).toEqual({ width: 1280, height: 720, shown: true });
    await expect.poll(async () => (await hostLink(viewer)).framesDecoded).toBeGreaterThan(0);
    expect(await hostLink(viewer)).toMatchObject({ iceServers: 0, received: 'video/VP9', frameWidth: 1280, framesSent: 0 });
    expect(await viewer.page.evaluate(() => window.live.showsOwn())).toBe(false);
    expect(await eventTypes(viewer)).toEqual(['hostJoined', 'firstRemoteFrame']);
  }
  // The host: one connection per viewer, each sending VP9 at 1280 wide, keeping resolution.
  const hostLinks = await host.page.evaluate(() => window.live.links());
  expect(hostLinks).toHaveLength(2);
  for (const link of hostLinks) {
    expect(link).toMatchObject({ state: 'connected', sent: 'video/VP9', degradationPreference: 'maintain-resolution', framesDecoded: 0 });
  }
  expect(await eventTypes(host)).toEqual([]);

  // The host leaves (a private call takes it): both viewers hear hostLeft and show nothing; the camera goes off.
  await host.page.evaluate(() => window.live.leave());
  expect(await host.page.evaluate(() => window.live.ownTracks())).toEqual(['audio:ended', 'video:ended']);
  expect(await host.page.evaluate(() => window.live.showsOwn())).toBe(false);
  for (const viewer of viewers) {
    await expect.poll(() => eventTypes(viewer)).toEqual(['hostJoined', 'firstRemoteFrame', 'hostLeft']);
    expect(await viewer.page.evaluate(() => window.live.remoteVideo().shown)).toBe(false);
  }

  // The host is back: both viewers hear hostJoined and decode video again on a fresh connection.
  const back = await publish();
  expect(back.error).toBeNull();
  for (const [i, viewer] of viewers.entries()) {
    await expect.poll(() => frameAt(viewer, 1), { timeout: 15_000 }).not.toBeNull();
    expect(await eventTypes(viewer)).toEqual(['hostJoined', 'firstRemoteFrame', 'hostLeft', 'hostJoined', 'firstRemoteFrame']);
    console.log(`[live] viewer ${i + 1}: publish again → first remote frame ${(await frameAt(viewer, 1))! - back.at} ms`);
    await expect.poll(() => viewer.page.evaluate(() => window.live.remoteVideo()), { timeout: 10_000 }).toEqual({ width: 1280, height: 720, shown: true });
    await expect.poll(async () => (await hostLink(viewer)).framesDecoded).toBeGreaterThan(0);
  }

  // Viewer A leaves: the host closes A's connection only; B keeps decoding and hears nothing.
  await a.page.evaluate(() => window.live.leave());
  expect(await a.page.evaluate(() => window.live.remoteVideo().shown)).toBe(false);
  const decodedBefore = (await hostLink(b)).framesDecoded;
  await expect.poll(async () => (await host.page.evaluate(() => window.live.links())).map((l) => l.state).slice(-2).sort())
    .toEqual(['closed', 'connected']);
  await expect.poll(async () => (await hostLink(b)).framesDecoded).toBeGreaterThan(decodedBefore + 15);
  expect(await hostLink(b)).toMatchObject({ state: 'connected', frameWidth: 1280 });
  expect(await eventTypes(b)).toEqual(['hostJoined', 'firstRemoteFrame', 'hostLeft', 'hostJoined', 'firstRemoteFrame']);
  expect(await eventTypes(host)).toEqual([]);

  // Everyone leaves, viewer B before the host; leaving again is harmless.
  for (const p of [b, a, host]) {
    await p.page.evaluate(() => window.live.leave());
    await p.page.evaluate(() => window.live.leave());
  }
  expect(await host.page.evaluate(() => window.live.ownTracks())).toEqual(['audio:ended', 'video:ended']);
  expect((await host.page.evaluate(() => window.live.links())).map((l) => l.state)).toEqual(['closed', 'closed', 'closed', 'closed']);
  expect(await eventTypes(b)).toEqual(['hostJoined', 'firstRemoteFrame', 'hostLeft', 'hostJoined', 'firstRemoteFrame']);
  expect(await eventTypes(host)).toEqual([]);
  expect(everyone.flatMap((p) => p.problems)).toEqual([]);
  await room.end();
  for (const p of everyone) await p.context.close();
});
