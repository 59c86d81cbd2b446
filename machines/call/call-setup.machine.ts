/**
 * Setting an outgoing call up, before the peer is rung (SPEC §5 call rules, §9 room preparation):
 * the call on the server, then its media channel joined, while the own camera and microphone open.
 * The ring waits for both, so a person still deciding on the camera is not calling yet. When
 * camera and microphone are allowed already nobody is deciding: `prepare` is then done as they
 * are asked for (call.actors.ts), and should they fail after all the call machine hears it as
 * the media's `mediaFailed` and ends the call.
 *
 *   server: creating ─createCall─▶ joining ─join─▶ joined        (createCall fails: the set-up fails with it)
 *           creating ─createCall, the camera already refused─▶ joined (nothing to join)
 *           joining ─join fails─▶ failed
 *   media:  preparing ─▶ prepared | refused
 *   both final ─▶ done: the call's info, and what failed once the call existed (`failure`)
 *
 * A failure after the call exists is output rather than thrown: the call then knows its channel,
 * and tells the server that it ended. Only createCall's own refusal is the set-up's error, since
 * there is no call to tell of then.
 */
import { assign, fromPromise, stateIn } from 'xstate';
import { setup } from '../setup';
import type { CallInfo } from '../ports/call.port';

export interface CallSetupInput {
  beCallUserId: number;
  callType: number;
  /** The camera too, unless it is an audio call. */
  video: boolean;
  /** The own media account, which joins the channel. */
  account: string;
  /** The call's idempotency key (the call machine's intent): createCall sent again answers the same call. */
  idempotencyKey: string;
}

export interface CallSetupOutput {
  info: CallInfo;
  /** The refused camera or the failed join, once the call existed; null when it is ready to ring. */
  failure: unknown;
}

interface CallSetupContext extends CallSetupInput {
  info: CallInfo | null;
  failure: unknown;
}

export const callSetupMachine = setup({
  types: {
    input: {} as CallSetupInput,
    context: {} as CallSetupContext,
    output: {} as CallSetupOutput,
  },
  actors: {
    createCall: fromPromise<CallInfo, { beCallUserId: number; callType: number; idempotencyKey: string }>(() => Promise.reject(new Error('not provided'))),
    /** Media library, camera and microphone. */
    prepare: fromPromise<void, { video: boolean }>(() => Promise.resolve()),
    /** Joins the media channel and publishes (room preparation retried once). */
    join: fromPromise<void, { channelId: string; account: string }>(() => Promise.resolve()),
  },
  guards: {
    cameraRefused: stateIn('#callSetup.media.refused'),
  },
  actions: {
    setInfo: assign({ info: (_, info: CallInfo) => info }),
    /** The first failure is the one the person is told. */
    setFailure: assign({ failure: ({ context, event }) => context.failure ?? (event as { error?: unknown }).error }),
  },
}).createMachine({
  id: 'callSetup',
  context: ({ input }) => ({ ...input, info: null, failure: null }),
  type: 'parallel',
  states: {
    server: {
      initial: 'creating',
      states: {
        creating: {
          // No onError: a call that could not be created fails the set-up with createCall's error.
          invoke: {
            id: 'createCall', src: 'createCall',
            input: ({ context }) => ({ beCallUserId: context.beCallUserId, callType: context.callType, idempotencyKey: context.idempotencyKey }),
            onDone: [
              { guard: 'cameraRefused', target: 'joined', actions: { type: 'setInfo', params: ({ event }) => event.output } },
              { target: 'joining', actions: { type: 'setInfo', params: ({ event }) => event.output } },
            ],
          },
        },
        joining: {
          invoke: {
            id: 'join', src: 'join', input: ({ context }) => ({ channelId: context.info?.channelId ?? '', account: context.account }),
            onDone: 'joined', onError: { target: 'failed', actions: 'setFailure' },
          },
        },
        joined: { type: 'final' },
        failed: { type: 'final' },
      },
    },
    media: {
      initial: 'preparing',
      states: {
        preparing: {
          invoke: {
            id: 'prepare', src: 'prepare', input: ({ context }) => ({ video: context.video }),
            onDone: 'prepared', onError: { target: 'refused', actions: 'setFailure' },
          },
        },
        prepared: { type: 'final' },
        refused: { type: 'final' },
      },
    },
  },
  // Both halves are final only once createCall answered, so the info is there.
  output: ({ context }) => ({ info: context.info!, failure: context.failure }),
});

export type CallSetupMachine = typeof callSetupMachine;
