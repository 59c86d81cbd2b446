/**
 * Live rooms through the signed-in session (SPEC §4 System messages 44 / 63 / 64, Live state
 * with a private call, §2 a viewer's private call with the host): the session composed over
 * manual realtime fakes, with the in-memory live service, media channels and chat rooms.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyActorRef, AnyEventObject } from 'xstate';
import { LiveState } from '../live-hosting/live-hosting.machine';
import { liveStateOf } from '../live-hosting/live-hosting.selectors';
import type { LiveHostingRef } from '../live-hosting/live-hosting.selectors';
import { FakeChatroomNetwork, FakeChatroomPort } from '../ports/chatroom.fake';
import { FakeLiveApi, FakeLiveMedia, FakeLiveMediaNetwork, FakeLiveNetwork } from '../ports/live.fake';
import { SignalAction } from '../ports/signalling.port';
import type { FakeSignallingPort } from '../ports/signalling.fake';
import { SYSTEM_SENDER_ACCID } from '../system-messages/system-messages';
import { flush } from '../testing/paths';
import { manualRealtime } from '../testing/realtime';
import * as perUse from './per-use.actors';
import { composeSession } from './session.actors';
import type { SessionInput } from './session.machine';
import { selectCall, selectCalls, selectLastLive, selectLiveHosting, selectLiveRooms, selectLiveViewing } from './session.selectors';

function setUp() {
  const chatrooms = new FakeChatroomNetwork();
  const lives = new FakeLiveNetwork(chatrooms);
  const channels = new FakeLiveMediaNetwork();
  lives.register({ userId: 1, account: 'yx-host', nickname: 'Sofia', isHost: true });
  lives.register({ userId: 2, account: 'yx-alice', nickname: 'Alice', isHost: false });
  for (const a of ['yx-host', 'yx-alice']) chatrooms.register(a, `im-${a}`);
  const session = (userId: number, input: SessionInput) => {
    const realtime = manualRealtime();
    const ports = {
      ...realtime.ports, liveApi: new FakeLiveApi(lives, userId), liveMedia: new FakeLiveMedia(channels), chatroom: new FakeChatroomPort(chatrooms),
    };
    // The per-use children's code is there at once (as when the app has loaded it already).
    const loaded = () => Promise.resolve(perUse);
    const actor = createActor(composeSession({ ...ports, refreshImToken: () => realtime.pending.add('refreshImToken', []) }, loaded), {
      input, clock: realtime.clock,
    });
    const out: AnyEventObject[] = [];
    actor.on('*', (e) => out.push(e));
    actor.start();
    return { actor, out, realtime, ports };
  };
  return { lives, session };
}

const hostInput: SessionInput = { isHost: true, isVip: false, account: 'yx-host', token: 'im-yx-host', profile: { nick: 'Sofia', userLevel: 3, isNewUser: false } };
const userInput: SessionInput = { isHost: false, isVip: true, account: 'yx-alice', token: 'im-yx-alice', profile: { nick: 'Alice', userLevel: 1, isNewUser: true } };
const callOf = (actor: AnyActorRef) => selectCall(selectCalls(actor.getSnapshot())?.getSnapshot());
const hosting = (actor: AnyActorRef) => selectLiveHosting(selectLiveRooms(actor.getSnapshot())?.getSnapshot()) as LiveHostingRef | undefined;

describe('Scenario: a host\'s live through the session', () => {
  it('[§4 44] goes live (to /liveRoom), and a forced end shows /liveEnds with code 3', async () => {
    const { session } = setUp();
    const { actor, out } = session(1, hostInput);
    actor.send({ type: 'live.begin', setting: { title: 'Evening', privateCallOpen: true } });
    await flush();
    expect(liveStateOf(hosting(actor)!.getSnapshot())).toBe(LiveState.living);
    expect(out).toContainEqual({ type: 'session.navigate', to: '/liveRoom' });
    actor.send({ type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 63 } });
    expect(hosting(actor)!.getSnapshot().matches({ onAir: { exposure: 'boosted' } })).toBe(true);
    actor.send({ type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 44, code: 3 } });
    await flush();
    expect(hosting(actor)).toBeUndefined();
    expect(out.at(-1)).toEqual({ type: 'session.navigate', to: '/liveEnds' });
    expect(selectLastLive(selectLiveRooms(actor.getSnapshot())?.getSnapshot())).toMatchObject({ code: 3, stats: { viewers: 0 } });
    actor.send({ type: 'live.dismiss' });
    expect(selectLastLive(selectLiveRooms(actor.getSnapshot())?.getSnapshot())).toBeNull();
  });

  it('[§4 44] a forced end sent by a user, not the server, leaves the live on air and is logged', async () => {
    const { session } = setUp();
    const { actor, out } = session(1, hostInput);
    actor.send({ type: 'live.begin', setting: { title: 'Evening', privateCallOpen: true } });
    await flush();
    for (const content of [{ attachType: 44, code: 3 }, { attachType: 63 }]) {
      actor.send({ type: 'im.notification', from: 'yx-alice', content });
      await flush();
      expect(out.at(-1)).toEqual({ type: 'session.log', text: 'System message from yx-alice ignored: not from the server' });
    }
    expect(liveStateOf(hosting(actor)!.getSnapshot())).toBe(LiveState.living);
    expect(hosting(actor)!.getSnapshot().matches({ onAir: { exposure: 'boosted' } })).toBe(false);
    actor.send({ type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 44, code: 3 } });
    await flush();
    expect(hosting(actor)).toBeUndefined();
    expect(out.at(-1)).toEqual({ type: 'session.navigate', to: '/liveEnds' });
  });

  it('[§4 Live state] a call being taken takes the host out of the room; after it she is back on air', async () => {
    const { session } = setUp();
    const { actor, realtime } = session(1, hostInput);
    const signalling = realtime.ports.signalling as FakeSignallingPort;
    actor.send({ type: 'live.begin', setting: { title: 'Evening', privateCallOpen: true } });
    await flush();
    // A ring: the host is still in her room while it rings.
    actor.send({ type: 'call.ringing', signal: { id: 'r1', action: SignalAction.videoCall, channelId: 'ch1', from: 'yx-alice', to: 'yx-host', time: 1 } });
    await flush();
    expect(liveStateOf(hosting(actor)!.getSnapshot())).toBe(LiveState.living);
    // Taking it: out of the room's channel.
    callOf(actor)!.send({ type: 'call.accept' });
    await flush();
    expect(liveStateOf(hosting(actor)!.getSnapshot())).toBe(LiveState.liveCalling);
    // The camera cannot start: the call ends, and the host publishes to her room again.
    realtime.pending.next('prepare').reject(new Error('camera busy'));
    for (let round = 0; round < 6; round++) {
      await flush();
      for (const c of signalling.pending.open()) c.resolve({ id: 'x', action: 3, channelId: 'ch1', from: 'yx-host', to: 'yx-alice', time: 1 });
      for (const c of realtime.pending.open().filter((p) => p.method === 'leave' || p.method === 'endCall')) c.resolve(undefined);
    }
    expect(callOf(actor)).toBeUndefined();
    expect(liveStateOf(hosting(actor)!.getSnapshot())).toBe(LiveState.living);
  });
});

describe('Scenario: a viewer through the session', () => {
  it('[§2] watches a room and asks for a private call with the host: the session\'s call', async () => {
    const { lives, session } = setUp();
    const host = session(1, hostInput);
    host.actor.send({ type: 'live.begin', setting: { title: 'Evening', privateCallOpen: true } });
    await flush();
    const { actor } = session(2, userInput);
    // Going live is the server's to allow: a non-host's attempt ends with its words.
    actor.send({ type: 'live.begin', setting: { title: 'not a host', privateCallOpen: false } });
    await flush();
    const rooms = selectLiveRooms(actor.getSnapshot())!.getSnapshot();
    expect(rooms.value).toBe('idle');
    expect(rooms.context.lastLive).toEqual({ title: 'not a host', code: null, text: 'Only hosts can go live.', stats: null });
    actor.send({ type: 'live.watch', hostUserId: 1 });
    await flush();
    const viewing = selectLiveViewing(selectLiveRooms(actor.getSnapshot())?.getSnapshot())!;
    expect(viewing.getSnapshot().matches({ inRoom: { stage: 'live', video: 'playing' } })).toBe(true);
    // The viewer enters the room with their profile (SPEC §6: level for the highlight).
    expect(lives.roomOf(1)?.joinNum).toBe(1);
    viewing.send({ type: 'live.privateCall', online: true });
    await flush();
    const call = callOf(actor)!;
    expect(call.getSnapshot().context).toMatchObject({ direction: 'out', peer: { account: 'yx-host', userId: 1, nickname: 'Sofia' }, callType: 0 });
    viewing.send({ type: 'live.leave' });
    await flush();
    expect(selectLiveRooms(actor.getSnapshot())!.getSnapshot().value).toBe('idle');
  });
});
