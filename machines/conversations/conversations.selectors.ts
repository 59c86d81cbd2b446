/** Conversation-list snapshot → the rows of /news (SPEC §3 Chat session, §9 preview labels). */
import type { ActorRefFrom } from 'xstate';
import { previewOf } from '../im/preview';
import { DEFAULT_ONLINE_STATUS, orderSessions } from './conversations.machine';
import type { ConversationsContext, ConversationsMachine } from './conversations.machine';

export type ConversationsRef = ActorRefFrom<ConversationsMachine>;

/** How the customer-service account's chat is named, whoever wrote last (SPEC §1 customer-service account). */
export const TEXT_CUSTOMER_SERVICE = 'Customer Service';

export interface ChatRow {
  id: string;
  /** The peer's IM account. */
  to: string;
  nickname: string;
  icon: string | null;
  /** 1 online, 2 busy, 3 offline (the default). */
  onlineStatus: number;
  preview: string;
  time: number;
  unread: number;
  pinned: boolean;
  /** The chat with the customer-service account: named and pictured as such, with no online status. */
  customerService: boolean;
}

/**
 * The rows in display order: pinned first, then newest first. The chat with `customerService`
 * (its IM account, when known) is named 'Customer Service': it is no app user with a profile, and
 * the last message's sender may be the reader.
 */
export function chatRowsOf(
  context: Pick<ConversationsContext, 'sessions' | 'pinned' | 'profiles'>, customerService: string | null = null,
): ChatRow[] {
  return orderSessions(context.sessions, context.pinned).map((session) => {
    const profile = context.profiles[session.to];
    const service = customerService !== null && session.to === customerService;
    // The last message's sender is the peer only when it came in.
    const peerNick = session.lastMsg?.from === session.to ? session.lastMsg.fromNick?.trim() : undefined;
    return {
      id: session.id,
      to: session.to,
      nickname: service ? TEXT_CUSTOMER_SERVICE : profile?.nickname.trim() || peerNick || session.to,
      icon: profile?.icon || null,
      onlineStatus: profile?.onlineStatus ?? DEFAULT_ONLINE_STATUS,
      preview: session.lastMsg ? previewOf(session.lastMsg) : '',
      time: session.updateTime,
      unread: session.unread,
      pinned: context.pinned.includes(session.id),
      customerService: service,
    };
  });
}

export type ConversationsPhase = 'loading' | 'failed' | 'ready';

export function phaseOf(snapshot: { matches(value: 'waiting' | 'loading' | 'failed'): boolean }): ConversationsPhase {
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('waiting') || snapshot.matches('loading')) return 'loading';
  return 'ready';
}
