/**
 * What a call needs from the world besides signalling (signalling.port.ts): the call API
 * of SPEC §7 and the media of the call (RTC: Agora in production, browser WebRTC locally).
 */

/** SPEC §3 Call info, as createCall answers it (every field untrusted beyond its type). */
export interface CallInfo {
  channelId: string;
  /** The peer's IM / signalling account. */
  yxAccid: string;
  videoPrice: number;
  nickname: string;
  age?: number;
  icon?: string;
  countryCode?: string;
  userType?: number;
  followed?: boolean;
  levelName?: string;
  /** Reference-server additions: the price before the VIP discount, the billing period (ms), the caller's diamonds when paying. */
  listPrice?: number;
  billingPeriodMs?: number;
  balance?: number;
  /** How long the server lets the call ring (config callTimeOutNum), ms. */
  ringTimeoutMs?: number;
  /** The VIP discount applied (percent paid, SPEC §6), when it is. */
  callDiscount?: number;
}

/** What a call costs, as the server tells a party of it (a callee asks as it rings; every field untrusted beyond its type). */
export interface CallTerms {
  /** Diamonds a period, after the VIP discount. */
  videoPrice: number;
  listPrice: number;
  /** The VIP discount applied (percent paid, SPEC §6), when it is. */
  callDiscount?: number;
  billingPeriodMs: number;
  /** Whether the one who asked pays for the call. */
  youPay: boolean;
  /** The asker's diamonds, when the asker pays. */
  balance?: number;
}

/** Why a call could not be created (SPEC §8 call messages). */
export type CreateCallRefusal = 'busy' | 'offline' | 'balance' | 'error';

export class CallApiError extends Error {
  override name = 'CallApiError';
  constructor(readonly refusal: CreateCallRefusal, message: string) {
    super(message);
  }
}

/** SPEC §3 Call rating payload. */
export interface CallRating {
  channelId: string;
  callType: number;
  category: number;
  answerTime: number;
  userType: number;
  /** 0 or 1 (SPEC §5). */
  abnormal: 0 | 1;
}

export interface CallApiPort {
  /**
   * `/api/call/record/v2/createCall`; rejects with CallApiError. `idempotencyKey` is the call's
   * (machines/shared/intent-key.ts): the same request again answers the same call.
   */
  createCall(request: { beCallUserId: number; callType: number; idempotencyKey: string }): Promise<CallInfo>;
  /**
   * `/api/call/record/v2/joinCall` (searchValue = channel id): the callee takes the call, which
   * charges its first period; `idempotencyKey` is the answer's: the same request again charges once.
   */
  joinCall(channelId: string, idempotencyKey: string): Promise<void>;
  /** What the call costs and whether the asker pays (a callee asks as it rings: the payer sees it before taking the call). */
  terms(channelId: string): Promise<CallTerms>;
  /** Ends the call on the server (billing stops); safe to repeat. */
  endCall(channelId: string, reason: number): Promise<void>;
  rate(rating: CallRating): Promise<void>;
  /** Who an IM account is (nickname, avatar, age, country, level), for the waiting-call screen. */
  peerCard(account: string): Promise<{ userId?: number; nickname?: string; icon?: string; age?: number; countryCode?: string; levelName?: string }>;
}

/** The media error texts of SPEC §3 Call enums, by failure. */
export const MediaErrorText = {
  notSupported: 'Your device does not support video calls.',
  optionInvalid: 'The camera settings are not valid.',
  deviceNotFound: 'No camera or microphone was found.',
  permissionDenied: 'Camera and microphone permission was denied.',
  constraintNotSatisfied: 'The camera cannot provide the required video.',
  shareAudioNotAllowed: 'Sharing audio is not allowed.',
} as const;
export type MediaErrorKind = keyof typeof MediaErrorText;

export class MediaError extends Error {
  override name = 'MediaError';
  constructor(readonly kind: MediaErrorKind) {
    super(MediaErrorText[kind]);
  }
}

export type RtcEvent =
  /** The first decoded frame of the peer's video: the call is connected (SPEC: not just a join). */
  | { type: 'firstRemoteFrame' }
  /** The peer's sound first arrives: an audio call (signalling action 10), which has no video, is connected then. */
  | { type: 'firstRemoteAudio' }
  | { type: 'remoteLeft' }
  /** The link to the media server is gone for good. */
  | { type: 'connectionLost' }
  /** 0 unknown … 6 down (Agora's scale); 5 and 6 are a weak network. */
  | { type: 'networkQuality'; quality: number }
  /**
   * The own camera or microphone of this call could not be opened (a MediaError, or why the
   * library could not load): said however the prepare was waited for, so that a call that went
   * on without waiting (`mediaAllowed`) hears it too.
   */
  | { type: 'mediaFailed'; error: unknown };

/** The channel a callee is rung for and her account in it: what she would join if she took the call. */
export interface RtcRinging {
  channelId: string;
  account: string;
}

export interface RtcPort {
  /**
   * Loads the media library (up to 3 attempts), opens camera and microphone; rejects with MediaError.
   * One preparation per call: a prepare while one is under way or done answers with it (a failed one
   * is tried again), until `leave`. It may get ready what the join needs besides (a token, a link).
   * A callee's prepare while it rings names the call's channel (`ringing`): the adapter may get the
   * link with the caller ready too, but sends nothing of it and no media flows until `join`.
   */
  prepare(video: boolean, ringing?: RtcRinging): Promise<void>;
  /**
   * Whether camera and microphone are allowed already (the browser will not ask the person), as
   * far as the adapter can tell now; false while it cannot. A caller's ring then need not wait
   * for them to open: nobody is deciding, and a failure to open them after all is `mediaFailed`.
   */
  mediaAllowed(): boolean;
  /** Joins the channel and publishes; answers when joined. */
  join(channelId: string, account: string): Promise<void>;
  leave(): Promise<void>;
  subscribe(listener: (event: RtcEvent) => void): () => void;
}
