/**
 * What the signed-in session and its children reach the world through, each a named port of
 * machines/ports/ (with its fake there), and the loader of the per-use children's code. A leaf
 * of the session: its machines, its composition (session.actors.ts) and the per-use module
 * (per-use.actors.ts) all import it, and it imports none of them.
 */
import type { CallChildren } from '../calls/calls.types';
import type { LivePorts } from '../live-chat/live-chat.actors';
import type { LiveHostingMachine } from '../live-hosting/live-hosting.machine';
import type { LiveViewingMachine } from '../live-viewing/live-viewing.machine';
import type { CallApiPort, RtcPort } from '../ports/call.port';
import type { ChatApiPort } from '../ports/chat.port';
import type { ChatroomPort } from '../ports/chatroom.port';
import type { ClockPort } from '../ports/clock.port';
import type { GiftApiPort } from '../ports/gift.port';
import type { ImPort } from '../ports/im.port';
import type { LiveApiPort, LiveMediaPort } from '../ports/live.port';
import type { PinsPort } from '../ports/pins.port';
import type { ChatQuotaPort } from '../ports/chat-quota.port';
import type { PresencePort } from '../ports/presence.port';
import type { ProfilesPort } from '../ports/profiles.port';
import type { SettingsPort } from '../ports/settings.port';
import type { SignallingPort } from '../ports/signalling.port';
import type { TokensPort } from '../ports/tokens.port';
import type { TranslatorPort } from '../ports/translator.port';
import type { PresenceRetry } from '../presence/presence.actors';
import type { PayDataPort } from '../ports/pay-data.port';
import type { StorePay, WalletPort } from '../ports/wallet.port';
import type { TalkMachine } from '../talk/talk.machine';

export interface SessionPorts {
  im: ImPort;
  presence: PresencePort;
  clock: ClockPort;
  /** Fresh IM and signalling tokens. */
  tokens: TokensPort;
  /** The idle host's minutes (SPEC §4 Idle host). */
  settings: SettingsPort;
  /** Chat peers' profiles and the customer-service account (conversations, banner, talks). */
  profiles: ProfilesPort;
  /** A talk's Translate (SPEC §7 translation). */
  translator: TranslatorPort;
  /** A talk's blocking and secret (paid) messages. */
  chat: ChatApiPort;
  /** The pinned chats (conversations). */
  pins: PinsPort;
  /** Whom the person wrote to today (the talk screen's non-paid user quota); without it the day's record is not kept. */
  chatQuota?: ChatQuotaPort;
  /** A presence reconnect policy other than SPEC §9's: development only (presence.actors.ts PresenceRetry). */
  presenceRetry?: PresenceRetry;
  /** Calls (SPEC §7 Calls): signalling, the call API and the media. */
  signalling: SignallingPort;
  callApi: CallApiPort;
  rtc: RtcPort;
  /**
   * Loads what a call uses beside the machines (the call ports' and the media adapter's code),
   * opening nothing: asked for as a call starts or rings, beside the machines' own code, so the
   * two loads overlap instead of following each other.
   */
  warmCall?: () => void;
  /** The gifts of a call and of a live room (SPEC §7 Gifts). */
  giftApi: GiftApiPort;
  /**
   * Live rooms (SPEC §7 Calls and live): the live API, the room's media (one room at a time)
   * and the chat rooms. Without them, going live and watching fail with TEXT_LIVE_UNAVAILABLE.
   */
  liveApi?: LiveApiPort;
  liveMedia?: LiveMediaPort;
  chatroom?: ChatroomPort;
  /**
   * Money in (SPEC §4 Recharge, Crypto payment): the wallet API, the native store and where the
   * USDT order being paid is kept. Without them the wallet says it is not available.
   */
  wallet?: WalletPort;
  storePay?: StorePay;
  payData?: PayDataPort;
}

/** What an owner of the session provides; the IM token's refresh comes from the sign-in side. */
export type RealtimePorts = Omit<SessionPorts, 'tokens'> & { tokens: Pick<TokensPort, 'rtm'> };

/** The per-use module (per-use.actors.ts): the talk, the call and the lives composed with their ports. */
export interface PerUseModule {
  composeTalk(ports: SessionPorts): TalkMachine;
  composeCallChildren(ports: SessionPorts): CallChildren;
  composeLives(ports: LivePorts): { hosting: LiveHostingMachine; viewing: LiveViewingMachine };
}

/** Loads the per-use module for a use; tests pass one they settle by hand. */
export type PerUseLoader = (use: 'talk' | 'call' | 'live') => Promise<PerUseModule>;
