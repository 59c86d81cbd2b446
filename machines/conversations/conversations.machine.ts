/**
 * The conversation list (SPEC §3 Chat session, §5 pinning, §9 chat limits): the sessions
 * behind /news and /newsRestricted, kept for the whole signed-in session so the list is
 * there at once when the screen opens.
 *
 *   waiting ─reload (IM connected)─▶ loading ─ok─▶ ready.{idle ⇄ lookingUp}
 *   loading ─error─▶ failed ─retry | reload─▶ loading        ready ─reload (after a reconnect)─▶ loading
 *
 * - Up to 200 sessions are pulled; the list never holds more (pinned ones are kept).
 * - Conversation updates are collected and applied together, 2 s after the first of a batch.
 * - Profiles and online status are looked up 1 s after the last change of what is wanted
 *   (debounce), in groups of 100; a session without an answer shows online status 3.
 * - Pinning: VIP only, at most 5, pinning a pinned one again changes nothing; pinned sessions
 *   come first. Refusals leave as `toast` (emitted), pins are saved by the `savePins` action.
 */
import { assign, cancel, emit, fromPromise, raise, spawnChild } from 'xstate';
import { setup } from '../setup';
import type { ImConversation } from '../ports/im.port';

export const MAX_SESSIONS = 200;
export const MAX_PINNED = 5;
export const UPDATE_BATCH_MS = 2000;
export const LOOKUP_DEBOUNCE_MS = 1000;
export const LOOKUP_GROUP = 100;
/** SPEC §3 Chat session: online status default 3 (offline). */
export const DEFAULT_ONLINE_STATUS = 3;
export const TEXT_PIN_VIP_ONLY = 'Only VIP members can pin chats.';
export const TEXT_PIN_LIMIT = `You can pin up to ${MAX_PINNED} chats.`;

/** What a lookup tells about a peer (SPEC §3 User profile). */
export interface ChatProfile {
  nickname: string;
  icon: string;
  onlineStatus: number;
  userId?: number;
  isVip?: boolean;
  /** Whether the signed-in person blocked this peer. */
  blocked?: boolean;
  /** SPEC §3 userType (2 = host). */
  userType?: number;
  /** A host live now (a live room on air). */
  living?: boolean;
}

export interface ConversationsInput {
  /** The signed-in person's IM account (pins are kept per account). */
  account: string;
  isVip: boolean;
}

/** What a load brings: the sessions, newest first, and the pins saved earlier. */
export interface LoadedConversations {
  conversations: readonly ImConversation[];
  pinned: readonly string[];
}

export interface ConversationsContext {
  account: string;
  isVip: boolean;
  sessions: Readonly<Record<string, ImConversation>>;
  pinned: readonly string[];
  /** Updates waiting for the next batch. */
  pending: readonly ImConversation[];
  profiles: Readonly<Record<string, ChatProfile>>;
  /** Accounts to look up at the next lookup. */
  wanted: readonly string[];
  /** Accounts of the lookup under way. */
  lookingFor: readonly string[];
  error: string | null;
}

export type ConversationsEvent =
  | { type: 'conversations.changed'; conversation: ImConversation }
  | { type: 'conversations.flush' }
  | { type: 'conversations.lookup' }
  | { type: 'conversations.pin'; id: string }
  | { type: 'conversations.unpin'; id: string }
  /** `id` is the session id or the peer's account (the talk screen knows only the peer). */
  | { type: 'conversations.read'; id: string }
  | { type: 'conversations.viewed' }
  | { type: 'conversations.retry' }
  | { type: 'conversations.reload' }
  | { type: 'vip.changed'; isVip: boolean };

export type ConversationsEmitted = { type: 'toast'; text: string };

/** Sessions merged by id, the newer of two kept; at most MAX_SESSIONS, pinned ones first kept. */
export function mergeSessions(
  current: Readonly<Record<string, ImConversation>>,
  incoming: readonly ImConversation[],
  pinned: readonly string[],
): Record<string, ImConversation> {
  const out: Record<string, ImConversation> = { ...current };
  for (const c of incoming) {
    const known = out[c.id];
    if (!known || c.updateTime >= known.updateTime) out[c.id] = c;
  }
  const all = Object.values(out);
  if (all.length <= MAX_SESSIONS) return out;
  const keep = all
    .sort((a, b) => Number(pinned.includes(b.id)) - Number(pinned.includes(a.id)) || b.updateTime - a.updateTime)
    .slice(0, MAX_SESSIONS);
  return Object.fromEntries(keep.map((c) => [c.id, c]));
}

/** Pinned sessions first (newest pin first), then the rest by last update, newest first. */
export function orderSessions(sessions: Readonly<Record<string, ImConversation>>, pinned: readonly string[]): ImConversation[] {
  const rank = (id: string) => pinned.indexOf(id);
  return Object.values(sessions).sort((a, b) => {
    const pa = rank(a.id);
    const pb = rank(b.id);
    if (pa !== -1 || pb !== -1) return pa === -1 ? 1 : pb === -1 ? -1 : pb - pa;
    return b.updateTime - a.updateTime;
  });
}

/** Splits accounts into lookup groups of LOOKUP_GROUP. */
export function groupsOf<T>(items: readonly T[], size = LOOKUP_GROUP): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Debounce: every change of what is wanted moves the lookup 1 s later. */
const SCHEDULE_LOOKUP = ['cancelLookup', 'raiseLookup'] as const;

/** The session with this id, or with this peer. */
export function sessionFor(sessions: Readonly<Record<string, ImConversation>>, key: string): ImConversation | undefined {
  return sessions[key] ?? Object.values(sessions).find((s) => s.to === key);
}

const addWanted = (wanted: readonly string[], accounts: readonly string[]) => [...new Set([...wanted, ...accounts])];

export const conversationsMachine = setup({
  types: {
    input: {} as ConversationsInput,
    context: {} as ConversationsContext,
    events: {} as ConversationsEvent,
    emitted: {} as ConversationsEmitted,
  },
  actors: {
    /** Up to MAX_SESSIONS conversations, newest first, and the saved pins. */
    load: fromPromise<LoadedConversations, { account: string }>(() => Promise.resolve({ conversations: [], pinned: [] })),
    /** Profiles of the accounts (all groups), keyed by account; missing ones are left out. */
    lookup: fromPromise<Record<string, ChatProfile>, { accounts: readonly string[] }>(() => Promise.resolve({})),
    markRead: fromPromise<void, { id: string }>(() => Promise.resolve()),
  },
  guards: {
    hasPending: ({ context }) => context.pending.length > 0,
    hasWanted: ({ context }) => context.wanted.length > 0,
    pinned: ({ context, event }) => 'id' in event && context.pinned.includes(event.id),
    notVip: ({ context }) => !context.isVip,
    full: ({ context }) => context.pinned.length >= MAX_PINNED,
  },
  actions: {
    queue: assign({
      pending: ({ context, event }) =>
        event.type === 'conversations.changed' ? [...context.pending, event.conversation] : context.pending,
    }),
    /** The batch timer starts with the first update of a batch and is not moved by later ones. */
    startBatch: raise({ type: 'conversations.flush' }, { id: 'flush', delay: UPDATE_BATCH_MS }),
    applyPending: assign(({ context }) => ({
      sessions: mergeSessions(context.sessions, context.pending, context.pinned),
      wanted: addWanted(context.wanted, context.pending.map((c) => c.to)),
      pending: [],
    })),
    setLoaded: assign(({ context }, loaded: LoadedConversations) => {
      // Pins made in this session (before the load answered) stay; saved ones come after them.
      const pinned = [...new Set([...loaded.pinned, ...context.pinned])].slice(-MAX_PINNED);
      const sessions = mergeSessions({}, [...loaded.conversations.slice(0, MAX_SESSIONS), ...Object.values(context.sessions)], pinned);
      return { sessions, pinned, wanted: addWanted(context.wanted, Object.values(sessions).map((c) => c.to)), error: null };
    }),
    setError: assign({
      error: ({ event }) => {
        const error = (event as { error?: unknown }).error;
        return error instanceof Error ? error.message : String(error);
      },
    }),
    wantAll: assign({
      wanted: ({ context }) => addWanted(context.wanted, Object.values(context.sessions).map((c) => c.to)),
    }),
    /** Debounce: every change of what is wanted moves the lookup 1 s later. */
    cancelLookup: cancel('lookup'),
    raiseLookup: raise({ type: 'conversations.lookup' }, { id: 'lookup', delay: LOOKUP_DEBOUNCE_MS }),
    mergeProfiles: assign({
      profiles: ({ context }, found: Readonly<Record<string, ChatProfile>>) => ({ ...context.profiles, ...found }),
    }),
    /** What is wanted from now on waits for the next lookup. */
    takeWanted: assign(({ context }) => ({ lookingFor: context.wanted, wanted: [] })),
    pin: assign({
      pinned: ({ context, event }) => (event.type === 'conversations.pin' ? [...context.pinned, event.id] : context.pinned),
    }),
    unpin: assign({
      pinned: ({ context, event }) => context.pinned.filter((id) => !('id' in event) || id !== event.id),
    }),
    ignoreDuplicate: () => {},
    /** Provided by the owner: keeps the pins across reloads. */
    savePins: () => {},
    refuse: emit((_, text: string): ConversationsEmitted => ({ type: 'toast', text })),
    clearUnread: assign({
      sessions: ({ context, event }) => {
        const session = 'id' in event ? sessionFor(context.sessions, event.id) : undefined;
        return session ? { ...context.sessions, [session.id]: { ...session, unread: 0 } } : context.sessions;
      },
    }),
    markRead: spawnChild('markRead', {
      input: ({ context, event }) => {
        const key = 'id' in event ? event.id : '';
        return { id: sessionFor(context.sessions, key)?.id ?? key };
      },
    }),
    setVip: assign({ isVip: ({ context, event }) => (event.type === 'vip.changed' ? event.isVip : context.isVip) }),
  },
}).createMachine({
  id: 'conversations',
  context: ({ input }) => ({
    account: input.account,
    isVip: input.isVip,
    sessions: {},
    pinned: [],
    pending: [],
    profiles: {},
    wanted: [],
    lookingFor: [],
    error: null,
  }),
  on: {
    'conversations.changed': [
      { guard: 'hasPending', actions: 'queue' },
      { actions: ['queue', 'startBatch'] },
    ],
    'conversations.flush': { guard: 'hasPending', actions: ['applyPending', ...SCHEDULE_LOOKUP] },
    'conversations.pin': [
      // Pinning a pinned session again changes nothing (SPEC §5 "duplicates ignored").
      { guard: 'pinned', actions: 'ignoreDuplicate' },
      { guard: 'notVip', actions: { type: 'refuse', params: TEXT_PIN_VIP_ONLY } },
      { guard: 'full', actions: { type: 'refuse', params: TEXT_PIN_LIMIT } },
      { actions: ['pin', 'savePins'] },
    ],
    'conversations.unpin': { guard: 'pinned', actions: ['unpin', 'savePins'] },
    // Always told to the IM: an update saying "unread" may still be waiting in the batch.
    'conversations.read': { actions: ['clearUnread', 'markRead'] },
    'vip.changed': { actions: 'setVip' },
  },
  initial: 'waiting',
  states: {
    /** Until the IM connection is up (`conversations.reload` on every (re)connect). */
    waiting: {
      on: { 'conversations.reload': 'loading' },
    },
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ account: context.account }),
        onDone: { target: 'ready', actions: [{ type: 'setLoaded', params: ({ event }) => event.output }, ...SCHEDULE_LOOKUP] },
        onError: { target: 'failed', actions: 'setError' },
      },
    },
    failed: {
      on: { 'conversations.retry': 'loading', 'conversations.reload': 'loading' },
    },
    ready: {
      on: {
        'conversations.reload': 'loading',
        'conversations.viewed': { actions: ['wantAll', ...SCHEDULE_LOOKUP] },
      },
      initial: 'idle',
      states: {
        idle: {
          on: { 'conversations.lookup': { guard: 'hasWanted', target: 'lookingUp', actions: 'takeWanted' } },
        },
        lookingUp: {
          invoke: {
            src: 'lookup',
            input: ({ context }) => ({ accounts: context.lookingFor }),
            // Accounts wanted while this lookup ran are asked for after it (debounced again).
            onDone: [
              {
                guard: 'hasWanted',
                target: 'idle',
                actions: [{ type: 'mergeProfiles', params: ({ event }) => event.output }, ...SCHEDULE_LOOKUP],
              },
              { target: 'idle', actions: { type: 'mergeProfiles', params: ({ event }) => event.output } },
            ],
            // Defaults stay (online status 3); the next change or visit asks again.
            onError: [{ guard: 'hasWanted', target: 'idle', actions: SCHEDULE_LOOKUP }, { target: 'idle' }],
          },
        },
      },
    },
  },
});

export type ConversationsMachine = typeof conversationsMachine;
