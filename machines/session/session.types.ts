/**
 * The signed-in session's shapes (input, context, events, what it reports) and the banner
 * item of an incoming message, declared once for the session machine, its composition,
 * the root actor and tests.
 */
import type { SnapshotFrom } from 'xstate';
import { TEXT_SYSTEM_SENDER } from '../banner/banner.machine';
import type { BannerItem } from '../banner/banner.machine';
import type { AppCallState, CallInput, CallMachine, CallPeer, CallSummary } from '../call/call.machine';
import { isRecharge, previewOf } from '../im/preview';
import type { LiveSetting } from '../live-hosting/live-hosting.machine';
import type { ImConversation, ImMessage } from '../ports/im.port';
import type { CallSignal } from '../ports/signalling.port';
import type { CallChildren, TalkLogic } from './per-use.actors';

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
  /** A call is under way (the `call` child runs, or its code loads). */
  inCall: boolean;
  /** The input of the call while its code loads (the call then starts with it). */
  pendingCall: CallInput | null;
  /** The peer of the call's chat (the `callChat` child), while a call is under way. */
  callPeer: string | null;
  /** SPEC §4 App call state of the running call, as its last snapshot said ('empty' without one). */
  callState: AppCallState;
  /**
   * The input of the call's chat until it starts: once the call is connected (nothing shows the
   * chat before, and loading its history and the peer's card would slow setting the call up), its
   * code is asked for (`loadCallChat`) and the chat starts with it.
   */
  pendingCallChat: { peer: string; account: string } | null;
  /** How the last call ended, until the end screen is dismissed. */
  lastCall: CallSummary | null;
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
  /** The IM connection's answer to a send of the talk. */
  | { type: 'talk.sent'; idClient: string; message: ImMessage }
  | { type: 'talk.sendFailed'; idClient: string; reason: 'notConnected' | 'refused' | 'error'; text: string }
  /** The person taps call (SPEC §2 call button on /talk); `online` as the device says now. */
  | { type: 'call.start'; peer: CallPeer; callType: number; online: boolean }
  /** Someone calls (a ring signal from signalling). */
  | { type: 'call.ringing'; signal: CallSignal }
  | { type: 'call.dismiss' }
  /** The per-use children's code (per-use.actors.ts): loaded when a talk opens, a call starts or rings. */
  | { type: 'xstate.done.actor.loadTalk'; output: TalkLogic }
  | { type: 'xstate.error.actor.loadTalk'; error: unknown }
  | { type: 'xstate.done.actor.loadCall'; output: CallChildren }
  | { type: 'xstate.error.actor.loadCall'; error: unknown }
  | { type: 'xstate.done.actor.loadCallChat'; output: TalkLogic }
  | { type: 'xstate.error.actor.loadCallChat'; error: unknown }
  /** The call child's snapshots (it is spawned with syncSnapshot). */
  | { type: 'xstate.snapshot.call'; snapshot: SnapshotFrom<CallMachine> }
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
