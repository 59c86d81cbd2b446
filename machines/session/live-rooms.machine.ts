/**
 * The session's live rooms (SPEC §2 /liveSetting, /liveRoom, /liveEnds; §4 Live state and
 * System messages 44 / 63 / 64): at most one at a time, the host's own (liveHosting) or one
 * watched (liveViewing), each a per-use child that lives exactly as long as its state. They
 * are reached through this machine (systemId `live`) and its children, not a systemId of
 * their own: a second live of the same kind would otherwise race the first one's name.
 *
 *   idle ─live.begin (hosts)─▶ hosting ─done─▶ idle (the summary kept for /liveEnds)
 *   idle ─live.watch─▶ viewing ─done (left)─▶ idle
 *
 * A long-lived child of the session (systemId `live`, where the session's §4 table sends the
 * live system messages): it hands 44 / 63 / 64 and a beauty failure to the live being hosted,
 * and tells it when the session's call is being taken or is over (`call.started` /
 * `call.ended`: the host leaves the room's channel for a private call and comes back). What
 * the lives ask for (navigation, toasts, a private call with the host) leaves through the
 * `output` action, which the session's composition turns into the session's events.
 */
import { assign, emit, sendTo, setup } from 'xstate';
import type { AppCallState } from '../call/call.types';
import type { CallPeer } from '../call/call.types';
import { liveHostingMachine } from '../live-hosting/live-hosting.machine';
import type { LiveHostingEmitted, LiveSetting, LiveSummary } from '../live-hosting/live-hosting.machine';
import { liveViewingMachine } from '../live-viewing/live-viewing.machine';
import type { LiveViewingEmitted } from '../live-viewing/live-viewing.machine';
import type { ChatroomEntry } from '../ports/chatroom.port';
import type { SystemEvent } from '../system-messages/system-messages';

/** SPEC §3 Call enums: a private call from a live room is a video call. */
const VIDEO_CALL = 0;

export interface LiveRoomsInput {
  isHost: boolean;
  /** How the signed-in person enters a room's chat (IM account and token, nick, avatar, ext). */
  entry: ChatroomEntry;
}

export interface LiveRoomsContext extends LiveRoomsInput {
  /** How the host's last live ended, for /liveEnds, until dismissed or the next live. */
  lastLive: LiveSummary | null;
}

export type LiveRoomsEvent =
  /** SPEC §2 /liveSetting: the host goes live. */
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
  | LiveViewingEmitted;

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
  },
  // The composition (live-rooms.actors.ts) provides these composed with their ports.
  actors: {
    liveHosting: liveHostingMachine,
    liveViewing: liveViewingMachine,
  },
  guards: {
    isHost: ({ context }) => context.isHost,
    /** The host is taking the call or is in it (not while it only rings). */
    callTaken: ({ event }) => event.type === 'call.changed' && (event.state === 'callConnecting' || event.state === 'connected'),
  },
  actions: {
    output: emit((_, params: LiveRoomsOutput) => params),
    toHosting: sendTo('liveHosting', ({ event }) => event),
  },
}).createMachine({
  id: 'liveRooms',
  context: ({ input }) => ({ ...input, lastLive: null }),
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
        'live.begin': { guard: 'isHost', target: 'hosting', actions: assign({ lastLive: null }) },
        'live.watch': 'viewing',
      },
    },
    hosting: {
      invoke: {
        id: 'liveHosting',
        src: 'liveHosting',
        input: ({ context, event }) => ({
          setting: event.type === 'live.begin' ? event.setting : { title: '', privateCallOpen: false }, entry: context.entry,
        }),
        onDone: { target: 'idle', actions: assign({ lastLive: ({ event }) => event.output }) },
      },
      on: {
        'system.liveForcedEnd': { actions: 'toHosting' },
        'system.boosting': { actions: 'toHosting' },
        'beauty.failed': { actions: 'toHosting' },
        'call.changed': { guard: 'callTaken', actions: sendTo('liveHosting', { type: 'call.started' }) },
        'call.ended': { actions: 'toHosting' },
      },
    },
    viewing: {
      invoke: {
        id: 'liveViewing',
        src: 'liveViewing',
        input: ({ context, event }) => ({ hostUserId: event.type === 'live.watch' ? event.hostUserId : 0, entry: context.entry }),
        onDone: 'idle',
      },
    },
  },
});

export type LiveRoomsMachine = typeof liveRoomsMachine;
