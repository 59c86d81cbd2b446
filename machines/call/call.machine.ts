/**
 * One-to-one call, both directions (SPEC §3 Call info and enums, §4 Call status, §5 call
 * rules, §8 call messages, §9 call constants).
 *
 *   start ─offline─▶ ending ('Network connection error. Please reconnect')
 *   outgoing: starting (call-setup.machine.ts: createCall, then the join ∥ the camera) ─▶ ringing ─accept─▶ connecting ─first remote frame─▶ connected
 *             starting ─createCall refused | camera refused | join failed─▶ ending (the error's text)
 *             (a camera allowed already is not waited for: failing after all, it ends the call from ringing
 *             (cancel; the peer is told), connecting (cancel) or connected (hung up) with its text)
 *             ringing ─reject | -3 type 1─▶ ending (cancel)   ─cancel─▶ ending (cancel; the peer is told)
 *             ringing ─the ring cannot go─▶ ending (cancel): the peer is not connected ('She's not available…'; SPEC §8's
 *             'the user is currently unavaliable'), this side is not (the server error text), else 'Error!'
 *             ringing, accepting: a first frame before the accept is kept (framed): taken, the call is connected
 *             ringing ─ring time-out─▶ ending (timeout; the peer is told it was not answered, 30)
 *   incoming: ringing ─accept─▶ accepting ─▶ connecting     ─reject─▶ ending (cancel; refused on the server, the caller told)
 *             ringing opens the own camera (preview), so that taking the call does not wait for it
 *             ringing: a callee who pays (a user a host calls) is told the price and her balance by the server
 *             (pricing ─▶ priced | unpriced) and cannot take the call while that is under way (SPEC §6 shown before paying)
 *             accepting ─hang up─▶ ending (as a reject)      accepting ─fails─▶ ending (the error's text; the caller told)
 *             ringing ─peer cancels─▶ ending (cancel)        ─ring time-out─▶ ending (timeout)
 *   connecting | connected ─hang up─▶ ending (hung up, reason 1; the peer is told)
 *   connected ─peer hangs up | leaves─▶ ending (hung up, reason 2)   ─link lost─▶ ending (reason 6; the peer is told)
 *   ending (call-end.machine.ts: the peer told as the end says, media left, server told) ─▶ over (final)
 *   connected runs the call's room (in-call.machine.ts): income, translated lines (-1) and the
 *   gift machines; the call hands it the system messages and keeps the protocol. Those that come
 *   before it is connected (the first period is charged, and its income told, as the callee takes
 *   the call) are kept (`early`) and handed to the room as it starts.
 *
 * Placing the call (createCall) and answering it (joinCall, which charges the first period) are
 * the person's intents: each takes its idempotency key as it is taken (`newIntent`), one per
 * call, and a second tap is not taken (the state has moved on). Neither is retried.
 *
 * Connected means the first remote video frame arrived (in an audio call, the peer's first sound), not just a join. Everything the
 * call touches outside comes through actors the owner provides (call.actors.ts). The in-call
 * chat is the session's (a talk with the peer beside the call). Billing is the server's: it
 * ends a call itself when the payer cannot pay, or when charging fails 3 times in a row.
 */
import { and, assign, fromCallback, fromPromise, not, sendTo, stateIn } from 'xstate';
import { setup } from '../setup';
import type { CallInfo, CallTerms } from '../ports/call.port';
import type { CallPeer } from './call.types';
import { SignalAction } from '../ports/signalling.port';
import {
  CONNECT_TIMEOUT_MS, CallStatus, CallText, HangupReason, MAX_EARLY,
  channelToTell, contextOfInfo, contextOfTerms, errorText, initialContext, isRtc, isSignal, rejectPayload,
} from './call.types';
import type { CallContext, CallEvent, CallInput, CallOutcome, CallSummary } from './call.types';
import { inCallMachine } from './in-call.machine';
import { callSetupMachine } from './call-setup.machine';
import type { CallSetupOutput } from './call-setup.machine';
import { callEndMachine } from './call-end.machine';
import type { Farewell } from './call-end.machine';
import { newIntentKey } from '../shared/intent-key';

export * from './call.types';

/** The `end` action with the outcome it records and what the peer is told as the call ends (call-end.machine.ts). */
const end = (status: CallStatus, reason: HangupReason | null = null, text: string | null = null, tell: Farewell = 'none') =>
  ({ type: 'end' as const, params: { status, reason, text, tell } });
/** The error an actor failed with. */
const errorOf = ({ event }: { event: { error: unknown } }) => ({ error: event.error });
/** The own camera or microphone that failed after the call went on without waiting for it (RtcPort `mediaAllowed`), and what the peer is told. */
const mediaFailure = (tell: Farewell, status: CallStatus = CallStatus.cancel, reason: HangupReason | null = null) => ({
  guard: 'mediaFailed' as const,
  target: '#call.ending' as const,
  actions: {
    type: 'endWithError' as const,
    params: ({ event }: { event: CallEvent }) => ({ error: event.type === 'rtc.event' && event.event.type === 'mediaFailed' ? event.event.error : null, tell, status, reason }),
  },
});
/** What failed once an outgoing call existed (call-setup.machine.ts). */
const failureOf = ({ event }: { event: { output: CallSetupOutput } }) => ({ error: event.output.failure });
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
    accept: fromPromise<void, { channelId: string; peer: string; video: boolean; account: string; idempotencyKey: string }>(() => Promise.resolve()),
    /** Rings the peer (the call's signal; the farewells are the ending's). */
    signal: fromPromise<void, { to: string; action: SignalAction; channelId: string; payload?: Record<string, unknown> }>(() => Promise.resolve()),
    /** Callee: who is calling, from the server (the waiting-call screen's avatar, nick, age, country, level). */
    peerCard: fromPromise<Partial<CallPeer>, { account: string }>(() => Promise.resolve({})),
    /** Callee who pays: what the call costs and her balance, from the server, before she can take it. */
    terms: fromPromise<CallTerms, { channelId: string }>(() => Promise.reject(new Error('not provided'))),
    /** Tells the peer as the end asks, leaves the media channel and tells the server. */
    end: callEndMachine,
    signals: fromCallback<CallEvent>(() => () => {}),
    media: fromCallback<CallEvent>(() => () => {}),
    inCall: inCallMachine,
  },
  guards: {
    offline: ({ context }) => !context.startedOnline,
    notEnded: ({ context }) => context.outcome === null,
    /** The user pays for the call, whoever placed it; a host never does. */
    pays: ({ context }) => !context.isHost,
    /** This side is the host (a host calls users; her peer is a user). */
    isHost: ({ context }) => context.isHost,
    /** SPEC §4 -3 type 3: a warning of this call's channel, while the call is not over. */
    warningForThisCall: ({ context, event }) =>
      event.type === 'system.callWarning' && event.channelId === context.channelId && context.outcome === null,
    outgoing: ({ context }) => context.direction === 'out',
    accepted: ({ context, event }) => isSignal(event, context, SignalAction.accept),
    /** Turned down; with a reason, for it: she is in another call (busy), taking it failed on her side (unavailable). */
    rejected: ({ context, event }, why?: 'busy' | 'unavailable') =>
      isSignal(event, context, SignalAction.reject) && (why === undefined || rejectPayload(event)[why] === true),
    peerCancelled: ({ context, event }) => isSignal(event, context, SignalAction.cancel),
    peerHungUp: ({ context, event }) => isSignal(event, context, SignalAction.hangup, SignalAction.cancel),
    /** The peer's media is there: her video's first frame; in an audio call (no video to wait for) her first sound too. */
    firstFrame: ({ context, event }) => isRtc(event, 'firstRemoteFrame')
      || (context.callType === SignalAction.audioCall && isRtc(event, 'firstRemoteAudio')),
    remoteLeft: ({ event }) => isRtc(event, 'remoteLeft'),
    linkLost: ({ event }) => isRtc(event, 'connectionLost'),
    mediaFailed: ({ event }) => isRtc(event, 'mediaFailed'),
  },
  delays: {
    ringTimeout: ({ context }) => context.ringTimeoutMs,
    connectTimeout: CONNECT_TIMEOUT_MS,
  },
  actions: {
    setInfo: assign(({ context }, info: CallInfo) => contextOfInfo(context, info)),
    /** What the server says of the caller; the account stays the one that rang. */
    setPeerCard: assign(({ context }, card: Partial<CallPeer>) => ({ peer: { ...context.peer, ...card, account: context.peer.account } })),
    setTerms: assign(({ context }, terms: CallTerms) => contextOfTerms(context, terms)),
    /** A message of the call's room before the room is there (connected): kept for it. */
    keepEarly: assign({
      early: ({ context, event }) => (context.early.length < MAX_EARLY ? [...context.early, event as CallContext['early'][number]] : context.early),
    }),
    end: assign((_, { tell, ...outcome }: CallOutcome & { tell: Farewell }) => ({ outcome, status: outcome.status, farewell: tell })),
    endWithError: assign(({ context }, { error, tell = 'none', status = CallStatus.cancel, reason = null }: {
      error: unknown; tell?: Farewell; status?: CallStatus; reason?: HangupReason | null;
    }) => {
      const text = errorText(error, context);
      return { outcome: { status, reason, text }, status, farewell: tell };
    }),
    markConnected: assign({ connectedAt: () => Date.now(), status: CallStatus.inProgress }),
    /** The person placed or answered the call: the key its request carries (machines/shared/intent-key.ts). */
    newIntent: assign({ intentKey: () => newIntentKey() }),
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
  // Shown on the call screen, and on the end screen when the end itself says nothing (the server ends a call it warned of).
  on: {
    'system.callWarning': { guard: 'warningForThisCall', actions: assign({ warning: ({ event }) => event.text }) },
    // The room's messages before the room is there (`connected` hands them on as they come); none once the call ends.
    'system.callIncome': { guard: 'notEnded', actions: 'keepEarly' },
    'system.giftIncome': { guard: 'notEnded', actions: 'keepEarly' },
    'system.inCallTranslation': { guard: 'notEnded', actions: 'keepEarly' },
    'system.giftReceived': { guard: 'notEnded', actions: 'keepEarly' },
    'system.askGiftRefused': { guard: 'notEnded', actions: 'keepEarly' },
    'system.giftAsked': { guard: 'notEnded', actions: 'keepEarly' },
  },
  initial: 'start',
  states: {
    start: {
      always: [
        { guard: 'offline', target: 'ending', actions: end(CallStatus.cancel, null, CallText.offline) },
        { guard: 'outgoing', target: 'outgoing', actions: 'newIntent' },
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
            input: ({ context }) => ({
              beCallUserId: context.peer.userId ?? 0, callType: context.callType, ...mediaOf({ context }), account: context.account,
              idempotencyKey: context.intentKey ?? '',
            }),
            onDone: [
              // The call exists but cannot go on (a refused camera, a failed join): the server is then told that it ended.
              {
                guard: ({ event }) => event.output.failure !== null, target: '#call.ending',
                actions: [{ type: 'setInfo', params: ({ event }) => event.output.info }, { type: 'endWithError', params: failureOf }],
              },
              { target: 'ringing', actions: { type: 'setInfo', params: ({ event }) => event.output.info } },
            ],
            onError: { target: '#call.ending', actions: { type: 'endWithError', params: errorOf } },
          },
        },
        ringing: {
          invoke: {
            id: 'ring',
            src: 'signal',
            input: ({ context: c }) => ({
              to: c.peer.account, action: c.callType === SignalAction.audioCall ? SignalAction.audioCall : SignalAction.videoCall,
              channelId: c.channelId ?? '', payload: { ringTimeoutMs: c.ringTimeoutMs },
            }),
            // The ring could not go: the peer is not connected (SPEC §8 'the user is currently unavaliable': she is not
            // available, and the server, which saw the ring find nobody, has ended the call as one she missed), this side's
            // signalling is down (the server is out of reach), or anything else ('Error!'). Nobody is there to tell.
            onError: { target: '#call.ending', actions: { type: 'endWithError', params: errorOf } },
          },
          // Not answered in time: the peer is told, and the call is reported as not answered (30).
          after: { ringTimeout: { target: '#call.ending', actions: end(CallStatus.timeout, null, null, 'notAnswered') } },
          ...framedFirst,
          on: {
            'signal.event': [
              { guard: and(['accepted', stateIn('#call.outgoing.ringing.framed')]), target: '#call.connected' },
              { guard: 'accepted', target: '#call.connecting' },
              // A user a host calls is in another call: 'The user is busy.'; a host is 'busy on the line'.
              {
                guard: and([{ type: 'rejected', params: 'busy' as const }, 'isHost']), target: '#call.ending',
                actions: end(CallStatus.cancel, HangupReason.remote, CallText.userBusy),
              },
              { guard: { type: 'rejected', params: 'busy' }, target: '#call.ending', actions: end(CallStatus.cancel, HangupReason.remote, CallText.busy) },
              {
                guard: { type: 'rejected', params: 'unavailable' }, target: '#call.ending',
                actions: end(CallStatus.cancel, HangupReason.remote, CallText.unavailable),
              },
              { guard: 'rejected', target: '#call.ending', actions: end(CallStatus.cancel, HangupReason.remote, CallText.refused) },
            ],
            'system.callRefused': { target: '#call.ending', actions: end(CallStatus.cancel, HangupReason.remote, CallText.refused) },
            'call.cancel': { target: '#call.ending', actions: end(CallStatus.cancel, HangupReason.local, null, 'cancel') },
            'rtc.event': mediaFailure('cancel'),
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
          after: { ringTimeout: { target: '#call.ending', actions: end(CallStatus.timeout) } },
          initial: 'choosing',
          states: {
            choosing: { always: [{ guard: 'pays', target: 'pricing' }, { target: 'priced' }] },
            /** What the call costs her: the payer cannot take it before she is shown (SPEC §6). */
            pricing: {
              invoke: {
                id: 'terms', src: 'terms', input: ({ context }) => ({ channelId: context.channelId ?? '' }),
                onDone: { target: 'priced', actions: { type: 'setTerms', params: ({ event }) => event.output } },
                // The screen says the price could not be shown; taking the call is hers to decide.
                onError: 'unpriced',
              },
            },
            priced: {},
            unpriced: {},
          },
          on: {
            'signal.event': { guard: 'peerCancelled', target: '#call.ending', actions: end(CallStatus.cancel, HangupReason.remote) },
            'call.accept': { guard: not(stateIn('#call.incoming.ringing.pricing')), target: 'accepting', actions: 'newIntent' },
            'call.reject': { target: '#call.ending', actions: end(CallStatus.cancel, HangupReason.local, null, 'reject') },
          },
        },
        accepting: {
          invoke: {
            id: 'accept',
            src: 'accept',
            input: ({ context }) => ({
              ...mediaOf({ context }), channelId: context.channelId ?? '', peer: context.peer.account, account: context.account,
              idempotencyKey: context.intentKey ?? '',
            }),
            onDone: [{ guard: stateIn('#call.incoming.accepting.framed'), target: '#call.connected' }, { target: '#call.connecting' }],
            // Taking the call failed here (camera, server): the caller is told she cannot take it now.
            onError: { target: '#call.ending', actions: { type: 'endWithError', params: ({ event }) => ({ error: event.error, tell: 'fail' as const }) } },
          },
          ...framedFirst,
          on: {
            'signal.event': { guard: 'peerCancelled', target: '#call.ending', actions: end(CallStatus.cancel, HangupReason.remote) },
            // Before the media is up a hang-up turns the call down: the caller is still ringing.
            'call.hangup': { target: '#call.ending', actions: end(CallStatus.cancel, HangupReason.local, null, 'reject') },
          },
        },
      },
    },
    /** Taken: waiting for the first remote frame. */
    connecting: {
      after: {
        connectTimeout: { target: 'ending', actions: end(CallStatus.hungUp, HangupReason.local, CallText.callError, 'hangup') },
      },
      on: {
        'rtc.event': [
          { guard: 'firstFrame', target: 'connected' },
          { guard: 'linkLost', target: 'ending', actions: end(CallStatus.hungUp, HangupReason.weakNetwork, null, 'hangup') },
          // The peer's link dropped (its hang-up signal cannot get out): the media server tells.
          { guard: 'remoteLeft', target: 'ending', actions: end(CallStatus.hungUp, HangupReason.remote) },
          mediaFailure('hangup'),
        ],
        'signal.event': { guard: 'peerHungUp', target: 'ending', actions: end(CallStatus.hungUp, HangupReason.remote) },
        'call.hangup': { target: 'ending', actions: end(CallStatus.hungUp, HangupReason.local, null, 'hangup') },
      },
    },
    connected: {
      entry: 'markConnected',
      invoke: {
        id: 'inCall',
        src: 'inCall',
        input: ({ context }) => ({
          isHost: context.isHost, peer: context.peer.account, channelId: context.channelId ?? '',
          toUserId: context.peer.userId ?? 0, balance: context.balance, early: context.early,
        }),
      },
      on: {
        'call.hangup': { target: 'ending', actions: end(CallStatus.hungUp, HangupReason.local, null, 'hangup') },
        'signal.event': { guard: 'peerHungUp', target: 'ending', actions: end(CallStatus.hungUp, HangupReason.remote) },
        'rtc.event': [
          { guard: 'remoteLeft', target: 'ending', actions: end(CallStatus.hungUp, HangupReason.remote) },
          { guard: 'linkLost', target: 'ending', actions: end(CallStatus.hungUp, HangupReason.weakNetwork, null, 'hangup') },
          mediaFailure('hangup', CallStatus.hungUp, HangupReason.local),
        ],
        'system.callIncome': { actions: 'toInCall' },
        'system.giftIncome': { actions: 'toInCall' },
        'system.inCallTranslation': { actions: 'toInCall' },
        'system.giftReceived': { actions: 'toInCall' },
        'system.askGiftRefused': { actions: 'toInCall' },
        'system.giftAsked': { actions: 'toInCall' },
      },
    },
    /** The peer told as the end asks, the media left and the server told (call-end.machine.ts); the outcome is kept for the end screen. */
    ending: {
      invoke: {
        id: 'end',
        src: 'end',
        input: ({ context }) => ({
          tell: context.farewell, peer: context.peer.account, channelId: context.channelId ?? '',
          channelToTell: channelToTell(context), reason: context.outcome?.reason ?? HangupReason.local,
        }),
        onDone: 'over',
        onError: 'over',
      },
    },
    over: { type: 'final' },
  },
  output: ({ context }): CallSummary => ({
    ...(context.outcome ?? { status: context.status, reason: null, text: null }),
    text: context.outcome?.text ?? context.warning,
    channelId: context.channelId,
    callType: context.callType,
    direction: context.direction,
    peer: context.peer,
    answerTime: context.connectedAt > 0 ? Math.max(0, Math.round((Date.now() - context.connectedAt) / 1000)) : 0,
  }),
});

export type CallMachine = typeof callMachine;
