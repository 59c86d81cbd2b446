/**
 * The session's live rooms (SPEC §2 /liveSetting, /liveRoom, /liveEnds; §4 Live state and
 * System messages 44 / 63 / 64): at most one at a time, the host's own (liveHosting) or one
 * watched (liveViewing), each a per-use child that lives exactly as long as its state. They
 * are reached through this machine (systemId `live`) and its children, not a systemId of
 * their own: a second live of the same kind would otherwise race the first one's name.
 *
 *   idle ─live.begin─▶ hosting ─done─▶ idle (the summary kept for /liveEnds)
 *   idle ─live.watch─▶ viewing ─done (left)─▶ idle
 *
 * Whether the signed-in person may go live is the server's to say: a begin always reaches the
 * live's permission check, and a refusal ends the attempt with the server's words (the
 * summary, code null). Only hosts are offered /liveSetting (app.paths.ts HOST_ONLY_PATHS).
 *
 * A live's code is not the first screens': each of hosting and viewing first loads it
 * (`loading`), then spawns the live from the loader's answer with the input kept meanwhile in
 * context (`pendingLive`) and runs it (`running`); a load that fails is told and goes idle (a
 * begin whose code could not be fetched ends as a refused one does, with what was told).
 *
 * A long-lived child of the session (systemId `live`, where the session's §4 table sends the
 * live system messages): it hands 44 / 63 / 64 and a beauty failure to the live being hosted,
 * and tells it when the session's call is being taken or is over (`call.started` /
 * `call.ended`: the host leaves the room's channel for a private call and comes back). What
 * the lives ask for (navigation, toasts, a private call with the host) leaves through the
 * `output` action, which the session's composition turns into the session's events.
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, sendTo, stopChild } from 'xstate';
import { setup } from '../setup';
import { loadedOnUse, spawnLoaded } from '../shared/load-then-spawn';
import type { AppCallState } from '../call/call.types';
import type { CallPeer } from '../call/call.types';
import type { LiveHostingEmitted, LiveHostingMachine, LiveSetting, LiveSummary } from '../live-hosting/live-hosting.machine';
import type { LiveViewingEmitted, LiveViewingMachine } from '../live-viewing/live-viewing.machine';
import type { ChatroomEntry } from '../ports/chatroom.port';
import type { SystemEvent } from '../system-messages/system-messages';

/** SPEC §3 Call enums: a private call from a live room is a video call. */
const VIDEO_CALL = 0;

/** Said when a live's code could not be fetched (the network is away). */
export const TEXT_LIVE_NOT_LOADED = 'The live room could not be opened. Check the connection and try again.';

/** Provided by the composition (live-rooms.actors.ts), which loads per-use.actors.ts. */
const notComposed = () => Promise.reject(new Error('The live rooms were not composed with their lives'));

export interface LiveRoomsInput {
  /** How the signed-in person enters a room's chat (IM account and token, nick, avatar, ext). */
  entry: ChatroomEntry;
}

export interface LiveRoomsContext extends LiveRoomsInput {
  /** How the host's last live ended, for /liveEnds, until dismissed or the next live. */
  lastLive: LiveSummary | null;
  /** What the live begun or watched starts with, while its code loads. */
  pendingLive: { setting: LiveSetting } | { hostUserId: number } | null;
}

export type LiveRoomsEvent =
  /** SPEC §2 /liveSetting: the host goes live (the server may refuse). */
  | { type: 'live.begin'; setting: LiveSetting }
  /** SPEC §2 /liveRoom: watch a host's room. */
  | { type: 'live.watch'; hostUserId: number }
  | { type: 'live.dismiss' }
  /** The session's call changed (its SPEC §4 app call state). */
  | { type: 'call.changed'; state: AppCallState }
  | { type: 'call.ended' }
  | { type: 'beauty.failed'; text?: string }
  | Extract<SystemEvent, { type: 'system.liveForcedEnd' | 'system.boosting' }>
  /** What the lives ask for (their `report`, sent up by the composition). */
  | LiveHostingEmitted
  | LiveViewingEmitted
  /** A live's code (per-use.actors.ts), loaded when it begins or is watched. */
  | { type: 'xstate.done.actor.loadHosting'; output: LiveHostingMachine }
  | { type: 'xstate.done.actor.loadViewing'; output: LiveViewingMachine }
  /** The lives end (spawned from the loaders' answers): the host's with how it went. */
  | { type: 'xstate.done.actor.liveHosting'; output: LiveSummary }
  | { type: 'xstate.done.actor.liveViewing' };

export type LiveRoomsOutput =
  | { type: 'child.toast'; text: string }
  | { type: 'child.navigate'; to: string }
  | { type: 'call.start'; peer: CallPeer; callType: number; online: boolean };

export const liveRoomsMachine = setup({
  types: {
    input: {} as LiveRoomsInput,
    context: {} as LiveRoomsContext,
    events: {} as LiveRoomsEvent,
    emitted: {} as LiveRoomsOutput,
    children: {} as { loadHosting: 'loadHosting'; loadViewing: 'loadViewing'; liveHosting: 'liveHosting'; liveViewing: 'liveViewing' },
  },
  // The composition (live-rooms.actors.ts) provides these: they load the lives' code.
  actors: {
    loadHosting: fromPromise<LiveHostingMachine>(notComposed),
    loadViewing: fromPromise<LiveViewingMachine>(notComposed),
    /** The lives, spawned from the loaders' answers (machines/shared/load-then-spawn.ts). */
    liveHosting: loadedOnUse<LiveHostingMachine>(),
    liveViewing: loadedOnUse<LiveViewingMachine>(),
  },
  guards: {
    /** The host is taking the call or is in it (not while it only rings). */
    callTaken: ({ event }) => event.type === 'call.changed' && (event.state === 'callConnecting' || event.state === 'connected'),
  },
  actions: {
    output: emit((_, params: LiveRoomsOutput) => params),
    notLoaded: emit({ type: 'child.toast', text: TEXT_LIVE_NOT_LOADED } as LiveRoomsOutput),
    /** A begin that could not start its live ends as a refused one: /liveSetting stops waiting and says why. */
    beginNotLoaded: assign({
      lastLive: ({ context }): LiveSummary | null => (context.pendingLive !== null && 'setting' in context.pendingLive
        ? { title: context.pendingLive.setting.title, code: null, text: TEXT_LIVE_NOT_LOADED, stats: null }
        : context.lastLive),
    }),
    toHosting: sendTo('liveHosting', ({ event }) => event),
    startHosting: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadHosting');
      if (context.pendingLive === null || !('setting' in context.pendingLive)) return;
      spawnLoaded(enqueue, event.output, { id: 'liveHosting', input: { setting: context.pendingLive.setting, entry: context.entry } });
    }),
    startViewing: enqueueActions(({ context, enqueue, event }) => {
      assertEvent(event, 'xstate.done.actor.loadViewing');
      if (context.pendingLive === null || !('hostUserId' in context.pendingLive)) return;
      spawnLoaded(enqueue, event.output, { id: 'liveViewing', input: { hostUserId: context.pendingLive.hostUserId, entry: context.entry } });
    }),
  },
}).createMachine({
  id: 'liveRooms',
  context: ({ input }) => ({ ...input, lastLive: null, pendingLive: null }),
  on: {
    'live.navigate': { actions: { type: 'output', params: ({ event }) => ({ type: 'child.navigate', to: event.to }) } },
    'live.toast': { actions: { type: 'output', params: ({ event }) => ({ type: 'child.toast', text: event.text }) } },
    'live.warning': { actions: { type: 'output', params: ({ event }) => ({ type: 'child.toast', text: event.text }) } },
    // A viewer's private call with the host is the session's call.
    'live.callHost': {
      actions: { type: 'output', params: ({ event }) => ({ type: 'call.start', peer: event.peer, callType: VIDEO_CALL, online: event.online }) },
    },
    'live.dismiss': { actions: assign({ lastLive: null }) },
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'live.begin': { target: 'hosting', actions: assign({ lastLive: null, pendingLive: ({ event }) => ({ setting: event.setting }) }) },
        'live.watch': { target: 'viewing', actions: assign({ pendingLive: ({ event }) => ({ hostUserId: event.hostUserId }) }) },
      },
    },
    hosting: {
      initial: 'loading',
      // The live runs exactly as long as this state.
      exit: stopChild('liveHosting'),
      on: { 'xstate.done.actor.liveHosting': { target: 'idle', actions: assign({ lastLive: ({ event }) => event.output }) } },
      states: {
        loading: {
          invoke: {
            id: 'loadHosting',
            src: 'loadHosting',
            onDone: { target: 'running', actions: ['startHosting', assign({ pendingLive: null })] },
            onError: { target: '#liveRooms.idle', actions: ['notLoaded', 'beginNotLoaded', assign({ pendingLive: null })] },
          },
        },
        running: {
          on: {
            'system.liveForcedEnd': { actions: 'toHosting' },
            'system.boosting': { actions: 'toHosting' },
            'beauty.failed': { actions: 'toHosting' },
            'call.changed': { guard: 'callTaken', actions: sendTo('liveHosting', { type: 'call.started' }) },
            'call.ended': { actions: 'toHosting' },
          },
        },
      },
    },
    viewing: {
      initial: 'loading',
      exit: stopChild('liveViewing'),
      on: { 'xstate.done.actor.liveViewing': 'idle' },
      states: {
        loading: {
          invoke: {
            id: 'loadViewing',
            src: 'loadViewing',
            onDone: { target: 'running', actions: ['startViewing', assign({ pendingLive: null })] },
            onError: { target: '#liveRooms.idle', actions: ['notLoaded', assign({ pendingLive: null })] },
          },
        },
        running: {},
      },
    },
  },
});

export type LiveRoomsMachine = typeof liveRoomsMachine;
