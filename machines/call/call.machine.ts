/**
 * One-to-one call, both directions (SPEC §3 Call info and enums, §4 Call status, §5 call
 * rules, §8 call messages, §9 call constants).
 *
 *   start ─offline─▶ ended ('Network connection error. Please reconnect')
 *   outgoing: starting (call-setup.machine.ts: createCall, then the join ∥ the camera) ─▶ ringing ─accept─▶ connecting ─first remote frame─▶ connected
 *             starting ─createCall refused | camera refused | join failed─▶ ended (the error's text)
 *             ringing ─reject | -3 type 1─▶ ended (cancel)   ─cancel─▶ cancelling ─▶ ended (cancel)
 *             ringing, accepting: a first frame before the accept is kept (framed): taken, the call is connected
 *             ringing ─ring time-out─▶ timingOut ─▶ ended (timeout, not answered 30)
 *   incoming: ringing ─accept─▶ accepting ─▶ connecting     ─reject─▶ rejecting ─▶ ended (cancel)
 *             ringing opens the own camera (preview), so that taking the call does not wait for it
 *             accepting ─hang up─▶ rejecting                 accepting ─fails─▶ failing ─▶ ended (the error's text)
 *             ringing ─peer cancels─▶ ended (cancel)        ─ring time-out─▶ ended (timeout)
 *   connected ─hang up─▶ hangingUp ─▶ ended (hung up, reason 1)
 *   connected ─peer hangs up | leaves─▶ ended (hung up, reason 2)   ─link lost─▶ ended (reason 6)
 *   ended ─media left, server told─▶ over (final)
 *   connected runs the call's room (in-call.machine.ts): income, translated lines (-1) and the
 *   gift machines; the call hands it the system messages and keeps the protocol.
 *
 * Connected means the first remote video frame arrived, not just a join. Everything the
 * call touches outside comes through actors the owner provides (call.actors.ts). The in-call
 * chat is the session's (a talk with the peer beside the call). Billing is the server's: it
 * ends a call itself when the payer cannot pay, or when charging fails 3 times in a row.
 */
import { and, assign, fromCallback, fromPromise, sendTo, setup, stateIn } from 'xstate';
import type { CallInfo } from '../ports/call.port';
import type { CallPeer } from './call.types';
import { SignalAction } from '../ports/signalling.port';
import {
  CONNECT_TIMEOUT_MS, CallStatus, CallText, HangupReason, NOT_ANSWERED_SECONDS,
  channelToTell, contextOfInfo, errorText, initialContext, isRtc, isSignal, rejectPayload,
} from './call.types';
import type { CallContext, CallEvent, CallInput, CallOutcome, CallSummary } from './call.types';
import { inCallMachine } from './in-call.machine';
import { callSetupMachine } from './call-setup.machine';
import type { CallSetupOutput } from './call-setup.machine';

export * from './call.types';

/** The `end` action with the outcome it records. */
const end = (status: CallStatus, reason: HangupReason | null = null, text: string | null = null) =>
  ({ type: 'end' as const, params: { status, reason, text } });
/** The same way on, whether the step worked or not (a best-effort signal). */
const settled = <T>(target: string, actions: T) => ({ onDone: { target, actions }, onError: { target, actions } });
/** The error an actor failed with. */
const errorOf = ({ event }: { event: { error: unknown } }) => event.error;
/** What failed once an outgoing call existed (call-setup.machine.ts). */
const failureOf = ({ event }: { event: { output: CallSetupOutput } }) => event.output.failure;
const either = (target: string) => ({ onDone: target, onError: target });
/** What the own media opens: the camera too, unless it is an audio call. */
const mediaOf = ({ context }: { context: CallContext }) => ({ video: context.callType !== SignalAction.audioCall });
/**
 * The peer's first frame can come before her accept (the caller's side) or before taking the call
 * is done (the callee's): the media path is quicker than the signals and the server. It is kept as
 * `framed`, and the call is then connected as soon as it is taken.
 */
const framedFirst = {
  initial: 'waiting' as const,
  states: { waiting: { on: { 'rtc.event': { guard: 'firstFrame' as const, target: 'framed' as const } } }, framed: {} },
};
/** The input of a signal to the peer about this call. */
const signalTo = (action: SignalAction | ((context: CallContext) => SignalAction), payload?: (context: CallContext) => Record<string, unknown>) =>
  ({ context }: { context: CallContext }) => ({
    to: context.peer.account, action: typeof action === 'function' ? action(context) : action, channelId: context.channelId ?? '',
    ...(payload ? { payload: payload(context) } : {}),
  });

export const callMachine = setup({
  types: {
    input: {} as CallInput,
    context: {} as CallContext,
    events: {} as CallEvent,
    output: {} as CallSummary,
  },
  actors: {
    /** Caller: the call on the server, its media channel and the own camera, before the ring. */
    setup: callSetupMachine,
    /** Callee: the own camera as it rings; never fails (taking the call prepares again, and says why it cannot). */
    preview: fromPromise<void, { video: boolean; channelId: string; account: string }>(() => Promise.resolve()),
    /** Callee: the server takes the call (joinCall, 3 s), then media, then the accept signal. */
    accept: fromPromise<void, { channelId: string; peer: string; video: boolean; account: string }>(() => Promise.resolve()),
    signal: fromPromise<void, { to: string; action: SignalAction; channelId: string; payload?: Record<string, unknown> }>(() => Promise.resolve()),
    /** Callee: tells the server the call is refused (so the record says so), then the caller. */
    reject: fromPromise<void, { channelId: string; peer: string }>(() => Promise.resolve()),
    /** Callee: tells the caller that taking the call failed here (she cannot take it now), then the server. */
    fail: fromPromise<void, { channelId: string; peer: string }>(() => Promise.resolve()),
    /** Callee: who is calling, from the server (the waiting-call screen's avatar, nick, age, country, level). */
    peerCard: fromPromise<Partial<CallPeer>, { account: string }>(() => Promise.resolve({})),
    /** Leaves the media channel and tells the server the call ended. */
    cleanup: fromPromise<void, { channelId: string | null; reason: number }>(() => Promise.resolve()),
    signals: fromCallback<CallEvent>(() => () => {}),
    media: fromCallback<CallEvent>(() => () => {}),
    inCall: inCallMachine,
  },
  guards: {
    offline: ({ context }) => !context.startedOnline,
    outgoing: ({ context }) => context.direction === 'out',
    accepted: ({ context, event }) => isSignal(event, context, SignalAction.accept),
    /** Turned down; with a reason, for it: she is in another call (busy), taking it failed on her side (unavailable). */
    rejected: ({ context, event }, why?: 'busy' | 'unavailable') =>
      isSignal(event, context, SignalAction.reject) && (why === undefined || rejectPayload(event)[why] === true),
    peerCancelled: ({ context, event }) => isSignal(event, context, SignalAction.cancel),
    peerHungUp: ({ context, event }) => isSignal(event, context, SignalAction.hangup, SignalAction.cancel),
    firstFrame: ({ event }) => isRtc(event, 'firstRemoteFrame'),
    remoteLeft: ({ event }) => isRtc(event, 'remoteLeft'),
    linkLost: ({ event }) => isRtc(event, 'connectionLost'),
  },
  delays: {
    ringTimeout: ({ context }) => context.ringTimeoutMs,
    connectTimeout: CONNECT_TIMEOUT_MS,
  },
  actions: {
    setInfo: assign(({ context }, info: CallInfo) => contextOfInfo(context, info)),
    /** What the server says of the caller; the account stays the one that rang. */
    setPeerCard: assign(({ context }, card: Partial<CallPeer>) => ({ peer: { ...context.peer, ...card, account: context.peer.account } })),
    end: assign({
      outcome: (_, outcome: CallOutcome) => outcome,
      status: (_, outcome: CallOutcome) => outcome.status,
    }),
    endWithError: assign((_, error: unknown) => {
      const text = errorText(error);
      return { outcome: { status: CallStatus.cancel, reason: null, text }, status: CallStatus.cancel };
    }),
    markConnected: assign({ connectedAt: () => Date.now(), status: CallStatus.inProgress }),
    /** The system messages of a connected call go to its room. */
    toInCall: sendTo('inCall', ({ event }) => event),
  },
}).createMachine({
  id: 'call',
  context: ({ input }) => initialContext(input),
  invoke: [
    { id: 'signals', src: 'signals' },
    { id: 'media', src: 'media' },
  ],
  initial: 'start',
  states: {
    start: {
      always: [
        { guard: 'offline', target: 'ended', actions: end(CallStatus.cancel, null, CallText.offline) },
        { guard: 'outgoing', target: 'outgoing' },
        { target: 'incoming' },
      ],
    },
    outgoing: {
      initial: 'starting',
      states: {
        /** The call on the server and its media channel, while the own camera opens (call-setup.machine.ts). */
        starting: {
          invoke: {
            id: 'setup',
            src: 'setup',
            input: ({ context }) => ({ beCallUserId: context.peer.userId ?? 0, callType: context.callType, ...mediaOf({ context }), account: context.account }),
            onDone: [
              // The call exists but cannot go on (a refused camera, a failed join): the server is then told that it ended.
              {
                guard: ({ event }) => event.output.failure !== null, target: '#call.ended',
                actions: [{ type: 'setInfo', params: ({ event }) => event.output.info }, { type: 'endWithError', params: failureOf }],
              },
              { target: 'ringing', actions: { type: 'setInfo', params: ({ event }) => event.output.info } },
            ],
            onError: { target: '#call.ended', actions: { type: 'endWithError', params: errorOf } },
          },
        },
        ringing: {
          invoke: {
            id: 'ring',
            src: 'signal',
            input: signalTo(
              (c) => (c.callType === SignalAction.audioCall ? SignalAction.audioCall : SignalAction.videoCall),
              (c) => ({ ringTimeoutMs: c.ringTimeoutMs }),
            ),
            // The peer cannot be reached by signalling: she is not available.
            onError: { target: '#call.ended', actions: end(CallStatus.cancel, null, CallText.unavailable) },
          },
          after: { ringTimeout: 'timingOut' },
          ...framedFirst,
          on: {
            'signal.event': [
              { guard: and(['accepted', stateIn('#call.outgoing.ringing.framed')]), target: '#call.connected' },
              { guard: 'accepted', target: '#call.connecting' },
              { guard: { type: 'rejected', params: 'busy' }, target: '#call.ended', actions: end(CallStatus.cancel, HangupReason.remote, CallText.busy) },
              {
                guard: { type: 'rejected', params: 'unavailable' }, target: '#call.ended',
                actions: end(CallStatus.cancel, HangupReason.remote, CallText.unavailable),
              },
              { guard: 'rejected', target: '#call.ended', actions: end(CallStatus.cancel, HangupReason.remote, CallText.refused) },
            ],
            'system.callRefused': { target: '#call.ended', actions: end(CallStatus.cancel, HangupReason.remote, CallText.refused) },
            'call.cancel': 'cancelling',
          },
        },
        cancelling: {
          invoke: {
            id: 'cancelSignal',
            src: 'signal',
            input: signalTo(SignalAction.cancel),
            ...settled('#call.ended', end(CallStatus.cancel, HangupReason.local)),
          },
        },
        /** Not answered in time: the peer is told, and the call is reported as not answered (30). */
        timingOut: {
          invoke: {
            id: 'timeoutSignal',
            src: 'signal',
            input: signalTo(SignalAction.cancel, () => ({ notAnswered: NOT_ANSWERED_SECONDS })),
            ...settled('#call.ended', end(CallStatus.timeout)),
          },
        },
      },
    },
    incoming: {
      initial: 'ringing',
      invoke: {
        id: 'peerCard',
        src: 'peerCard',
        input: ({ context }) => ({ account: context.peer.account }),
        onDone: { actions: { type: 'setPeerCard', params: ({ event }) => event.output } },
      },
      states: {
        ringing: {
          // The camera opens while it rings; taking the call prepares again (the adapter's one preparation).
          invoke: {
            id: 'preview', src: 'preview',
            input: ({ context }) => ({ ...mediaOf({ context }), channelId: context.channelId ?? '', account: context.account }),
          },
          // The server's own ring time-out (from the call's creation, so never later than this one) ends
          // the call for both sides; this is the fallback when that never arrives (see `ended`).
          after: { ringTimeout: { target: '#call.ended', actions: end(CallStatus.timeout) } },
          on: {
            'signal.event': { guard: 'peerCancelled', target: '#call.ended', actions: end(CallStatus.cancel, HangupReason.remote) },
            'call.accept': 'accepting',
            'call.reject': 'rejecting',
          },
        },
        accepting: {
          invoke: {
            id: 'accept',
            src: 'accept',
            input: ({ context }) => ({ ...mediaOf({ context }), channelId: context.channelId ?? '', peer: context.peer.account, account: context.account }),
            onDone: [{ guard: stateIn('#call.incoming.accepting.framed'), target: '#call.connected' }, { target: '#call.connecting' }],
            onError: { target: 'failing', actions: { type: 'endWithError', params: errorOf } },
          },
          ...framedFirst,
          on: {
            'signal.event': { guard: 'peerCancelled', target: '#call.ended', actions: end(CallStatus.cancel, HangupReason.remote) },
            // Before the media is up a hang-up turns the call down: the caller is still ringing.
            'call.hangup': 'rejecting',
          },
        },
        /** Taking the call failed here (camera, server): the caller is told she cannot take it now. */
        failing: {
          invoke: {
            id: 'failSignal',
            src: 'fail',
            input: ({ context }) => ({ peer: context.peer.account, channelId: context.channelId ?? '' }),
            ...either('#call.ended'),
          },
        },
        rejecting: {
          invoke: {
            id: 'rejectSignal',
            src: 'reject',
            input: ({ context }) => ({ peer: context.peer.account, channelId: context.channelId ?? '' }),
            ...settled('#call.ended', end(CallStatus.cancel, HangupReason.local)),
          },
        },
      },
    },
    /** Taken: waiting for the first remote frame. */
    connecting: {
      after: {
        connectTimeout: { target: 'hangingUp', actions: end(CallStatus.hungUp, HangupReason.local, CallText.callError) },
      },
      on: {
        'rtc.event': [
          { guard: 'firstFrame', target: 'connected' },
          { guard: 'linkLost', target: 'hangingUp', actions: end(CallStatus.hungUp, HangupReason.weakNetwork) },
          // The peer's link dropped (its hang-up signal cannot get out): the media server tells.
          { guard: 'remoteLeft', target: 'ended', actions: end(CallStatus.hungUp, HangupReason.remote) },
        ],
        'signal.event': { guard: 'peerHungUp', target: 'ended', actions: end(CallStatus.hungUp, HangupReason.remote) },
        'call.hangup': { target: 'hangingUp', actions: end(CallStatus.hungUp, HangupReason.local) },
      },
    },
    connected: {
      entry: 'markConnected',
      invoke: {
        id: 'inCall',
        src: 'inCall',
        input: ({ context }) => ({
          isHost: context.isHost, peer: context.peer.account, channelId: context.channelId ?? '',
          toUserId: context.peer.userId ?? 0, balance: context.balance,
        }),
      },
      on: {
        'call.hangup': { target: 'hangingUp', actions: end(CallStatus.hungUp, HangupReason.local) },
        'signal.event': { guard: 'peerHungUp', target: 'ended', actions: end(CallStatus.hungUp, HangupReason.remote) },
        'rtc.event': [
          { guard: 'remoteLeft', target: 'ended', actions: end(CallStatus.hungUp, HangupReason.remote) },
          { guard: 'linkLost', target: 'hangingUp', actions: end(CallStatus.hungUp, HangupReason.weakNetwork) },
        ],
        // Income, translated lines, gifts and asks (the room keeps what is its own).
        'system.*': { actions: 'toInCall' },
      },
    },
    /** Tell the peer (best effort), then end. */
    hangingUp: {
      invoke: {
        id: 'hangupSignal',
        src: 'signal',
        input: signalTo(SignalAction.hangup),
        ...either('ended'),
      },
    },
    /** Media left and the server told; the outcome is kept for the end screen. */
    ended: {
      invoke: {
        id: 'cleanup',
        src: 'cleanup',
        input: ({ context }) => ({ channelId: channelToTell(context), reason: context.outcome?.reason ?? HangupReason.local }),
        ...either('over'),
      },
    },
    over: { type: 'final' },
  },
  output: ({ context }): CallSummary => ({
    ...(context.outcome ?? { status: context.status, reason: null, text: null }),
    channelId: context.channelId,
    callType: context.callType,
    direction: context.direction,
    peer: context.peer,
    answerTime: context.connectedAt > 0 ? Math.max(0, Math.round((Date.now() - context.connectedAt) / 1000)) : 0,
  }),
});

export type CallMachine = typeof callMachine;
