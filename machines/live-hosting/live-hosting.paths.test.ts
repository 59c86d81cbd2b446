/**
 * Generated-path tests of hosting a live room (SPEC §4 Live state and System messages 44,
 * 63, 64; §8 beauty failure during live, code 99; §9 heartbeat, live call warning 300 s):
 * every path is replayed on the machine composed over manual fakes of the live API, the
 * room's media and the chat room (nothing answers until the path says so); timers are the
 * machine's own, fired as the path says (their lengths: live-hosting.machine.test.ts). At each
 * state: the SPEC live state, what was asked of the owner, the children on air, the listeners
 * left on the fake ports (none once off air) and the summary a finished live leaves.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { MediaError, MediaErrorText } from '../ports/call.port';
import { FakeChatroomNetwork, FakeChatroomPort } from '../ports/chatroom.fake';
import { FakeLiveApi, FakeLiveMedia, FakeLiveMediaNetwork, FakeLiveNetwork } from '../ports/live.fake';
import type { LiveMediaEvent, LiveRoom, LiveStats } from '../ports/live.port';
import { LiveApiError } from '../ports/live.port';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { fireTimer } from '../testing/timers';
import { composeLiveHosting } from './live-hosting.actors';
import {
  HEARTBEAT_MAX_FAILURES, LIVE_ENDS_PATH, LIVE_ROOM_PATH, LiveEndCode, LiveEndText, LiveState, TEXT_GO_LIVE_FAILED,
  TEXT_LIVE_CALL_WARNING, TEXT_PRIVATE_CALL_FAILED, liveHostingMachine,
} from './live-hosting.machine';
import type { LiveHostingContext, LiveHostingEmitted, LiveHostingInput, LiveSummary } from './live-hosting.machine';
import { liveStateOf, selectHostingChat } from './live-hosting.selectors';

const room: LiveRoom = {
  userId: 1, yxAccid: 'yx-host', nickname: 'Sofia', title: 'Evening', agoraChannelId: 'live-ch', yxRoomId: 'room-1',
  joinNum: 0, privateCallOpen: true, wishlist: [], userStatus: 0, liveRoomState: 0, isBlockUser: false, whoBlock: 0,
};
const stats: LiveStats = { durationSec: 600, viewers: 12, gifts: 30, income: 900 };
const done = (id: string, output?: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error });
const CALL_WARNING = afterEvent('liveCallWarning', 'liveHosting.onAir.stage.liveCalling');
const BEAT = afterEvent('heartbeat', 'liveHeartbeat.resting');

const samples: AnyEventObject[] = [
  done('checkPermission'), fail('checkPermission', new LiveApiError(1000, 'Only hosts can go live.')),
  done('begin', room), fail('begin', new Error('network')), fail('begin', new LiveApiError(1000, 'You cannot go live during a call.')),
  done('publish'), fail('publish', new MediaError('permissionDenied')),
  done('leaveChannel'), fail('leaveChannel', new Error('already out')),
  done('republish'), fail('republish', new Error('camera gone')),
  done('setPrivateCall', false), fail('setPrivateCall', new LiveApiError(1000, 'You are not live.')),
  done('finish', stats), fail('finish', new Error('network')),
  done('chat', { reason: 'roomClosed' }), done('heartbeat', { reason: 'ended' }), done('heartbeat', { reason: 'lost' }),
  { type: 'media.connectionLost' }, { type: 'media.hostLeft' },
  { type: 'live.end' }, { type: 'live.setPrivateCall', open: false }, { type: 'call.started' }, { type: 'call.ended' },
  { type: 'beauty.failed' }, { type: 'system.liveForcedEnd', code: 3 }, { type: 'system.liveForcedEnd', code: 3, channelId: 'live-ch' },
  { type: 'system.liveForcedEnd', code: 3, channelId: 'an-earlier-room' }, { type: 'system.boosting', on: true }, { type: 'system.boosting', on: false },
  { type: CALL_WARNING },
];

const input: LiveHostingInput = {
  setting: { title: 'Evening', privateCallOpen: true },
  entry: { account: 'yx-host', token: 'im-host', nick: 'Sofia', ext: { isVip: false, isNewUser: false, userLevel: 5 } },
};

/** What ends the live, by the event that ended it. */
function endCodeOf(e: AnyEventObject): number | null {
  switch (e.type) {
    case 'live.end': return LiveEndCode.byHost;
    case 'system.liveForcedEnd': return e.channelId === undefined || e.channelId === 'live-ch' ? LiveEndCode.forced : null;
    case 'beauty.failed': return LiveEndCode.beautyFailed;
    case 'xstate.done.actor.chat': return LiveEndCode.roomClosed;
    case 'xstate.done.actor.heartbeat': return (e.output as { reason: string }).reason === 'lost' ? LiveEndCode.heartbeatLost : LiveEndCode.roomClosed;
    case 'media.connectionLost': return LiveEndCode.mediaFailed;
    case 'xstate.error.actor.publish': case 'xstate.error.actor.republish': return LiveEndCode.mediaFailed;
    default: return null;
  }
}

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const api = new FakeLiveApi(new FakeLiveNetwork(), 1, 'manual');
  const media = new FakeLiveMedia(new FakeLiveMediaNetwork(), 'manual');
  const chatroom = new FakeChatroomPort(new FakeChatroomNetwork(), 'manual');
  const actor = createActor(composeLiveHosting({ api, media, chatroom }), { input, clock: new SimulatedClock(), inspect });
  const emitted: LiveHostingEmitted[] = [];
  actor.on('*', (e) => emitted.push(e as LiveHostingEmitted));
  actor.start();
  await flush();
  /** Whether the session's call is on (the host is away from the room only then). */
  let callOn = false;

  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = actor.getSnapshot();
    if (e.type === 'call.started' && stage(before, 'living')) callOn = true;
    if (e.type === 'call.ended') callOn = false;
    const emittedBefore = emitted.length;
    if (e.type === BEAT || e.type === CALL_WARNING) {
      fireTimer(actor, e.type);
    } else if (e.type === 'xstate.done.actor.chat') {
      chatroom.emit('room-1', { type: 'closed', reason: 'roomClosed' });
    } else if (e.type === 'xstate.done.actor.heartbeat') {
      const lost = (e.output as { reason: string }).reason === 'lost';
      for (let i = 0; i < (lost ? HEARTBEAT_MAX_FAILURES : 1); i++) {
        fireTimer(actor, BEAT);
        await flush();
        expect(api.pending.next('heartbeat').args).toEqual(['room-1']);
        if (lost) api.pending.next('heartbeat').reject(new Error('unreachable'));
        else api.pending.next('heartbeat').resolve({ ended: true });
        await flush();
      }
    } else if (e.type === 'xstate.done.actor.finish' || e.type === 'xstate.error.actor.finish') {
      // Media and chat room are left (best effort) before the server is told.
      expect(api.pending.count('end')).toBe(0);
      media.pending.next('leave').resolve(undefined);
      if (before.context.room) chatroom.pending.next('leave').reject(new Error('gone'));
      else expect(chatroom.pending.count('leave')).toBe(0);
      await flush();
      if (e.type.startsWith('xstate.done')) api.pending.next('end').resolve(e.output);
      else api.pending.next('end').reject(e.error);
    } else if (e.type.startsWith('xstate.done.actor.') || e.type.startsWith('xstate.error.actor.')) {
      const id = e.type.split('.').slice(3).join('.');
      const call = id === 'publish' || id === 'republish' ? media.pending.next('publish')
        : id === 'leaveChannel' ? media.pending.next('leave') : api.pending.next(id);
      if (e.type.startsWith('xstate.done')) call.resolve(id === 'setPrivateCall' ? undefined : e.output);
      else call.reject(e.error);
    } else if (e.type.startsWith('media.')) {
      // Through the port, as the adapter tells it (the actors map it to the machine's fact).
      media.emit({ type: e.type.slice('media.'.length) } as LiveMediaEvent);
    } else {
      actor.send(e as never);
    }
    await flush();

    const snapshot = actor.getSnapshot();
    const ctx: LiveHostingContext = snapshot.context;
    const out = emitted.slice(emittedBefore);
    expect(snapshot.value).toEqual(state.value);
    const onAir = snapshot.matches('onAir');
    // On air: the chat and the heartbeat run, media and chat room are heard; off air, nothing is left.
    expect(Boolean(snapshot.children.chat)).toBe(onAir);
    expect(Boolean(snapshot.children.heartbeat)).toBe(onAir);
    expect(media.listenerCount).toBe(onAir ? 1 : 0);
    expect(chatroom.listenerCount()).toBe(onAir ? 1 : 0);
    if (onAir && !before.matches('onAir')) {
      expect(media.pending.argsOf('publish').at(-1)).toEqual(['live-ch', 'yx-host']);
      expect(selectHostingChat(snapshot)!.getSnapshot().context).toMatchObject({ roomId: 'room-1', hostAccount: 'yx-host', whoBlock: 0 });
    }
    // SPEC §4 Live state.
    const live = liveStateOf(snapshot);
    if (snapshot.matches({ onAir: { stage: 'living' } })) expect(live).toBe(LiveState.living);
    if (e.type === 'call.started' && before.matches({ onAir: { stage: 'living' } })) {
      expect(live).toBe(LiveState.liveCalling);
      // Out of the room's channel, so viewers see calling.
      expect(media.pending.count('leave')).toBeGreaterThan(0);
    }
    if (e.type === 'call.ended' && before.matches({ onAir: { stage: 'liveCalling' } })) expect(live).toBe(LiveState.waitingReturnLive);
    if (snapshot.matches({ onAir: { stage: 'waitingReturnLive' } })) {
      expect(media.pending.open().filter((c) => c.method === 'publish')).toHaveLength(1);
      // Never published while still leaving the channel.
      expect(media.pending.open().filter((c) => c.method === 'leave')).toHaveLength(0);
    }
    if (!onAir) expect(live).toBe(LiveState.empty);
    if (e.type === 'system.liveForcedEnd' && e.channelId === 'an-earlier-room') expect(snapshot.value).toEqual(before.value);
    // Out of the room for a call only while the call is on; back (or on the way) once it is over.
    if (live === LiveState.liveCalling) expect(callOn).toBe(true);
    if (onAir && !callOn) expect([LiveState.empty, LiveState.living, LiveState.waitingReturnLive]).toContain(live);
    // What the owner is asked for.
    const navigations = out.filter((x) => x.type === 'live.navigate').map((x) => (x as { to: string }).to);
    if (e.type === 'xstate.done.actor.publish') expect(navigations).toEqual([LIVE_ROOM_PATH]);
    // /liveEnds after a live that began; none for one given up before (no room).
    else if (snapshot.matches('ended') && !before.matches('ended')) expect(navigations).toEqual(ctx.room ? [LIVE_ENDS_PATH] : []);
    else expect(navigations).toEqual([]);
    if (e.type === CALL_WARNING) expect(out).toEqual([{ type: 'live.warning', text: TEXT_LIVE_CALL_WARNING }]);
    if (e.type === 'xstate.error.actor.setPrivateCall') expect(out).toEqual([{ type: 'live.toast', text: TEXT_PRIVATE_CALL_FAILED }]);
    if (e.type === 'xstate.done.actor.setPrivateCall') expect(ctx.privateCallOpen).toBe(false);
    if (e.type === 'system.boosting') expect(snapshot.matches({ onAir: { exposure: 'boosted' } })).toBe(e.on === true && onAir);
    // Going live refused: the server's words, else general ones; nothing to undo.
    if (snapshot.matches('failed')) {
      const said = e.error instanceof LiveApiError ? e.error.message : TEXT_GO_LIVE_FAILED;
      expect(out).toEqual([{ type: 'live.toast', text: said }]);
      // The attempt is over (/liveSetting stops waiting) with what was said, and nothing went on air.
      expect(snapshot.status).toBe('done');
      expect(snapshot.output).toEqual({ title: ctx.setting.title, code: null, text: said, stats: null });
      expect(api.pending.count('end')).toBe(0);
    }
    // Why it ends, as the summary says.
    const code = endCodeOf(e);
    if (code !== null && snapshot.matches('ending') && !before.matches('ending')) {
      expect(ctx.end?.code).toBe(code);
      if (e.type === 'xstate.error.actor.publish') expect(ctx.end?.text).toBe(MediaErrorText.permissionDenied);
      else if (code !== LiveEndCode.mediaFailed || e.type === 'media.connectionLost') expect(ctx.end?.text).toBe(LiveEndText[code as LiveEndCode]);
    }
    if (snapshot.status === 'done') {
      const summary = snapshot.output as LiveSummary;
      expect(summary.title).toBe('Evening');
      expect(summary.stats).toEqual(e.type === 'xstate.done.actor.finish' ? stats : null);
      expect(summary.code).toBe(ctx.end?.code ?? null);
      expect(Object.keys(snapshot.children)).toEqual([]);
    }
  }
  actor.stop();
  expect(media.listenerCount + chatroom.listenerCount()).toBe(0);
}

const stage = (s: AnyMachineSnapshot, value: string) => s.matches({ onAir: { stage: value } });
const atRest = (s: AnyMachineSnapshot) => s.matches({ onAir: { privateCall: 'steady', exposure: 'normal' } });
const REGION_EVENTS = ['live.setPrivateCall', 'xstate.done.actor.setPrivateCall', 'xstate.error.actor.setPrivateCall', 'system.boosting'];

describeGeneratedPaths('liveHosting', liveHostingMachine, {
  events: samples,
  inputs: { host: input },
  // The switch and the exposure are taken while living; the rest with those two at rest (each region is covered once).
  possible: (s, e) => (REGION_EVENTS.includes(e.type) ? stage(s, 'living') : !s.matches('onAir') || atRest(s)),
  serializeContext: (c) => [(c as LiveHostingContext).privateCallOpen],
  minPaths: 20,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});
