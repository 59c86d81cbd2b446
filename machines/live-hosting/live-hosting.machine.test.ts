/**
 * Hosting a live room (SPEC §4 Live state, §8 beauty failure code 99, §9 heartbeat 10 s and
 * live call warning 300 s): timings on a simulated clock over manual fakes, the guards, and a
 * live end to end with a viewer over the in-memory live service, media channels and chat rooms.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { FakeChatroomNetwork, FakeChatroomPort } from '../ports/chatroom.fake';
import type { GiftApiPort } from '../ports/gift.port';
import { FakeLiveApi, FakeLiveMedia, FakeLiveMediaNetwork, FakeLiveNetwork } from '../ports/live.fake';
import type { LiveRoom } from '../ports/live.port';
import { flush } from '../testing/paths';
import { composeLiveViewing } from '../live-viewing/live-viewing.actors';
import { LiveFrontStatus } from '../live-viewing/live-viewing.machine';
import { frontStatusOf } from '../live-viewing/live-viewing.selectors';
import { composeLiveHosting } from './live-hosting.actors';
import {
  HEARTBEAT_MAX_FAILURES, HEARTBEAT_MS, LIVE_CALL_WARNING_MS, LIVE_ENDS_PATH, LiveEndCode, LiveState, MIN_HEARTBEAT_MS,
  TEXT_LIVE_CALL_WARNING,
} from './live-hosting.machine';
import type { LiveHostingEmitted, LiveSummary } from './live-hosting.machine';
import { liveEndsViewOf, liveHostingViewOf, liveStateOf, selectHostingChat } from './live-hosting.selectors';

const room = (over: Partial<LiveRoom> = {}): LiveRoom => ({
  userId: 1, yxAccid: 'yx-host', nickname: 'Sofia', title: 'Evening', agoraChannelId: 'live-ch', yxRoomId: 'room-1',
  joinNum: 0, privateCallOpen: false, wishlist: [], userStatus: 0, liveRoomState: 0, isBlockUser: false, whoBlock: 0, ...over,
});
const entry = { account: 'yx-host', token: 'im-yx-host', nick: 'Sofia' };

/** A host gone live over manual fakes: permission, begin and publish answered. */
async function onAir(begun: LiveRoom = room()) {
  const api = new FakeLiveApi(new FakeLiveNetwork(), 1, 'manual');
  const media = new FakeLiveMedia(new FakeLiveMediaNetwork(), 'manual');
  const chatroom = new FakeChatroomPort(new FakeChatroomNetwork(), 'manual');
  const clock = new SimulatedClock();
  const actor = createActor(composeLiveHosting({ api, media, chatroom }), {
    input: { setting: { title: 'Evening', privateCallOpen: false }, entry }, clock,
  });
  const emitted: LiveHostingEmitted[] = [];
  actor.on('*', (e) => emitted.push(e as LiveHostingEmitted));
  actor.start();
  api.pending.next('checkPermission').resolve(undefined);
  await flush();
  api.pending.next('begin').resolve(begun);
  await flush();
  media.pending.next('publish').resolve(undefined);
  await flush();
  return { api, media, chatroom, clock, actor, emitted };
}

describe('[§9] the heartbeat beats every 10 s while on air', () => {
  it('beats at 10 s, not before, with the chat room id, and again 10 s after each answer', async () => {
    const { api, clock } = await onAir();
    clock.increment(HEARTBEAT_MS - 1);
    await flush();
    expect(api.pending.count('heartbeat')).toBe(0);
    clock.increment(1);
    await flush();
    expect(api.pending.argsOf('heartbeat')).toEqual([['room-1']]);
    api.pending.next('heartbeat').resolve({ ended: false });
    await flush();
    clock.increment(HEARTBEAT_MS - 1);
    await flush();
    expect(api.pending.count('heartbeat')).toBe(1);
    clock.increment(1);
    await flush();
    expect(api.pending.count('heartbeat')).toBe(2);
  });

  it('beats as fast as the server asks (a shortened window), but not faster than MIN_HEARTBEAT_MS', async () => {
    const fast = await onAir(room({ heartbeatIntervalMs: 2_000 }));
    fast.clock.increment(2_000);
    await flush();
    expect(fast.api.pending.count('heartbeat')).toBe(1);
    const silly = await onAir(room({ heartbeatIntervalMs: 5 }));
    silly.clock.increment(MIN_HEARTBEAT_MS - 1);
    await flush();
    expect(silly.api.pending.count('heartbeat')).toBe(0);
    silly.clock.increment(1);
    await flush();
    expect(silly.api.pending.count('heartbeat')).toBe(1);
  });

  it(`ends after ${HEARTBEAT_MAX_FAILURES} failed beats in a row; a good beat starts the count again`, async () => {
    const { api, clock, actor } = await onAir();
    const beat = async (ok: boolean) => {
      clock.increment(HEARTBEAT_MS);
      await flush();
      const call = api.pending.next<{ ended: boolean }>('heartbeat');
      if (ok) call.resolve({ ended: false });
      else call.reject(new Error('unreachable'));
      await flush();
    };
    for (let i = 0; i < HEARTBEAT_MAX_FAILURES - 1; i++) await beat(false);
    await beat(true);
    for (let i = 0; i < HEARTBEAT_MAX_FAILURES - 1; i++) await beat(false);
    expect(actor.getSnapshot().matches('onAir')).toBe(true);
    await beat(false);
    expect(actor.getSnapshot().matches('ending')).toBe(true);
    expect(actor.getSnapshot().context.end?.code).toBe(LiveEndCode.heartbeatLost);
  });

  it('the server answering ended ends the live', async () => {
    const { api, clock, actor } = await onAir();
    clock.increment(HEARTBEAT_MS);
    await flush();
    api.pending.next('heartbeat').resolve({ ended: true });
    await flush();
    expect(actor.getSnapshot().context.end?.code).toBe(LiveEndCode.roomClosed);
  });
});

describe('[§9] live call warning at 300 s', () => {
  it('warns the host 300 s after the call from the live started, once', async () => {
    const { actor, clock, emitted, media, api } = await onAir();
    actor.send({ type: 'call.started' });
    await flush();
    media.pending.next('leave').resolve(undefined);
    // The heartbeat goes on during the call (the room stays live); answer it as it comes.
    for (let t = 0; t < LIVE_CALL_WARNING_MS - 1; t += HEARTBEAT_MS / 2) {
      clock.increment(Math.min(HEARTBEAT_MS / 2, LIVE_CALL_WARNING_MS - 1 - t));
      await flush();
      for (const c of api.pending.open()) c.resolve({ ended: false });
    }
    expect(emitted.filter((e) => e.type === 'live.warning')).toEqual([]);
    clock.increment(1);
    await flush();
    expect(emitted.filter((e) => e.type === 'live.warning')).toEqual([{ type: 'live.warning', text: TEXT_LIVE_CALL_WARNING }]);
    expect(liveStateOf(actor.getSnapshot())).toBe(LiveState.liveCalling);
  });
});

describe('guards and ends', () => {
  it('a private-call switch to the value it has is not sent', async () => {
    const { actor, api } = await onAir();
    actor.send({ type: 'live.setPrivateCall', open: false });
    expect(api.pending.count('setPrivateCall')).toBe(0);
    actor.send({ type: 'live.setPrivateCall', open: true });
    expect(api.pending.argsOf('setPrivateCall')).toEqual([[true]]);
    api.pending.next('setPrivateCall').resolve(undefined);
    await flush();
    expect(liveHostingViewOf(actor.getSnapshot())).toMatchObject({ privateCallOpen: true, switchingPrivateCall: false });
  });

  it('[§8] a beauty failure ends the live with code 99 and says so', async () => {
    const { actor } = await onAir();
    actor.send({ type: 'beauty.failed' });
    expect(actor.getSnapshot().context.end).toEqual({ code: 99, text: 'Beauty Camera Error!' });
  });

  it('[§4 44] a forced end is code 3; boosting shows while on', async () => {
    const { actor } = await onAir();
    actor.send({ type: 'system.boosting', on: true });
    expect(liveHostingViewOf(actor.getSnapshot()).boosting).toBe(true);
    actor.send({ type: 'system.boosting', on: false });
    expect(liveHostingViewOf(actor.getSnapshot()).boosting).toBe(false);
    actor.send({ type: 'system.liveForcedEnd', code: 3 });
    expect(actor.getSnapshot().context.end?.code).toBe(3);
  });
});

describe('Scenario: a live with a viewer over the in-memory services', () => {
  it('goes live, the viewer sees it, a private call takes the host away and back, the end shows the stats', async () => {
    const chatrooms = new FakeChatroomNetwork();
    const lives = new FakeLiveNetwork(chatrooms);
    const channels = new FakeLiveMediaNetwork();
    lives.register({ userId: 1, account: 'yx-host', nickname: 'Sofia', isHost: true });
    lives.register({ userId: 2, account: 'yx-alice', nickname: 'Alice', isHost: false });
    for (const a of ['yx-host', 'yx-alice']) chatrooms.register(a, `im-${a}`);
    const hostPorts = { api: new FakeLiveApi(lives, 1), media: new FakeLiveMedia(channels), chatroom: new FakeChatroomPort(chatrooms) };
    const host = createActor(composeLiveHosting(hostPorts), {
      input: { setting: { title: 'Evening', privateCallOpen: true }, entry }, clock: new SimulatedClock(),
    });
    const emitted: LiveHostingEmitted[] = [];
    host.on('*', (e) => emitted.push(e as LiveHostingEmitted));
    host.start();
    await flush();
    expect(liveStateOf(host.getSnapshot())).toBe(LiveState.living);
    expect(emitted).toEqual([{ type: 'live.navigate', to: '/liveRoom' }]);

    const gifts = {} as GiftApiPort;
    const viewerPorts = { api: new FakeLiveApi(lives, 2), media: new FakeLiveMedia(channels), chatroom: new FakeChatroomPort(chatrooms), gifts };
    const viewer = createActor(composeLiveViewing(viewerPorts), {
      input: { hostUserId: 1, entry: { account: 'yx-alice', token: 'im-yx-alice', nick: 'Alice' } }, clock: new SimulatedClock(),
    }).start();
    await flush();
    expect(frontStatusOf(viewer.getSnapshot())).toBe(LiveFrontStatus.live);
    expect(selectHostingChat(host.getSnapshot())!.getSnapshot().context.audience.map((m) => m.account)).toEqual(['yx-alice']);

    host.send({ type: 'call.started' });
    await flush();
    expect(liveStateOf(host.getSnapshot())).toBe(LiveState.liveCalling);
    expect(frontStatusOf(viewer.getSnapshot())).toBe(LiveFrontStatus.calling);
    host.send({ type: 'call.ended' });
    await flush();
    expect(liveStateOf(host.getSnapshot())).toBe(LiveState.living);
    expect(frontStatusOf(viewer.getSnapshot())).toBe(LiveFrontStatus.live);

    host.send({ type: 'live.end' });
    await flush();
    expect(host.getSnapshot().status).toBe('done');
    const summary = host.getSnapshot().output as LiveSummary;
    expect(summary).toMatchObject({ title: 'Evening', code: LiveEndCode.byHost, text: null, stats: { viewers: 1, gifts: 0 } });
    expect(emitted.at(-1)).toEqual({ type: 'live.navigate', to: LIVE_ENDS_PATH });
    expect(liveEndsViewOf(summary)).toMatchObject({ duration: '0:00', reason: null });
    // The room closed: the viewer sees live end; nobody is left listening.
    expect(frontStatusOf(viewer.getSnapshot())).toBe(LiveFrontStatus.liveEnd);
    expect(hostPorts.media.listenerCount + hostPorts.chatroom.listenerCount()).toBe(0);
    viewer.send({ type: 'live.leave' });
    expect(viewerPorts.media.listenerCount + viewerPorts.chatroom.listenerCount()).toBe(0);
  });

  it('going live is refused for a non-host with the server\'s words', async () => {
    const lives = new FakeLiveNetwork();
    lives.register({ userId: 2, account: 'yx-alice', nickname: 'Alice', isHost: false });
    const actor = createActor(composeLiveHosting({ api: new FakeLiveApi(lives, 2), media: new FakeLiveMedia(), chatroom: new FakeChatroomPort() }), {
      input: { setting: { title: 'x', privateCallOpen: false }, entry }, clock: new SimulatedClock(),
    });
    const emitted: LiveHostingEmitted[] = [];
    actor.on('*', (e) => emitted.push(e as LiveHostingEmitted));
    actor.start();
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(emitted).toEqual([{ type: 'live.toast', text: 'Only hosts can go live.' }]);
    expect(actor.getSnapshot().output).toMatchObject({ code: null, text: 'Only hosts can go live.', stats: null });
  });
});
