/**
 * Generated-path tests of the session's live rooms (SPEC §2 /liveSetting, /liveRoom,
 * /liveEnds; §4 System messages 44 / 63 / 64 and Live state): replayed on the composition
 * over manual fakes, checking at each step which live runs (one at a time, per use), what
 * reaches the live being hosted (system messages, a beauty failure, the call being taken or
 * over) and what the lives' requests become for the session.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject, InspectionEvent } from 'xstate';
import { FakeChatroomNetwork, FakeChatroomPort } from '../ports/chatroom.fake';
import { FakeLiveApi, FakeLiveMedia, FakeLiveMediaNetwork, FakeLiveNetwork } from '../ports/live.fake';
import { LiveApiError } from '../ports/live.port';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { manualGiftApi } from '../testing/realtime';
import { liveHostingMachine } from '../live-hosting/live-hosting.machine';
import { liveViewingMachine } from '../live-viewing/live-viewing.machine';
import * as perUse from '../session/per-use.actors';
import { composeLiveRooms } from '../live-rooms/live-rooms.actors';
import { TEXT_LIVE_NOT_LOADED, liveRoomsMachine } from '../live-rooms/live-rooms.machine';
import type { LiveRoomsContext, LiveRoomsInput, LiveRoomsOutput } from '../live-rooms/live-rooms.machine';

const peer = { account: 'yx-host', userId: 100001, nickname: 'Sofia' };
const samples: AnyEventObject[] = [
  { type: 'live.begin', setting: { title: 'Evening', privateCallOpen: true } },
  { type: 'live.watch', hostUserId: 100001 },
  { type: 'live.dismiss' },
  { type: 'call.changed', state: 'calling' }, { type: 'call.changed', state: 'callConnecting' }, { type: 'call.changed', state: 'connected' },
  { type: 'call.ended' }, { type: 'beauty.failed' },
  { type: 'system.liveForcedEnd', code: 3 }, { type: 'system.boosting', on: true },
  // What the lives ask for (their report, as the composition sends it up).
  { type: 'live.navigate', to: '/liveEnds' }, { type: 'live.toast', text: 'Could not go live.' },
  { type: 'live.warning', text: 'This private call has lasted 5 minutes.' },
  { type: 'live.callHost', peer, online: true },
  { type: 'xstate.done.actor.liveHosting' }, { type: 'xstate.done.actor.liveViewing' },
  // A live's code loads when it begins or is watched (or cannot be fetched).
  { type: 'xstate.done.actor.loadHosting', output: liveHostingMachine },
  { type: 'xstate.error.actor.loadHosting', error: new TypeError('Failed to fetch dynamically imported module') },
  { type: 'xstate.done.actor.loadViewing', output: liveViewingMachine },
  { type: 'xstate.error.actor.loadViewing', error: new TypeError('Failed to fetch dynamically imported module') },
];

const entry = { account: 'yx-me', token: 'im-me', nick: 'Me', ext: { isVip: false, isNewUser: false, userLevel: 1 } };
/** One person's live rooms: host or not, the server (the live's permission check), not the app, says who may go live. */
const inputs: Record<string, LiveRoomsInput> = { person: { entry } };
const FORWARDED = ['system.liveForcedEnd', 'system.boosting', 'beauty.failed', 'call.ended'];

async function replay(input: LiveRoomsInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], coverage: InspectFn) {
  const api = new FakeLiveApi(new FakeLiveNetwork(), 1, 'manual');
  const media = new FakeLiveMedia(new FakeLiveMediaNetwork(), 'manual');
  const chatroom = new FakeChatroomPort(new FakeChatroomNetwork(), 'manual');
  /** Events that reached the live being hosted. */
  const atHosting: string[] = [];
  const inspect = (e: InspectionEvent) => {
    coverage(e);
    if (e.type === '@xstate.event' && (e.actorRef as AnyActorRef).id === 'liveHosting') atHosting.push(e.event.type);
  };
  const loads = new PendingCalls();
  const logic = composeLiveRooms({ api, media, chatroom, gifts: manualGiftApi(new PendingCalls()) }, (use) => loads.add(`load.${use}`, []));
  const actor = createActor(logic, { input, clock: new SimulatedClock(), inspect });
  const out: LiveRoomsOutput[] = [];
  actor.on('*', (e) => out.push(e as LiveRoomsOutput));
  actor.start();

  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = actor.getSnapshot();
    const outBefore = out.length;
    const hostingBefore = atHosting.length;
    const loadsBefore = loads.count('load.live');
    if (e.type === 'xstate.done.actor.liveHosting') {
      // The host may not go live: the live ends at once with its summary.
      api.pending.next('checkPermission').reject(new LiveApiError(1000, 'Only hosts can go live.'));
    } else if (e.type === 'xstate.done.actor.liveViewing') {
      actor.getSnapshot().children.liveViewing!.send({ type: 'live.leave' });
      await flush();
      media.pending.next('leave').resolve(undefined);
      api.pending.next('leave').resolve(undefined);
    } else if (e.type === 'xstate.done.actor.loadHosting' || e.type === 'xstate.done.actor.loadViewing') {
      loads.latest('load.live').resolve(perUse);
    } else if (e.type === 'xstate.error.actor.loadHosting' || e.type === 'xstate.error.actor.loadViewing') {
      loads.latest('load.live').reject(e.error);
    } else {
      actor.send(e as never);
    }
    await flush();

    const snapshot = actor.getSnapshot();
    const ctx: LiveRoomsContext = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    // One live at a time, per use, once its code is there.
    expect(Boolean(snapshot.children.liveHosting)).toBe(snapshot.matches({ hosting: 'running' }));
    expect(Boolean(snapshot.children.liveViewing)).toBe(snapshot.matches({ viewing: 'running' }));
    expect(ctx.pendingLive !== null).toBe(snapshot.matches({ hosting: 'loading' }) || snapshot.matches({ viewing: 'loading' }));
    // Anyone's begin is taken: whether they may go live is the server's to say (its refusal ends the live).
    if (e.type === 'live.begin' && before.matches('idle')) {
      expect(snapshot.value).toEqual({ hosting: 'loading' });
      expect(loads.count('load.live')).toBe(1 + loadsBefore);
    }
    if (e.type === 'live.watch' && before.matches('idle')) expect(loads.count('load.live')).toBe(1 + loadsBefore);
    if (e.type === 'xstate.done.actor.loadHosting') expect(api.pending.open().filter((c) => c.method === 'checkPermission')).toHaveLength(1);
    if (e.type === 'xstate.done.actor.loadViewing') expect(api.pending.argsOf('join').at(-1)).toEqual([100001]);
    // What reaches the live being hosted: the live system messages, a beauty failure, the call taken and over.
    const reached = atHosting.slice(hostingBefore);
    // Before the live runs (its code loading) there is nothing to tell.
    if (!before.matches({ hosting: 'running' }) && FORWARDED.includes(e.type)) expect(reached).not.toContain(e.type);
    if (before.matches({ hosting: 'running' }) && snapshot.matches({ hosting: 'running' })) {
      if (FORWARDED.includes(e.type)) expect(reached).toEqual([e.type]);
      else if (e.type === 'call.changed') expect(reached).toEqual(e.state === 'calling' ? [] : ['call.started']);
    }
    // What the lives ask for becomes the session's events.
    const said = out.slice(outBefore);
    if (e.type === 'live.navigate') expect(said).toEqual([{ type: 'child.navigate', to: '/liveEnds' }]);
    else if (e.type === 'live.toast' || e.type === 'live.warning') expect(said).toEqual([{ type: 'child.toast', text: e.text }]);
    else if (e.type === 'live.callHost') expect(said).toEqual([{ type: 'call.start', peer, callType: 0, online: true }]);
    // A live that could not start says why on its way out.
    else if (e.type === 'xstate.done.actor.liveHosting') expect(said).toEqual([{ type: 'child.toast', text: 'Only hosts can go live.' }]);
    // A live whose code could not be fetched says so; no live ran.
    else if (e.type.startsWith('xstate.error.actor.load')) expect(said).toEqual([{ type: 'child.toast', text: TEXT_LIVE_NOT_LOADED }]);
    else expect(said).toEqual([]);
    // /liveEnds keeps the host's last live until dismissed or the next one.
    if (e.type === 'xstate.done.actor.liveHosting') expect(ctx.lastLive).toMatchObject({ title: 'Evening', code: null, text: 'Only hosts can go live.' });
    // A begin whose live could not be loaded ends as a refused one (/liveSetting stops waiting); a watch leaves it as it was.
    if (e.type === 'xstate.error.actor.loadHosting') expect(ctx.lastLive).toEqual({ title: 'Evening', code: null, text: TEXT_LIVE_NOT_LOADED, stats: null });
    if (e.type === 'xstate.error.actor.loadViewing') expect(ctx.lastLive).toBe(before.context.lastLive);
    if (e.type === 'live.dismiss' || (e.type === 'live.begin' && snapshot.matches('hosting'))) expect(ctx.lastLive).toBeNull();
    if (snapshot.matches('idle')) expect(media.listenerCount + chatroom.listenerCount()).toBe(0);
  }
  actor.stop();
  expect(media.listenerCount + chatroom.listenerCount()).toBe(0);
}

describeGeneratedPaths('liveRooms', liveRoomsMachine, {
  events: samples,
  inputs,
  possible: (s, e) => {
    if (e.type === 'xstate.done.actor.liveHosting') return s.matches({ hosting: 'running' });
    if (e.type === 'xstate.done.actor.liveViewing') return s.matches({ viewing: 'running' });
    if (e.type.endsWith('.actor.loadHosting')) return s.matches({ hosting: 'loading' });
    if (e.type.endsWith('.actor.loadViewing')) return s.matches({ viewing: 'loading' });
    return true;
  },
  serializeContext: (c) => [(c as LiveRoomsContext).lastLive !== null],
  minPaths: 10,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});
