/**
 * The signed-in session's shapes (input, context, events, what it reports) and the banner
 * item of an incoming message, declared once for the session machine, its composition,
 * the root actor and tests.
 */
import type { CallsIntent, CallsOutput } from '../calls/calls.types';
import type { WalletMachine } from '../wallet/wallet.machine';

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
  /** The wallet's code has loaded and the wallet runs (its events go to it from then on). */
  walletReady: boolean;
}

export type SessionEvent =
  | { type: 'session.leave' }
  | { type: 'app.hidden' }
  | { type: 'app.visible' }
  | { type: 'user.input' }
  /** The IM connection's facts that are the session's own (it subscribes to them). */
  | { type: 'im.notification'; content: unknown; from: string }
  | { type: 'im.unreadChanged'; count: number }
  /** A child asks for a toast (e.g. a refused pin). */
  | { type: 'child.toast'; text: string }
  | { type: 'im.sessionEnded'; text: string | null }
  /** For the `calls` child: the live room's private call with its host (the screens ask the calls themselves). */
  | Extract<CallsIntent, { type: 'call.start' }>
  /** What the calls ask for: a toast, a log line. */
  | CallsOutput
  /** A child asks for navigation (the banner's tap, the live room's end). */
  | { type: 'child.navigate'; to: string }
  /** The wallet's code loaded (machines/shared/load-then-spawn.ts). */
  | { type: 'xstate.done.actor.loadWallet'; output: WalletMachine }
  /** The wallet asks for a page outside the app (a payment provider's). */
  | { type: 'child.openPage'; url: string }
  /** The wallet's summary says the person's VIP changed (a VIP purchase). */
  | { type: 'wallet.vip'; isVip: boolean };

export type SessionOutput =
  | { type: 'session.unread'; count: number }
  | { type: 'session.navigate'; to: string }
  | { type: 'session.toast'; text: string }
  | { type: 'session.log'; text: string }
  | { type: 'session.openPage'; url: string }
  | { type: 'session.vip'; isVip: boolean }
  | { type: 'session.becameHost' }
  | { type: 'session.followerAdded' };
