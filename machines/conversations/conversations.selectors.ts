/** Conversation-list snapshot → the rows of /news (SPEC §3 Chat session, §9 preview labels). */
import type { ActorRefFrom } from 'xstate';
import { previewOf } from '../im/preview';
import { DEFAULT_ONLINE_STATUS, orderSessions } from './conversations.machine';
import type { ConversationsContext, ConversationsMachine } from './conversations.machine';

export type ConversationsRef = ActorRefFrom<ConversationsMachine>;

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
}

/** The rows in display order: pinned first, then newest first. */
export function chatRowsOf(context: Pick<ConversationsContext, 'sessions' | 'pinned' | 'profiles'>): ChatRow[] {
  return orderSessions(context.sessions, context.pinned).map((session) => {
    const profile = context.profiles[session.to];
    return {
      id: session.id,
      to: session.to,
      nickname: profile?.nickname.trim() || session.lastMsg?.fromNick?.trim() || session.to,
      icon: profile?.icon || null,
      onlineStatus: profile?.onlineStatus ?? DEFAULT_ONLINE_STATUS,
      preview: session.lastMsg ? previewOf(session.lastMsg) : '',
      time: session.updateTime,
      unread: session.unread,
      pinned: context.pinned.includes(session.id),
    };
  });
}

export type ConversationsPhase = 'loading' | 'failed' | 'ready';

export function phaseOf(snapshot: { matches(value: 'waiting' | 'loading' | 'failed'): boolean }): ConversationsPhase {
  if (snapshot.matches('failed')) return 'failed';
  if (snapshot.matches('waiting') || snapshot.matches('loading')) return 'loading';
  return 'ready';
}
