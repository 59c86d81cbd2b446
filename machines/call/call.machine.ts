/**
 * One-to-one call, both directions (SPEC §3 Call info and enums, §4 Call status, §5 call
 * rules, §8 call messages, §9 call constants).
 *
 *   start ─offline─▶ ended ('Network connection error. Please reconnect')
 *   outgoing: creating ─▶ preparing ─▶ ringing ─accept─▶ connecting ─first remote frame─▶ connected
 *             ringing ─reject | -3 type 1─▶ ended (cancel)   ─cancel─▶ cancelling ─▶ ended (cancel)
 *             ringing ─ring time-out─▶ timingOut ─▶ ended (timeout, not answered 30)
 *   incoming: ringing ─accept─▶ accepting ─▶ connecting     ─reject─▶ rejecting ─▶ ended (cancel)
 *             ringing ─peer cancels─▶ ended (cancel)        ─ring time-out─▶ ended (timeout)
 *   connected ─hang up─▶ hangingUp ─▶ ended (hung up, reason 1)
 *   connected ─peer hangs up | leaves─▶ ended (hung up, reason 2)   ─link lost─▶ ended (reason 6)
 *   ended ─media left, server told─▶ over (final)
 *   connected.{hosting | paying}: the gift list and the gift animation queue run for both sides;
 *   a host also asks for gifts (askGift), a user sends them and answers asks (gifting)
 *
 * Connected means the first remote video frame arrived, not just a join. Everything the
 * call touches outside comes through actors the owner provides (call.actors.ts). The in-call
 * chat is the session's (a talk with the peer beside the call); translated lines (-1) are kept
 * here.
 */
import { assign, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import { askGiftMachine } from '../ask-gift/ask-gift.machine';
import { giftListMachine } from '../gift-list/gift-list.machine';
import { giftQueueMachine } from '../gift-queue/gift-queue.machine';
import { giftingMachine } from '../gifting/gifting.machine';
import type { CallInfo, RtcEvent } from '../ports/call.port';
import { CallApiError, MediaError } from '../ports/call.port';
import type { CallSignal, SignalEvent } from '../ports/signalling.port';
import { SignalAction } from '../ports/signalling.port';
import type { SystemEvent } from '../system-messages/system-messages';

/** SPEC §4 Call status. */
export const CallStatus = { init: 0, calling: 1, cancel: 2, inProgress: 3, hungUp: 4, timeout: 5 } as const;
export type CallStatus = (typeof CallStatus)[keyof typeof CallStatus];
/** SPEC §4 hangup reasons. */
export const HangupReason = { local: 1, remote: 2, weakNetwork: 6 } as const;
export type HangupReason = (typeof HangupReason)[keyof typeof HangupReason];
/** SPEC §4 App call state: drives the host overlays. */
export type AppCallState = 'calling' | 'callConnecting' | 'connected' | 'empty';

/** SPEC §9: default ring time-out, and the not-answered report. */
export const DEFAULT_RING_TIMEOUT_MS = 30_000;
export const NOT_ANSWERED_SECONDS = 30;
/** SPEC §9 joinCall times out at 3 s. */
export const JOIN_TIMEOUT_MS = 3_000;
/** How long a taken call may wait for the first remote frame. */
export const CONNECT_TIMEOUT_MS = 15_000;
/** SPEC §3 deductionErrMaxNum. */
export const DEDUCTION_ERR_MAX = 3;
/** Translated lines kept for the chat history (the newest). */
export const MAX_TRANSLATED_LINES = 200;

export const CallText = {
  offline: 'Network connection error. Please reconnect',
  unavailable: "She's not available right now;you can call another girl instead.",
  busy: 'She is busy on the line. You can call her later.',
  refused: 'The other party has refused.',
  userBusy: 'The user is busy.',
  error: 'Error!',
  callError: 'CallError. Please kill the app and try again.',
  serverError: 'Error.Unable to connect to server, Please kill the app and try again',
  /** SPEC §8 1080 'diamond.not.enough'. */
  balance: 'diamond.not.enough',
} as const;

export interface CallPeer {
  account: string;
  userId?: number;
  nickname?: string;
  icon?: string;
  age?: number;
  countryCode?: string;
  levelName?: string;
  videoPrice?: number;
}

export type CallInput =
  | { direction: 'out'; online: boolean; isHost: boolean; account: string; peer: CallPeer; callType: number; ringTimeoutMs?: number }
  | { direction: 'in'; online: boolean; isHost: boolean; account: string; signal: CallSignal; ringTimeoutMs?: number };

export interface CallOutcome {
  status: CallStatus;
  reason: HangupReason | null;
  /** What the person is told, if anything (SPEC §8). */
  text: string | null;
}

/** What a finished call leaves for the end screen and the rating (SPEC §3 Call rating payload). */
export interface CallSummary extends CallOutcome {
  channelId: string | null;
  callType: number;
  direction: 'out' | 'in';
  peer: CallPeer;
  /** Seconds between the first remote frame and the end; 0 when never connected. */
  answerTime: number;
}

/** A translated in-call chat line (SPEC §4 system message -1). */
export interface TranslatedLine {
  key: string;
  text: string;
  /** When it arrived (ms since the epoch). */
  time: number;
}

export interface CallContext {
  direction: 'out' | 'in';
  /** Whether the device was online when the call was asked for (SPEC §5: no call starts offline). */
  startedOnline: boolean;
  isHost: boolean;
  account: string;
  peer: CallPeer;
  callType: number;
  channelId: string | null;
  ringTimeoutMs: number;
  status: CallStatus;
  outcome: CallOutcome | null;
  /** When the first remote frame arrived (ms); 0 before. */
  connectedAt: number;
  callIncome: number;
  giftIncome: number;
  deductionErrors: number;
  /** The price before the VIP discount (peer.videoPrice is what is paid), when the server said. */
  listPrice: number | null;
  /** How often the server bills a period (ms), when it said. */
  billingPeriodMs: number | null;
  /** The caller's diamonds when the call was created (a paying caller only). */
  balance: number | null;
  translations: readonly TranslatedLine[];
}

export type CallEvent =
  | { type: 'call.cancel' }
  | { type: 'call.accept' }
  | { type: 'call.reject' }
  | { type: 'call.hangup' }
  | { type: 'call.deductionFailed' }
  | { type: 'signal.event'; event: SignalEvent }
  | { type: 'rtc.event'; event: RtcEvent }
  | SystemEvent;

const errorText = (error: unknown): string => {
  if (error instanceof MediaError) return error.message;
  if (error instanceof CallApiError) {
    switch (error.refusal) {
      case 'busy': return CallText.busy;
      case 'offline': return CallText.unavailable;
      case 'balance': return CallText.balance;
      default: return CallText.serverError;
    }
  }
  return CallText.callError;
};


const peerOf = (input: CallInput): CallPeer => {
  if (input.direction === 'out') return input.peer;
  const p = input.signal.payload ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    account: input.signal.from,
    userId: num(p.userId), nickname: str(p.nickname), icon: str(p.icon), age: num(p.age),
    countryCode: str(p.countryCode), levelName: str(p.levelName), videoPrice: num(p.videoPrice),
  };
};

const isSignal = (event: CallEvent, context: CallContext, ...actions: number[]) =>
  event.type === 'signal.event' && event.event.type === 'signal'
  && event.event.signal.channelId === context.channelId && actions.includes(event.event.signal.action);

const isRtc = (event: CallEvent, type: RtcEvent['type']) => event.type === 'rtc.event' && event.event.type === type;

export const callMachine = setup({
  types: {
    input: {} as CallInput,
    context: {} as CallContext,
    events: {} as CallEvent,
    output: {} as CallSummary,
  },
  actors: {
    createCall: fromPromise<CallInfo, { beCallUserId: number; callType: number }>(() => Promise.reject(new Error('not provided'))),
    /** Media library, camera and microphone, join and publish (room preparation retried once). */
    prepare: fromPromise<void, { channelId: string; video: boolean; account: string }>(() => Promise.resolve()),
    /** Callee: the server takes the call (joinCall, 3 s), then media, then the accept signal. */
    accept: fromPromise<void, { channelId: string; peer: string; video: boolean; account: string }>(() => Promise.resolve()),
    signal: fromPromise<void, { to: string; action: SignalAction; channelId: string; payload?: Record<string, unknown> }>(
      () => Promise.resolve(),
    ),
    /** Callee: tells the server the call is refused (so the record says so), then the caller. */
    reject: fromPromise<void, { channelId: string; peer: string }>(() => Promise.resolve()),
    /** Leaves the media channel and tells the server the call ended. */
    cleanup: fromPromise<void, { channelId: string | null; reason: number }>(() => Promise.resolve()),
    signals: fromCallback<CallEvent>(() => () => {}),
    media: fromCallback<CallEvent>(() => () => {}),
    giftList: giftListMachine,
    giftQueue: giftQueueMachine,
    askGift: askGiftMachine,
    gifting: giftingMachine,
  },
  guards: {
    offline: ({ context }) => !context.startedOnline,
    outgoing: ({ context }) => context.direction === 'out',
    accepted: ({ context, event }) => isSignal(event, context, SignalAction.accept),
    rejected: ({ context, event }) => isSignal(event, context, SignalAction.reject),
    /** Turned down because she is in another call. */
    rejectedBusy: ({ context, event }) =>
      isSignal(event, context, SignalAction.reject) && event.type === 'signal.event' && event.event.type === 'signal'
      && event.event.signal.payload?.busy === true,
    peerCancelled: ({ context, event }) => isSignal(event, context, SignalAction.cancel),
    peerHungUp: ({ context, event }) => isSignal(event, context, SignalAction.hangup, SignalAction.cancel),
    firstFrame: ({ event }) => isRtc(event, 'firstRemoteFrame'),
    remoteLeft: ({ event }) => isRtc(event, 'remoteLeft'),
    linkLost: ({ event }) => isRtc(event, 'connectionLost'),
    deductionsExhausted: ({ context }) => context.deductionErrors + 1 >= DEDUCTION_ERR_MAX,
    isHost: ({ context }) => context.isHost,
  },
  delays: {
    ringTimeout: ({ context }) => context.ringTimeoutMs,
    connectTimeout: CONNECT_TIMEOUT_MS,
  },
  actions: {
    setInfo: assign(({ context }, info: CallInfo) => ({
      channelId: info.channelId,
      peer: {
        ...context.peer, account: info.yxAccid || context.peer.account, nickname: info.nickname, icon: info.icon,
        age: info.age, countryCode: info.countryCode, levelName: info.levelName, videoPrice: info.videoPrice,
      },
      listPrice: info.listPrice ?? null,
      billingPeriodMs: info.billingPeriodMs ?? null,
      balance: info.balance ?? null,
      status: CallStatus.calling,
    })),
    end: assign({
      outcome: (_, outcome: CallOutcome) => outcome,
      status: (_, outcome: CallOutcome) => outcome.status,
    }),
    endWithError: assign(({ event }) => {
      const text = errorText((event as { error?: unknown }).error);
      return { outcome: { status: CallStatus.cancel, reason: null, text }, status: CallStatus.cancel };
    }),
    markConnected: assign({ connectedAt: () => Date.now(), status: CallStatus.inProgress }),
    addCallIncome: assign({
      callIncome: ({ context, event }) => context.callIncome + (event.type === 'system.callIncome' ? event.amount : 0),
    }),
    addGiftIncome: assign({
      giftIncome: ({ context, event }) => context.giftIncome + (event.type === 'system.giftIncome' ? event.amount : 0),
    }),
    countDeductionError: assign({ deductionErrors: ({ context }) => context.deductionErrors + 1 }),
    addTranslation: assign({
      translations: ({ context, event }) => {
        if (event.type !== 'system.inCallTranslation' || !event.text.trim()) return context.translations;
        const line = { key: `tr-${context.translations.length + 1}-${Date.now()}`, text: event.text.trim(), time: Date.now() };
        return [...context.translations, line].slice(-MAX_TRANSLATED_LINES);
      },
    }),
    toGiftQueue: sendTo('giftQueue', ({ event }) => {
      if (event.type !== 'system.giftReceived') throw new Error('toGiftQueue needs system.giftReceived');
      const { type: _, ...gift } = event;
      return { type: 'gift.received' as const, gift };
    }),
  },
}).createMachine({
  id: 'call',
  context: ({ input }) => {
    const context: CallContext = {
      direction: input.direction,
      startedOnline: input.online,
      isHost: input.isHost,
      account: input.account,
      peer: peerOf(input),
      callType: input.direction === 'out' ? input.callType : input.signal.action,
      channelId: input.direction === 'in' ? input.signal.channelId : null,
      ringTimeoutMs: input.ringTimeoutMs ?? DEFAULT_RING_TIMEOUT_MS,
      status: input.direction === 'in' ? CallStatus.calling : CallStatus.init,
      outcome: null,
      connectedAt: 0,
      callIncome: 0,
      giftIncome: 0,
      deductionErrors: 0,
      listPrice: null,
      billingPeriodMs: null,
      balance: null,
      translations: [],
    };
    return context;
  },
  invoke: [
    { id: 'signals', src: 'signals' },
    { id: 'media', src: 'media' },
  ],
  initial: 'start',
  states: {
    start: {
      always: [
        {
          guard: 'offline',
          target: 'ended',
          actions: { type: 'end', params: { status: CallStatus.cancel, reason: null, text: CallText.offline } },
        },
        { guard: 'outgoing', target: 'outgoing' },
        { target: 'incoming' },
      ],
    },
    outgoing: {
      initial: 'creating',
      states: {
        creating: {
          invoke: {
            id: 'createCall',
            src: 'createCall',
            input: ({ context }) => ({ beCallUserId: context.peer.userId ?? 0, callType: context.callType }),
            onDone: { target: 'preparing', actions: { type: 'setInfo', params: ({ event }) => event.output } },
            onError: { target: '#call.ended', actions: 'endWithError' },
          },
        },
        preparing: {
          invoke: {
            id: 'prepare',
            src: 'prepare',
            input: ({ context }) => ({
              channelId: context.channelId ?? '', video: context.callType !== SignalAction.audioCall, account: context.account,
            }),
            onDone: 'ringing',
            onError: { target: '#call.ended', actions: 'endWithError' },
          },
        },
        ringing: {
          invoke: {
            id: 'ring',
            src: 'signal',
            input: ({ context }) => ({
              to: context.peer.account,
              action: context.callType === SignalAction.audioCall ? SignalAction.audioCall : SignalAction.videoCall,
              channelId: context.channelId ?? '',
            }),
            // The peer cannot be reached by signalling: she is not available.
            onError: {
              target: '#call.ended',
              actions: { type: 'end', params: { status: CallStatus.cancel, reason: null, text: CallText.unavailable } },
            },
          },
          after: { ringTimeout: 'timingOut' },
          on: {
            'signal.event': [
              { guard: 'accepted', target: '#call.connecting' },
              {
                guard: 'rejectedBusy',
                target: '#call.ended',
                actions: { type: 'end', params: { status: CallStatus.cancel, reason: HangupReason.remote, text: CallText.busy } },
              },
              {
                guard: 'rejected',
                target: '#call.ended',
                actions: { type: 'end', params: { status: CallStatus.cancel, reason: HangupReason.remote, text: CallText.refused } },
              },
            ],
            'system.callRefused': {
              target: '#call.ended',
              actions: { type: 'end', params: { status: CallStatus.cancel, reason: HangupReason.remote, text: CallText.refused } },
            },
            'call.cancel': 'cancelling',
          },
        },
        cancelling: {
          invoke: {
            id: 'cancelSignal',
            src: 'signal',
            input: ({ context }) => ({ to: context.peer.account, action: SignalAction.cancel, channelId: context.channelId ?? '' }),
            onDone: { target: '#call.ended', actions: { type: 'end', params: { status: CallStatus.cancel, reason: HangupReason.local, text: null } } },
            onError: { target: '#call.ended', actions: { type: 'end', params: { status: CallStatus.cancel, reason: HangupReason.local, text: null } } },
          },
        },
        /** Not answered in time: the peer is told, and the call is reported as not answered (30). */
        timingOut: {
          invoke: {
            id: 'timeoutSignal',
            src: 'signal',
            input: ({ context }) => ({
              to: context.peer.account, action: SignalAction.cancel, channelId: context.channelId ?? '',
              payload: { notAnswered: NOT_ANSWERED_SECONDS },
            }),
            onDone: { target: '#call.ended', actions: { type: 'end', params: { status: CallStatus.timeout, reason: null, text: null } } },
            onError: { target: '#call.ended', actions: { type: 'end', params: { status: CallStatus.timeout, reason: null, text: null } } },
          },
        },
      },
    },
    incoming: {
      initial: 'ringing',
      states: {
        ringing: {
          after: { ringTimeout: { target: '#call.ended', actions: { type: 'end', params: { status: CallStatus.timeout, reason: null, text: null } } } },
          on: {
            'signal.event': {
              guard: 'peerCancelled',
              target: '#call.ended',
              actions: { type: 'end', params: { status: CallStatus.cancel, reason: HangupReason.remote, text: null } },
            },
            'call.accept': 'accepting',
            'call.reject': 'rejecting',
          },
        },
        accepting: {
          invoke: {
            id: 'accept',
            src: 'accept',
            input: ({ context }) => ({
              channelId: context.channelId ?? '', peer: context.peer.account, video: context.callType !== SignalAction.audioCall,
              account: context.account,
            }),
            onDone: '#call.connecting',
            onError: { target: '#call.ended', actions: 'endWithError' },
          },
          on: {
            'signal.event': {
              guard: 'peerCancelled',
              target: '#call.ended',
              actions: { type: 'end', params: { status: CallStatus.cancel, reason: HangupReason.remote, text: null } },
            },
          },
        },
        rejecting: {
          invoke: {
            id: 'rejectSignal',
            src: 'reject',
            input: ({ context }) => ({ peer: context.peer.account, channelId: context.channelId ?? '' }),
            onDone: { target: '#call.ended', actions: { type: 'end', params: { status: CallStatus.cancel, reason: HangupReason.local, text: null } } },
            onError: { target: '#call.ended', actions: { type: 'end', params: { status: CallStatus.cancel, reason: HangupReason.local, text: null } } },
          },
        },
      },
    },
    /** Taken: waiting for the first remote frame. */
    connecting: {
      after: {
        connectTimeout: {
          target: 'hangingUp',
          actions: { type: 'end', params: { status: CallStatus.hungUp, reason: HangupReason.local, text: CallText.callError } },
        },
      },
      on: {
        'rtc.event': [
          { guard: 'firstFrame', target: 'connected' },
          {
            guard: 'linkLost',
            target: 'hangingUp',
            actions: { type: 'end', params: { status: CallStatus.hungUp, reason: HangupReason.weakNetwork, text: null } },
          },
        ],
        'signal.event': {
          guard: 'peerHungUp',
          target: 'ended',
          actions: { type: 'end', params: { status: CallStatus.hungUp, reason: HangupReason.remote, text: null } },
        },
        'call.hangup': {
          target: 'hangingUp',
          actions: { type: 'end', params: { status: CallStatus.hungUp, reason: HangupReason.local, text: null } },
        },
      },
    },
    connected: {
      entry: 'markConnected',
      invoke: [
        { id: 'giftList', src: 'giftList' },
        { id: 'giftQueue', src: 'giftQueue' },
      ],
      initial: 'choosing',
      states: {
        choosing: { always: [{ guard: 'isHost', target: 'hosting' }, { target: 'paying' }] },
        /** The host: asks for gifts; 16 tells her an ask was refused. */
        hosting: {
          invoke: { id: 'askGift', src: 'askGift', input: ({ context }) => ({ peer: context.peer.account }) },
          on: { 'system.askGiftRefused': { actions: sendTo('askGift', ({ event }) => event) } },
        },
        /** The user: pays, sends gifts and answers the host's asks. */
        paying: {
          invoke: {
            id: 'gifting',
            src: 'gifting',
            input: ({ context }) => ({ channelId: context.channelId ?? '', toUserId: context.peer.userId ?? 0, balance: context.balance }),
          },
          on: { 'system.giftAsked': { actions: sendTo('gifting', ({ event }) => event) } },
        },
      },
      on: {
        'call.hangup': {
          target: 'hangingUp',
          actions: { type: 'end', params: { status: CallStatus.hungUp, reason: HangupReason.local, text: null } },
        },
        'signal.event': {
          guard: 'peerHungUp',
          target: 'ended',
          actions: { type: 'end', params: { status: CallStatus.hungUp, reason: HangupReason.remote, text: null } },
        },
        'rtc.event': [
          {
            guard: 'remoteLeft',
            target: 'ended',
            actions: { type: 'end', params: { status: CallStatus.hungUp, reason: HangupReason.remote, text: null } },
          },
          {
            guard: 'linkLost',
            target: 'hangingUp',
            actions: { type: 'end', params: { status: CallStatus.hungUp, reason: HangupReason.weakNetwork, text: null } },
          },
        ],
        'system.callIncome': { actions: 'addCallIncome' },
        'system.giftIncome': { actions: 'addGiftIncome' },
        'system.inCallTranslation': { actions: 'addTranslation' },
        'system.giftReceived': { actions: 'toGiftQueue' },
        'call.deductionFailed': [
          {
            guard: 'deductionsExhausted',
            target: 'hangingUp',
            actions: ['countDeductionError', { type: 'end', params: { status: CallStatus.hungUp, reason: HangupReason.local, text: CallText.error } }],
          },
          { actions: 'countDeductionError' },
        ],
      },
    },
    /** Tell the peer (best effort), then end. */
    hangingUp: {
      invoke: {
        id: 'hangupSignal',
        src: 'signal',
        input: ({ context }) => ({ to: context.peer.account, action: SignalAction.hangup, channelId: context.channelId ?? '' }),
        onDone: 'ended',
        onError: 'ended',
      },
    },
    /** Media left and the server told; the outcome is kept for the end screen. */
    ended: {
      invoke: {
        id: 'cleanup',
        src: 'cleanup',
        input: ({ context }) => ({ channelId: context.channelId, reason: context.outcome?.reason ?? HangupReason.local }),
        onDone: 'over',
        onError: 'over',
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

/** SPEC §4 App call state, from a call snapshot (drives the host overlays). */
export function appCallStateOf(snapshot: { matches(value: unknown): boolean; status: string }): AppCallState {
  if (snapshot.status !== 'active') return 'empty';
  if (snapshot.matches({ incoming: 'ringing' }) || snapshot.matches({ outgoing: 'ringing' })) return 'calling';
  if (snapshot.matches('connecting') || snapshot.matches({ incoming: 'accepting' })) return 'callConnecting';
  if (snapshot.matches('connected')) return 'connected';
  return 'empty';
}
