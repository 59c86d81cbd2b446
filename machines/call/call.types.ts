/**
 * The call's codes, texts and shapes (SPEC §3 Call info and enums, §4 Call status, §8 call
 * messages, §9 call constants), declared once for the call machine, its screens and tests.
 */
import type { CallInfo, CallTerms, RtcEvent } from '../ports/call.port';
import { CallApiError, MediaError } from '../ports/call.port';
import { SignalFailure } from '../ports/signalling.port';
import type { CallSignal, SignalEvent } from '../ports/signalling.port';
import type { SystemEvent } from '../system-messages/system-messages';
import { CallText, peerShortOfDiamonds } from './call.texts';
import type { InCallEvent } from './in-call.machine';
import type { Farewell } from './call-end.machine';

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

export { CallText };

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
  /** What the peer is told as the call ends (call-end.machine.ts), set with the outcome. */
  farewell: Farewell;
  /** The last warning the server sent of this call (SPEC §4 -3 type 3), while it was not over. */
  warning: string | null;
  /** When the first remote frame arrived (ms); 0 before. */
  connectedAt: number;
  /** The price before the VIP discount (peer.videoPrice is what is paid), when the server said. */
  listPrice: number | null;
  /** How often the server bills a period (ms), when it said. */
  billingPeriodMs: number | null;
  /** The payer's diamonds when the call was created (a paying caller) or rang (a paying callee); null for a host. */
  balance: number | null;
  /** The VIP discount applied to the price (percent paid, SPEC §6), when the server said one applies. */
  callDiscount: number | null;
  /**
   * The system messages of the call's room that came before it was connected (the first period is
   * charged as the callee takes the call, so its income notice can come while it still connects):
   * the room takes them as it starts (in-call.machine.ts).
   */
  early: readonly InCallEvent[];
  /**
   * The idempotency key of the person's intent (machines/shared/intent-key.ts): made as the call
   * is placed (createCall) or answered (joinCall, which charges the first period); null before.
   */
  intentKey: string | null;
}

export type CallEvent =
  | { type: 'call.cancel' }
  | { type: 'call.accept' }
  | { type: 'call.reject' }
  | { type: 'call.hangup' }
  | { type: 'signal.event'; event: SignalEvent }
  | { type: 'rtc.event'; event: RtcEvent }
  | SystemEvent;

/**
 * What a person is told of an error that ended the call. Short of diamonds (SPEC §8 1080), the
 * payer is told so in words (the end screen offers a recharge); a host is told that her peer, who
 * pays, cannot. Busy, a host is told 'The user is busy.' (she calls users). A ring that could not
 * go says why (SignalFailure); any other unexpected failure of the call is 'CallError. Please kill
 * the app and try again.'.
 */
export const errorText = (error: unknown, context?: Pick<CallContext, 'isHost' | 'peer'>): string => {
  if (error instanceof MediaError) return error.message;
  // The ring could not go (SignalFailure): SPEC §8's 'the user is currently unavaliable' is her absence, not an error.
  if (error instanceof SignalFailure) {
    switch (error.kind) {
      case 'unavailable': return CallText.unavailable;
      case 'disconnected': return CallText.serverError;
      default: return CallText.error;
    }
  }
  if (error instanceof CallApiError) {
    switch (error.refusal) {
      // SPEC §8: a host calling a user who is in a call hears 'The user is busy.'.
      case 'busy': return context?.isHost ? CallText.userBusy : CallText.busy;
      case 'offline': return CallText.unavailable;
      case 'balance': return context?.isHost ? peerShortOfDiamonds(context.peer.nickname) : CallText.balance;
      default: return CallText.serverError;
    }
  }
  return CallText.callError;
};


export const peerOf = (input: CallInput): CallPeer => {
  if (input.direction === 'out') return input.peer;
  const p = input.signal.payload ?? {};
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  return {
    account: input.signal.from,
    userId: num(p.userId), nickname: str(p.nickname), icon: str(p.icon), age: num(p.age),
    // No price from the ring: the caller's app says it, and what a callee pays is the server's to say (`terms`).
    countryCode: str(p.countryCode), levelName: str(p.levelName),
  };
};

/** A call's context as it starts. */
export const initialContext = (input: CallInput): CallContext => ({
  direction: input.direction,
  startedOnline: input.online,
  isHost: input.isHost,
  account: input.account,
  peer: peerOf(input),
  callType: input.direction === 'out' ? input.callType : input.signal.action,
  channelId: input.direction === 'in' ? input.signal.channelId : null,
  ringTimeoutMs: ringTimeoutOf(input) ?? DEFAULT_RING_TIMEOUT_MS,
  status: input.direction === 'in' ? CallStatus.calling : CallStatus.init,
  outcome: null,
  farewell: 'none',
  warning: null,
  connectedAt: 0,
  listPrice: null,
  billingPeriodMs: null,
  balance: null,
  callDiscount: null,
  early: [],
  intentKey: null,
});

/** What createCall's answer changes in the caller's context (SPEC §3 Call info). */
export const contextOfInfo = (context: CallContext, info: CallInfo): Partial<CallContext> => ({
  channelId: info.channelId,
  peer: {
    ...context.peer, account: info.yxAccid || context.peer.account, nickname: info.nickname, icon: info.icon,
    age: info.age, countryCode: info.countryCode, levelName: info.levelName, videoPrice: info.videoPrice,
  },
  listPrice: info.listPrice ?? null,
  billingPeriodMs: info.billingPeriodMs ?? null,
  balance: info.balance ?? null,
  callDiscount: info.callDiscount ?? null,
  // The server's ring time (config callTimeOutNum): both sides then ring as long as it does.
  ringTimeoutMs: validRingTimeout(info.ringTimeoutMs) ?? context.ringTimeoutMs,
  // Created while a refused camera already ends the call (the outcome is set): it stays as that end says.
  status: context.outcome?.status ?? CallStatus.calling,
});

/** What the server says a call costs the callee, who rings (SPEC §6 VIP discount); the balance only when she pays. */
export const contextOfTerms = (context: CallContext, terms: CallTerms): Partial<CallContext> => ({
  peer: { ...context.peer, videoPrice: terms.videoPrice },
  listPrice: terms.listPrice,
  billingPeriodMs: terms.billingPeriodMs,
  callDiscount: terms.callDiscount ?? null,
  balance: terms.youPay ? terms.balance ?? null : null,
});

/** How many room messages are kept from before the call was connected (a few periods' income at most come then). */
export const MAX_EARLY = 20;

/** A ring time from the server or the ring's payload, when it is a sane one (5 s to 5 min). */
export const validRingTimeout = (ms: unknown): number | undefined =>
  typeof ms === 'number' && Number.isInteger(ms) && ms >= 5_000 && ms <= 300_000 ? ms : undefined;

/** The ring time of a call: the caller's from its input (later the server's), the callee's from the ring. */
export const ringTimeoutOf = (input: CallInput): number | undefined =>
  (input.direction === 'in' ? validRingTimeout(input.signal.payload?.ringTimeoutMs) : undefined) ?? input.ringTimeoutMs;

/**
 * The channel whose end the server is told of when a call ends, or null for none: no call was
 * created, or an incoming ring ran out (the server's own time-out ends that one for both sides;
 * telling it from here would read as a refusal to the caller).
 */
export const channelToTell = (context: Pick<CallContext, 'channelId' | 'direction' | 'outcome'>): string | null =>
  context.direction === 'in' && context.outcome?.status === CallStatus.timeout ? null : context.channelId;

/** The payload of a reject signal (busy, unavailable), or nothing. */
export const rejectPayload = (event: CallEvent): Record<string, unknown> =>
  (event.type === 'signal.event' && event.event.type === 'signal' ? event.event.signal.payload : undefined) ?? {};

export const isSignal = (event: CallEvent, context: CallContext, ...actions: number[]) =>
  event.type === 'signal.event' && event.event.type === 'signal'
  && event.event.signal.channelId === context.channelId && actions.includes(event.event.signal.action);

export const isRtc = (event: CallEvent, type: RtcEvent['type']) => event.type === 'rtc.event' && event.event.type === type;

export { appCallStateOf } from './app-call-state';
