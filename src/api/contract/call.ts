/**
 * One-to-one calls (SPEC §3 Call info and rating payload, §4 Call status and System messages,
 * §5 host call authorisation, §6 VIP discount, §7 Calls and live, §8 call messages, §9 call
 * constants). The reference server's behaviour, which SPEC leaves unshown, is decided here.
 *
 * Who pays: the normal user (userType 1) of the call pays, the host earns, whichever of the
 * two placed the call. A user calls a host; a host calls a user only when the host's level is
 * in the `achor_hide_button` list and `prime_achor_can_call` is '1' (SPEC §5); any other pair
 * is refused (TEXT_CALL_PAIR). The price of a period is the host's `videoPrice` (diamonds a
 * minute), for video and audio alike; a VIP payer pays `floor(price × d / 100)` where d is the
 * VIP shop's `callDiscount` (app config VIP_CALL_DISCOUNT_KEY, seeded 80: the app shows
 * "100 − 80 = 20 % off", SPEC §6). A period is a minute unless the server is started with a
 * shorter one (tests, e2e: CALL_BILLING_PERIOD_MS).
 *
 * createCall and joinCall carry an idempotency key (src/api/contract/idempotency.ts): the same
 * request received again answers as the first did and changes nothing.
 *
 * createCall refusals, with the §8 codes that are "resolved with code and message":
 * 1992 the callee is busy: in another call, ringing or connected, or live without private
 * calls ('She is busy on the line. You can call her later.'); 2001 the callee cannot be
 * reached ("She's not available right now;you can call another girl instead."): reachable
 * means the hub's presence says foreground, call end or calling (the home list's online or
 * busy), or the callee's signalling socket is logged in while the presence is not
 * background; a callee who blocked the caller is not available either; 1080
 * 'diamond.not.enough': the payer has less than one period's (discounted) price. Other
 * refusals are code 1000 with one of the TEXT_ messages below.
 *
 * Lifecycle (SPEC §4 Call status): createCall stores the call as calling (1; init 0 is never
 * stored, as the record exists only once the request succeeded) and pushes the callee -3
 * type 0 {channelId}. A caller who creates a call while still in an older one ends the older
 * one first (a left-over of a reload or a crash; this stops its billing). joinCall by the
 * callee makes it in progress (3) and charges the first period at once, then one period every
 * billing period while connected.
 *
 * Who ended a call is what the server saw first, never what an app claims: the end intent of an
 * authenticated party, either its end signal (cancel 1, reject 3, hangup 4) as the hub relays it
 * or its endCall, whichever reaches the server first; the other party's end that follows (told
 * by that signal) changes nothing. While ringing the caller's end is a cancel (2, endCause
 * 'cancel') and the callee's a refusal (2, 'reject': the caller gets -3 type 1 'The other party
 * has refused.'; a reject signal that says busy or unavailable is 'busy' or 'unavailable', with
 * no -3 type 1); connected it is hung up (4, 'hangup'). The record keeps the ender (`ended_by`)
 * and the ender's own reason: 1, or 6 when its endCall (or its hangup signal's payload `reason`)
 * says weak network; the records show it per reader (1 for the ender, 2 for the other party, 6
 * for both). An endCall with hangupReason 2 ("the other side ended it") that reaches the server
 * before any end of that other side is nobody's intent: the call ends as 'dropped', reason 6,
 * ended by nobody. A ring (signalling action 0 or 10) that the hub cannot deliver because the
 * callee has no signalling connection ends the ringing call at once as 'unavailable' (ended by
 * nobody); the callee gets -3 type 3 {channelId, content: "You missed a call from …"}.
 *
 * Not answered within the ring time-out (30 s unless configured): timeout (5). The server ends
 * a connected call itself when the payer cannot pay the next period (endCause 'balance') and when a party is known
 * to be gone (presence offline for the server's offline grace, without a signalling socket:
 * endCause 'offline') or when charging a period failed 3 times in a row (endCause 'deduction',
 * SPEC §3 deductionErrMaxNum); both sides then get -3 type 3 {channelId, content} and a signalling
 * hangup (action 4) that names the other side as its sender with payload {byServer: true,
 * endCause}. A ring time-out sends the callee a signalling cancel (action 1) the same way.
 *
 * Billing (server/api/billing.ts): each period is one transaction that records the period
 * (UNIQUE per call and period index, so it is never charged twice), takes the diamonds with a
 * conditional UPDATE (never below zero), credits the host's income, writes both to the wallet
 * flows and stores the host's attachType 15 {num: amount} notification, which is pushed after
 * the commit. After a restart, a connected call whose next period fell due less than one
 * period before the restart's end is resumed (the period now running is charged if it was
 * not); one that missed more is settled: hung up as of the end of its last paid period
 * (endCause 'restart'), with nothing more taken. Ringing calls are timed out when their ring
 * time has passed, else their time-out is rescheduled.
 */
import * as z from 'zod/mini';
import { Empty, ImageUrl, defineEndpoint } from './endpoint';
import { IdempotencyKey } from './idempotency';

export const CallRefusalCode = { busy: '1992', unavailable: '2001', balance: '1080' } as const;

export const TEXT_CALL_BUSY = 'She is busy on the line. You can call her later.';
export const TEXT_CALL_UNAVAILABLE = "She's not available right now;you can call another girl instead.";
export const TEXT_CALL_SELF = 'You cannot call yourself.';
export const TEXT_CALL_PAIR = 'Calls are between a user and a host.';
export const TEXT_HOST_CANNOT_CALL = 'Your host level does not allow calling users.';
export const TEXT_CALL_NOT_FOUND = 'This call does not exist.';
export const TEXT_CALL_ENDED = 'This call has ended.';
export const TEXT_NOT_CALLEE = 'Only the person called can take the call.';
/** -3 type 3 contents of the calls the server ends. */
export const TEXT_CALL_END_BALANCE = 'Not enough diamonds to continue: the call has ended.';
export const TEXT_CALL_END_OFFLINE = 'The other party lost the connection: the call has ended.';
export const TEXT_CALL_END_TIMEOUT = 'No answer: the call has ended.';
export const TEXT_CALL_END_DEDUCTION = 'The call could not be charged: the call has ended.';
/** -3 type 3 content to a callee whose app could not be rung (endCause 'unavailable'): who called. */
export const missedCallText = (callerNick: string): string => `You missed a call from ${callerNick}.`;

/**
 * SPEC §3 Call info deductionErrMaxNum, §9 "deduction max 3": a connected call whose period
 * cannot be charged this many times in a row ends (endCause 'deduction'); each failure is
 * tried again after DEDUCTION_RETRY_MS (or the billing period, if shorter), so nobody talks
 * unpaid for more than a few seconds.
 */
export const DEDUCTION_ERR_MAX_NUM = 3;
export const DEDUCTION_RETRY_MS = 5_000;

/** SPEC §4 Call status. */
export const CallStatus = { init: 0, calling: 1, cancel: 2, inProgress: 3, hungUp: 4, timeout: 5 } as const;
export type CallStatus = (typeof CallStatus)[keyof typeof CallStatus];

/** SPEC §4 hangup reasons. */
export const HangupReason = { local: 1, remote: 2, weakNetwork: 6 } as const;
export type HangupReason = (typeof HangupReason)[keyof typeof HangupReason];

/** The callType of a call: its signalling action (SPEC §3: video call 0, audio call 10). */
export const CallType = { video: 0, audio: 10 } as const;
export type CallType = (typeof CallType)[keyof typeof CallType];

/** Why a call ended, as the records show it (reference server). */
export const EndCause = {
  /** The caller cancelled while ringing. */
  cancel: 'cancel',
  /** The callee refused while ringing. */
  reject: 'reject',
  /** Either side hung up a connected call. */
  hangup: 'hangup',
  /** Not answered within the ring time-out. */
  timeout: 'timeout',
  /** The payer could not pay the next period. */
  balance: 'balance',
  /** A party was gone (presence offline past the grace, no signalling). */
  offline: 'offline',
  /** Settled after a server restart (see above). */
  restart: 'restart',
  /** The caller placed a new call while this one was still open. */
  replaced: 'replaced',
  /** Charging a period failed DEDUCTION_ERR_MAX_NUM times in a row (not for want of diamonds). */
  deduction: 'deduction',
  /** The callee's app turned the ring down as busy (it is in another call). */
  busy: 'busy',
  /**
   * The callee could not be rung: the caller's ring found no signalling connection of hers (the
   * hub saw it fail), or her app could not take the call (its reject said so).
   */
  unavailable: 'unavailable',
  /**
   * A party's app said the other side had gone (its media left without a word, hangupReason 2)
   * while the server had no end from that side: nobody's intent ended it (weak network).
   */
  dropped: 'dropped',
} as const;
export type EndCause = (typeof EndCause)[keyof typeof EndCause];

/** SPEC §9: calling time-out default 30 s. The server's ring time-out (configurable). */
export const DEFAULT_RING_TIMEOUT_MS = 30_000;
/** One billing period: a minute (videoPrice is diamonds a minute); configurable for tests. */
export const DEFAULT_BILLING_PERIOD_MS = 60_000;
/** App config key of the VIP shop's callDiscount (percent paid, 1–100; anything else is no discount). */
export const VIP_CALL_DISCOUNT_KEY = 'vip_call_discount';

/** SPEC §6: price × discount / 100, floored. */
export function discountedPrice(price: number, callDiscount: number): number {
  return Math.floor((price * callDiscount) / 100);
}

const channelId = z.string().check(z.minLength(1), z.maxLength(128));
const callType = z.union([z.literal(CallType.video), z.literal(CallType.audio)]);

/** SPEC §3 Call info, as createCall answers it. */
export const CallInfo = z.object({
  channelId: z.string(),
  /** The callee's IM / signalling account. */
  yxAccid: z.string(),
  /** Diamonds per period the payer pays (VIP discount applied). */
  videoPrice: z.number(),
  countryCode: z.optional(z.string()),
  nickname: z.string(),
  age: z.optional(z.number()),
  icon: z.optional(ImageUrl),
  userType: z.optional(z.number()),
  /** Whether the caller follows the callee. */
  followed: z.optional(z.boolean()),
  levelName: z.optional(z.string()),
  /** Reference-server additions (always sent): the callee's user id, the call's type, the price before discount. */
  callUserId: z.optional(z.number()),
  callType: z.optional(z.number()),
  listPrice: z.optional(z.number()),
  /** The server's billing period and ring time-out, in ms. */
  billingPeriodMs: z.optional(z.number()),
  ringTimeoutMs: z.optional(z.number()),
  /**
   * Reference-server addition: the caller's diamonds when the call was created, sent when the
   * caller pays (a user calling a host). SPEC §7 names no wallet balance endpoint for users, so
   * the call screen starts from this and goes on with videoPrice per billing period.
   */
  balance: z.optional(z.number()),
  /**
   * Reference-server addition: the VIP shop's callDiscount (percent paid, SPEC §6) when the
   * payer is a VIP and the discount applies; the app shows it as "100 − d % off".
   */
  callDiscount: z.optional(z.number()),
});

export const createCall = defineEndpoint({
  path: '/api/call/record/v2/createCall',
  method: 'POST',
  auth: 'session',
  /**
   * callType: the signalling action of the call (0 video, 10 audio). idempotencyKey: one per
   * call placed (src/api/contract/idempotency.ts): the same request again answers the same call
   * (without it, it would end the call it made as a left-over and place another).
   */
  request: z.object({ beCallUserId: z.int().check(z.positive()), callType, idempotencyKey: IdempotencyKey }),
  response: CallInfo,
});

/**
 * The callee takes the call (searchValue: the channel id); billing starts with the first
 * period. Taking a call already taken is no error (a retry after the 3 s time-out, SPEC §9).
 * Refusals: TEXT_CALL_NOT_FOUND (unknown, or not the caller's call), TEXT_NOT_CALLEE,
 * TEXT_CALL_ENDED; 1080 'diamond.not.enough' when the payer cannot pay the first period (the
 * call is then ended with endCause 'balance': a refusal that moved no money, so not stored).
 * idempotencyKey: one per answer of the call (src/api/contract/idempotency.ts): the same
 * request again answers as the first did, also once the call has ended, and charges nothing.
 */
export const joinCall = defineEndpoint({
  path: '/api/call/record/v2/joinCall',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: channelId, idempotencyKey: IdempotencyKey }),
  response: Empty,
});

/**
 * What a call costs, as one of its parties asks it (reference-server extension; SPEC §7 names
 * no path for it): the price a period after the VIP discount (`videoPrice`), the price before
 * it, the discount when it applies (percent paid), the billing period, whether the asker pays,
 * and then the asker's diamonds. A user called by a host pays (see above) and is rung by the
 * host's app, whose ring says nothing trusted about money: the callee's app asks this as it
 * rings, so that the payer sees the price and the balance before taking the call.
 * searchValue: the channel id; TEXT_CALL_NOT_FOUND for anyone not in the call.
 */
export const CallTerms = z.object({
  videoPrice: z.number(),
  listPrice: z.number(),
  callDiscount: z.optional(z.number()),
  billingPeriodMs: z.number(),
  youPay: z.boolean(),
  /** The asker's diamonds now, when the asker pays. */
  balance: z.optional(z.number()),
});
export type CallTerms = z.output<typeof CallTerms>;

export const callTerms = defineEndpoint({
  path: '/api/call/record/v2/callTerms',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: channelId }),
  response: CallTerms,
});

/**
 * Reference-server extension (SPEC §7 names no path for it): either side ends the call
 * (hangupReason 1 local, 2 remote, 6 weak network, as the app saw it); billing stops. Ending
 * twice is not an error. Who ended it is decided as the lifecycle above says, not by the reason.
 */
export const endCall = defineEndpoint({
  path: '/api/call/record/v2/endCall',
  method: 'POST',
  auth: 'session',
  request: z.object({
    channelId,
    hangupReason: z.union([z.literal(HangupReason.local), z.literal(HangupReason.remote), z.literal(HangupReason.weakNetwork)]),
  }),
  response: Empty,
});

/**
 * SPEC §7 /api/chat/callRate with the §3 Call rating payload (abnormal 0 or 1, SPEC §5). Only
 * a party of the call rates it (else TEXT_CALL_NOT_FOUND); rating again replaces one's rating.
 */
export const callRate = defineEndpoint({
  path: '/api/chat/callRate',
  method: 'POST',
  auth: 'session',
  request: z.object({
    channelId,
    callType: z.int(),
    category: z.int().check(z.minimum(0), z.maximum(10)),
    answerTime: z.int().check(z.minimum(0)),
    userType: z.int(),
    abnormal: z.union([z.literal(0), z.literal(1)]),
  }),
  response: Empty,
});

/** One call as its parties see it (SPEC §3 Call info names; the news records list, SPEC §2). */
export const CallRecord = z.object({
  channelId: z.string(),
  /** 'out' for the caller, 'in' for the callee. */
  callInOrOut: z.enum(['in', 'out']),
  /** 0 video, 10 audio. */
  callType: z.number(),
  /** SPEC §4 Call status 0–5. */
  status: z.number(),
  /** The other party. */
  callUserId: z.number(),
  yxAccid: z.string(),
  nickname: z.string(),
  icon: ImageUrl,
  userType: z.number(),
  /** Diamonds per period of this call (after discount). */
  videoPrice: z.number(),
  /** Milliseconds since the epoch: created (ringing), connected, ended. */
  callStartTime: z.number(),
  callConnectTime: z.nullable(z.number()),
  callEndTime: z.nullable(z.number()),
  /** Seconds connected (0 when never connected). */
  callDuration: z.number(),
  /** SPEC §4 hangup reason as the reader sees it: 1 the reader ended it, 2 the other party did, 6 weak network; null when the server ended it. */
  hangupReason: z.nullable(z.number()),
  endCause: z.nullable(z.string()),
  /** Periods charged and the diamonds they moved (what the payer paid and the host earned). */
  periods: z.number(),
  callIncome: z.number(),
  /** Diamonds of gifts sent within the call. */
  callGiftIncome: z.number(),
});
export type CallRecord = z.output<typeof CallRecord>;

export const MAX_CALL_RECORD_PAGE_SIZE = 100;

/** Reference-server extension: the caller's calls, made and received, newest first. */
export const callRecordList = defineEndpoint({
  path: '/api/call/record/list',
  method: 'POST',
  auth: 'session',
  request: z.object({
    currentPage: z.int().check(z.minimum(1), z.maximum(1_000_000)),
    pageSize: z.int().check(z.minimum(1), z.maximum(MAX_CALL_RECORD_PAGE_SIZE)),
  }),
  response: z.object({ list: z.array(CallRecord), total: z.number(), currentPage: z.number(), pageSize: z.number() }),
});

/** Reference-server extension: one call of the caller by channel id (an in-call screen after a reload). */
export const callRecordDetail = defineEndpoint({
  path: '/api/call/record/detail',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: channelId }),
  response: CallRecord,
});

/** The content of the IM notifications the call pushes (SPEC §4 System messages). */
export const CallIncomeNotice = z.object({
  attachType: z.literal(15),
  /** Diamonds added to the host's call income by this period. */
  num: z.number(),
  channelId: z.string(),
  period: z.number(),
});
export type CallIncomeNotice = z.output<typeof CallIncomeNotice>;

/**
 * -1: a line of a connected call's chat, translated into its reader's language (SPEC §4 System
 * messages): when a party sends the other a text during the call and the two speak different
 * languages (the language of each one's country), the server translates it and sends the reader
 * this beside the message itself.
 */
export const CallTranslationNotice = z.object({
  attachType: z.literal(-1),
  /** The translated text. */
  content: z.string(),
  channelId: z.string(),
});
export type CallTranslationNotice = z.output<typeof CallTranslationNotice>;

/** -3: type 0 to the callee at createCall (the target channel), 1 to a refused caller, 3 a server-ended call. */
export const CallStateNotice = z.object({
  attachType: z.literal(-3),
  type: z.union([z.literal(0), z.literal(1), z.literal(3)]),
  channelId: z.string(),
  content: z.optional(z.string()),
  /** Type 0: the caller; type 3: why it ended. */
  callType: z.optional(z.number()),
  fromUserId: z.optional(z.number()),
  endCause: z.optional(z.string()),
});
export type CallStateNotice = z.output<typeof CallStateNotice>;
