/**
 * Hosting a live room (SPEC §2 /liveSetting → /liveRoom → /liveEnds; §4 Live state empty,
 * living, liveCalling, waitingReturnLive and System messages 44, 63, 64; §8 a beauty failure
 * during live ends it, code 99; §9 heartbeat 10 s, live call warning 300 s).
 *
 *   starting.{checking ─▶ beginning} ─▶ onAir ─▶ ending (end → stats) ─▶ ended (final: /liveEnds)
 *   starting ─refused─▶ failed (final)        starting ─live.end─▶ ending (what began is ended; no /liveEnds)
 *   onAir.stage: publishing ─▶ living ─call.started─▶ liveCalling.{leaving ─▶ away} ─call.ended─▶ waitingReturnLive (publish) ─▶ living
 *   onAir.privateCall: steady ─live.setPrivateCall─▶ switching ─▶ steady        onAir.exposure: normal ⇄ boosted (63 / 64)
 *   onAir ─live.end | 44 | beauty.failed | heartbeat gave up | chat room closed | media lost─▶ ending
 *
 * On air the room's chat runs (live-chat.machine.ts, as its host: gags, audience, gifts) and
 * the heartbeat (live-heartbeat.machine.ts). A private call from a viewer is the session's
 * call: once it is being taken the session says `call.started`, and the host leaves the
 * room's media channel (viewers see calling); after it (`call.ended`) the host publishes
 * again. A call that ends while the channel is still being left waits for the leave
 * (leaving.callOver), so a publish never races the leave. Navigation and toasts are asked of
 * the owner (`report`).
 */
import { assign, emit, enqueueActions, fromCallback, fromPromise, stateIn } from 'xstate';
import { setup } from '../setup';
import { liveChatMachine } from '../live-chat/live-chat.machine';
import { WhoBlock, wishlistOf } from '../live-chat/live-chat.types';
import { MediaError } from '../ports/call.port';
import { LiveApiError } from '../ports/live.port';
import type { LiveRoom, LiveStats } from '../ports/live.port';
import { liveHeartbeatMachine } from './live-heartbeat.machine';
import type { LiveHeartbeatOutput } from './live-heartbeat.machine';
import {
  HEARTBEAT_MS, LIVE_CALL_WARNING_MS, LIVE_ENDS_PATH, LIVE_ROOM_PATH, LiveEndCode, LiveEndText, MIN_HEARTBEAT_MS,
  TEXT_GO_LIVE_FAILED, TEXT_LIVE_CALL_WARNING, TEXT_PRIVATE_CALL_FAILED,
} from './live-hosting.types';
import type {
  LiveEndCode as EndCode, LiveHostingContext, LiveHostingEmitted, LiveHostingEvent, LiveHostingInput, LiveSetting, LiveSummary,
} from './live-hosting.types';

export * from './live-hosting.types';

/** A camera that could not publish says why (SPEC §3 media error texts). */
const mediaEnd = ({ event }: { event: unknown }) => {
  const error = (event as { error?: unknown }).error;
  return { code: LiveEndCode.mediaFailed, text: error instanceof MediaError ? error.message : LiveEndText[LiveEndCode.mediaFailed] };
};
/** The action recording why the live ends. */
const endWith = (code: EndCode, text?: string) => ({ type: 'setEnd' as const, params: { code, text: text ?? LiveEndText[code] } });

export const liveHostingMachine = setup({
  types: {
    input: {} as LiveHostingInput,
    context: {} as LiveHostingContext,
    events: {} as LiveHostingEvent,
    emitted: {} as LiveHostingEmitted,
    output: {} as LiveSummary,
  },
  actors: {
    checkPermission: fromPromise<void, void>(() => Promise.reject(new Error('not provided'))),
    begin: fromPromise<LiveRoom, LiveSetting>(() => Promise.reject(new Error('not provided'))),
    /** Opens the camera and publishes to the channel. */
    publish: fromPromise<void, { channelId: string; account: string }>(() => Promise.reject(new Error('not provided'))),
    /** Leaves the room's media channel (for a private call). */
    leaveChannel: fromPromise<void, void>(() => Promise.resolve()),
    setPrivateCall: fromPromise<boolean, boolean>(() => Promise.reject(new Error('not provided'))),
    /** Leaves media and chat room (best effort), then ends the room on the server: its stats. */
    finish: fromPromise<LiveStats, { roomId: string }>(() => Promise.reject(new Error('not provided'))),
    media: fromCallback<LiveHostingEvent>(() => () => {}),
    chat: liveChatMachine,
    heartbeat: liveHeartbeatMachine,
  },
  delays: {
    liveCallWarning: LIVE_CALL_WARNING_MS,
  },
  guards: {
    /** A 44 naming another (earlier) room is not this live's end. */
    thisRoom: ({ context, event }) =>
      event.type === 'system.liveForcedEnd' && (event.channelId === undefined || event.channelId === context.room?.agoraChannelId),
    mediaLost: ({ event }) => event.type === 'media.event' && event.event.type === 'connectionLost',
    switchChanged: ({ context, event }) => event.type === 'live.setPrivateCall' && event.open !== context.privateCallOpen,
    heartbeatLost: (_, output: LiveHeartbeatOutput) => output.reason === 'lost',
    boostingOn: ({ event }) => event.type === 'system.boosting' && event.on,
    boostingOff: ({ event }) => event.type === 'system.boosting' && !event.on,
    callOver: stateIn({ onAir: { stage: { liveCalling: { leaving: 'callOver' } } } }),
  },
  actions: {
    setRoom: assign((_, room: LiveRoom) => ({
      room: { ...room, wishlist: wishlistOf(room.wishlist) },
      privateCallOpen: room.privateCallOpen === true,
      heartbeatMs: typeof room.heartbeatIntervalMs === 'number' && Number.isFinite(room.heartbeatIntervalMs)
        ? Math.min(HEARTBEAT_MS, Math.max(MIN_HEARTBEAT_MS, room.heartbeatIntervalMs)) : HEARTBEAT_MS,
    })),
    setEnd: assign({ end: (_, end: { code: EndCode; text: string | null }) => end }),
    setFailure: assign({
      failure: ({ event }) => {
        const error = (event as { error?: unknown }).error;
        return error instanceof LiveApiError && error.message ? error.message : TEXT_GO_LIVE_FAILED;
      },
    }),
    /** What the owner hears of (the session turns it into navigation and toasts). */
    report: emit((_, params: LiveHostingEmitted) => params),
  },
}).createMachine({
  id: 'liveHosting',
  context: ({ input }) => ({
    ...input, room: null, privateCallOpen: input.setting.privateCallOpen, heartbeatMs: HEARTBEAT_MS, end: null, stats: null, failure: null,
  }),
  initial: 'starting',
  states: {
    starting: {
      // Given up before on air: whatever began is ended (safe to repeat); no /liveEnds for it.
      on: { 'live.end': { target: 'ending', actions: endWith(LiveEndCode.byHost) } },
      initial: 'checking',
      states: {
        checking: {
          invoke: { id: 'checkPermission', src: 'checkPermission', onDone: 'beginning', onError: { target: '#liveHosting.failed', actions: 'setFailure' } },
        },
        beginning: {
          invoke: {
            id: 'begin',
            src: 'begin',
            input: ({ context }) => context.setting,
            onDone: { target: '#liveHosting.onAir', actions: { type: 'setRoom', params: ({ event }) => event.output } },
            onError: { target: '#liveHosting.failed', actions: 'setFailure' },
          },
        },
      },
    },
    onAir: {
      type: 'parallel',
      invoke: [
        { id: 'media', src: 'media' },
        {
          id: 'chat',
          src: 'chat',
          input: ({ context }) => ({
            roomId: context.room!.yxRoomId, entry: context.entry, hostAccount: context.entry.account, whoBlock: WhoBlock.none,
            joinNum: context.room!.joinNum, wishlist: context.room!.wishlist,
          }),
          onDone: { target: 'ending', actions: endWith(LiveEndCode.roomClosed) },
        },
        {
          id: 'heartbeat',
          src: 'heartbeat',
          input: ({ context }) => ({ roomId: context.room!.yxRoomId, intervalMs: context.heartbeatMs }),
          onDone: [
            { guard: { type: 'heartbeatLost', params: ({ event }) => event.output }, target: 'ending', actions: endWith(LiveEndCode.heartbeatLost) },
            { target: 'ending', actions: endWith(LiveEndCode.roomClosed) },
          ],
        },
      ],
      on: {
        'live.end': { target: 'ending', actions: endWith(LiveEndCode.byHost) },
        'system.liveForcedEnd': { guard: 'thisRoom', target: 'ending', actions: endWith(LiveEndCode.forced) },
        'beauty.failed': { target: 'ending', actions: endWith(LiveEndCode.beautyFailed) },
        'media.event': { guard: 'mediaLost', target: 'ending', actions: endWith(LiveEndCode.mediaFailed) },
      },
      states: {
        stage: {
          initial: 'publishing',
          states: {
            publishing: {
              invoke: {
                id: 'publish',
                src: 'publish',
                input: ({ context }) => ({ channelId: context.room!.agoraChannelId, account: context.entry.account }),
                onDone: { target: 'living', actions: { type: 'report', params: { type: 'live.navigate', to: LIVE_ROOM_PATH } } },
                onError: {
                  target: '#liveHosting.ending',
                  actions: { type: 'setEnd', params: mediaEnd },
                },
              },
            },
            living: {
              on: { 'call.started': 'liveCalling' },
            },
            /** Out of the room's channel for a private call; viewers see calling. */
            liveCalling: {
              after: {
                liveCallWarning: { actions: { type: 'report', params: { type: 'live.warning', text: TEXT_LIVE_CALL_WARNING } } },
              },
              initial: 'leaving',
              states: {
                leaving: {
                  invoke: {
                    id: 'leaveChannel',
                    src: 'leaveChannel',
                    onDone: [{ guard: 'callOver', target: '#liveHosting.onAir.stage.waitingReturnLive' }, { target: 'away' }],
                    onError: [{ guard: 'callOver', target: '#liveHosting.onAir.stage.waitingReturnLive' }, { target: 'away' }],
                  },
                  initial: 'callOn',
                  states: {
                    callOn: { on: { 'call.ended': 'callOver' } },
                    /** The call is over already: back as soon as the channel is left. */
                    callOver: {},
                  },
                },
                away: {
                  on: { 'call.ended': '#liveHosting.onAir.stage.waitingReturnLive' },
                },
              },
            },
            /** Publishing again after the call. */
            waitingReturnLive: {
              invoke: {
                id: 'republish',
                src: 'publish',
                input: ({ context }) => ({ channelId: context.room!.agoraChannelId, account: context.entry.account }),
                onDone: 'living',
                onError: {
                  target: '#liveHosting.ending',
                  actions: { type: 'setEnd', params: mediaEnd },
                },
              },
            },
          },
        },
        privateCall: {
          initial: 'steady',
          states: {
            steady: {
              on: { 'live.setPrivateCall': { guard: 'switchChanged', target: 'switching' } },
            },
            switching: {
              invoke: {
                id: 'setPrivateCall',
                src: 'setPrivateCall',
                input: ({ event }) => (event.type === 'live.setPrivateCall' ? event.open : false),
                onDone: { target: 'steady', actions: assign({ privateCallOpen: ({ event }) => event.output }) },
                onError: { target: 'steady', actions: { type: 'report', params: { type: 'live.toast', text: TEXT_PRIVATE_CALL_FAILED } } },
              },
            },
          },
        },
        /** SPEC §4 system messages 63 / 64: boosting exposure, shown to the host. */
        exposure: {
          initial: 'normal',
          states: {
            normal: { on: { 'system.boosting': { guard: 'boostingOn', target: 'boosted' } } },
            boosted: { on: { 'system.boosting': { guard: 'boostingOff', target: 'normal' } } },
          },
        },
      },
    },
    ending: {
      invoke: {
        id: 'finish',
        src: 'finish',
        input: ({ context }) => ({ roomId: context.room?.yxRoomId ?? '' }),
        onDone: { target: 'ended', actions: assign({ stats: ({ event }) => event.output }) },
        // /liveEnds shows what it can without the stats.
        onError: 'ended',
      },
    },
    ended: {
      type: 'final',
      // /liveEnds reads the summary (the output) from the owner; a live given up before it began has none.
      entry: enqueueActions(({ context, enqueue }) => {
        if (context.room) enqueue({ type: 'report', params: { type: 'live.navigate', to: LIVE_ENDS_PATH } });
      }),
    },
    failed: {
      type: 'final',
      entry: { type: 'report', params: ({ context }) => ({ type: 'live.toast' as const, text: context.failure ?? TEXT_GO_LIVE_FAILED }) },
    },
  },
  output: ({ context }): LiveSummary => ({
    title: context.setting.title, code: context.end?.code ?? null, text: context.end?.text ?? context.failure, stats: context.stats,
  }),
});

export type LiveHostingMachine = typeof liveHostingMachine;
