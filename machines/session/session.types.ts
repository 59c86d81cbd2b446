/**
 * The signed-in session's shapes (input, context, events, what it reports) and the banner
 * item of an incoming message, declared once for the session machine, its composition,
 * the root actor and tests.
 */
import { TEXT_SYSTEM_SENDER } from '../banner/banner.machine';
import type { BannerItem } from '../banner/banner.machine';
import { isRecharge, previewOf } from '../im/preview';
import type { LiveSetting } from '../live-hosting/live-hosting.machine';
import type { ImConversation, ImMessage } from '../ports/im.port';
import type { CallSignal } from '../ports/signalling.port';
import type { CallsIntent, CallsOutput } from './calls.types';
import type { TalkLogic } from './per-use.actors';

export interface SessionInput {
  isHost: boolean;
  /** VIP members may pin chats (SPEC §6). */
  isVip: boolean;
  /** The IM account and token of the signed-in person. */
  account: string;
  token: string;
  /** How the person shows in live rooms (their chat-room entry); without it, the account with no level. */
  profile?: { nick: string; avatar?: string; userLevel: number; isNewUser: boolean };
}

export interface SessionContext extends SessionInput {
  /** Why the session ended, when it ended by itself. */
  endText: string | null;
  /** The peer of the open talk screen, if one is open. */
  talkPeer: string | null;
  /** The input of the talk while its code loads (the talk then starts with it). */
  pendingTalk: { peer: string; account: string } | null;
}

export type SessionEvent =
  | { type: 'session.leave' }
  | { type: 'app.hidden' }
  | { type: 'app.visible' }
  | { type: 'user.input' }
  | { type: 'im.message'; message: ImMessage }
  | { type: 'im.notification'; content: unknown; from: string }
  | { type: 'im.unreadChanged'; count: number }
  | { type: 'im.conversationChanged'; conversation: ImConversation }
  | { type: 'im.connected' }
  /** A child asks for a toast (e.g. a refused pin). */
  | { type: 'child.toast'; text: string }
  | { type: 'im.sessionEnded'; text: string | null }
  | { type: 'banner.navigate'; to: string }
  /** The talk screen opened or closed (SPEC §2 /talk). */
  | { type: 'talk.open'; peer: string }
  | { type: 'talk.close' }
  /** The IM connection's answer to a send of a chat (the talk screen's or the call's). */
  | { type: 'talk.sent'; idClient: string; message: ImMessage }
  | { type: 'talk.sendFailed'; idClient: string; reason: 'notConnected' | 'refused' | 'error'; text: string }
  /** For the `calls` child: a call tapped or ringing, the end screen closed. */
  | CallsIntent
  /** What the calls ask for: a toast, a log line, a ring turned down as busy. */
  | CallsOutput
  /** The talk's code (per-use.actors.ts): loaded when a talk opens. */
  | { type: 'xstate.done.actor.loadTalk'; output: TalkLogic }
  | { type: 'xstate.error.actor.loadTalk'; error: unknown }
  /** SPEC §2 live rooms: go live (hosts), watch a host's room, dismiss /liveEnds; handled by the `live` child. */
  | { type: 'live.begin'; setting: LiveSetting }
  | { type: 'live.watch'; hostUserId: number }
  | { type: 'live.dismiss' }
  /** The beauty camera failed (SPEC §8: during a live, the live ends, code 99). */
  | { type: 'beauty.failed'; text?: string }
  /** A child asks for navigation. */
  | { type: 'child.navigate'; to: string };

/** What the signalling link is told: turn this ring down, she is in another call. */
export type SignalLinkEvent = { type: 'busy'; signal: CallSignal };

export type SessionOutput =
  | { type: 'session.unread'; count: number }
  | { type: 'session.navigate'; to: string }
  | { type: 'session.toast'; text: string }
  | { type: 'session.log'; text: string }
  | { type: 'session.becameHost' }
  | { type: 'session.followerAdded' };

/** The banner for an incoming message (SPEC §2 incoming-message banner). */
export function bannerItemFor(message: ImMessage): BannerItem {
  const system = message.from === '' || isRecharge(message);
  return {
    from: message.from,
    nick: system ? TEXT_SYSTEM_SENDER : message.fromNick?.trim() || message.from,
    avatar: null,
    preview: previewOf(message),
    recharge: isRecharge(message),
  };
}
