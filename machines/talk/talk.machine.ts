/**
 * One peer chat (SPEC §2 /talk, §5 sending, §9 chat limits), owned by the session while
 * the talk screen is open.
 *
 *   loading ─ok─▶ ready.{idle ⇄ loadingOlder (─no more─▶ complete)}     loading ─error─▶ failed ─retry─▶ loading
 *   loading ─IM not connected─▶ waiting ─talk.connected─▶ loading      ready ─talk.connected─▶ loading (catch up)
 *
 * - Messages are kept in time order, each once (by server id, and by client id for our own).
 * - A text is trimmed; an empty or too long one (over 200) is not sent; it shows at once as "sending" and becomes
 *   sent, failed (with the §5 text when there is no connection) or refused (7101).
 * - Sends go to the IM connection (`sendText`, provided by the owner); its answers come
 *   back as `talk.sent` / `talk.sendFailed`. Reading: on open and on every incoming message
 *   the owner is asked to mark the conversation read (`markRead`).
 * - A secret (paid) message is stored first (`/api/payPrivateMsg/uploadPrivateInfo`, a
 *   short-lived child that reports back), then sent with the ext it answers.
 * - Beside the messages, the `extras` child (talk-extras.machine.ts): the peer's name and
 *   block state, translating, opening secrets. Failures the person should hear of leave as
 *   `toast` (emitted), the extras' ones too (they come up as `talk.toast`).
 */
import { assign, emit, fromCallback, fromPromise, spawnChild } from 'xstate';
import { setup } from '../setup';
import { talkExtrasMachine } from './talk-extras.machine';
import { ImCode } from '../ports/im.port';
import type { ImMessage } from '../ports/im.port';

/** SPEC §9 chat limits: a message is capped like in-call chat. */
export const MAX_TEXT = 200;
/** Messages per history page. */
export const HISTORY_PAGE = 50;

export type TalkStatus = 'sending' | 'sent' | 'failed' | 'refused';

/** A message as the talk shows it: what the IM gave, or our own still on its way. */
export interface TalkMessage extends Omit<ImMessage, 'status'> {
  status: TalkStatus;
  /** Why it failed or was refused. */
  reason?: string;
}

export interface TalkInput {
  /** The peer's IM account. */
  peer: string;
  /** The signed-in person's IM account. */
  account: string;
}

export interface TalkContext extends TalkInput {
  messages: readonly TalkMessage[];
  error: string | null;
}

/** The key a message is known by (its client id, else its server id). */
export const keyOf = (m: Pick<TalkMessage, 'idClient' | 'idServer'>): string => m.idClient || m.idServer;

/** A secret message's id and price from its ext (SPEC §3 Message ext), or null. */
export function secretOf(message: Pick<TalkMessage, 'ext'>): { id: number; price: number } | null {
  const ext = typeof message.ext === 'string' ? safeParse(message.ext) : message.ext;
  if (!ext || ext.extensionType !== 'privateMsg') return null;
  const data = ext.data as { id?: unknown; price?: unknown } | undefined;
  const id = Number(data?.id);
  const price = Number(data?.price);
  return Number.isInteger(id) && id > 0 && Number.isFinite(price) ? { id, price } : null;
}

function safeParse(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const SECRET_PRICE_MAX = 10_000;
export const SECRET_TEXT_MAX = 500;

export type TalkEvent =
  | { type: 'talk.send'; text: string; idClient: string; time: number }
  | { type: 'talk.incoming'; message: ImMessage }
  | { type: 'talk.sent'; idClient: string; message: ImMessage }
  | { type: 'talk.sendFailed'; idClient: string; reason: 'notConnected' | 'refused' | 'error'; text: string }
  | { type: 'talk.loadOlder' }
  | { type: 'talk.retry' }
  /** The IM connection is (again) up. */
  | { type: 'talk.connected' }
  | { type: 'talk.sendSecret'; idClient: string; time: number; price: number; content: string }
  | { type: 'talk.secretStored'; idClient: string; ext: Record<string, unknown> }
  /** A failure the extras child wants told. */
  | { type: 'talk.toast'; text: string };

export type TalkEmitted = { type: 'toast'; text: string };


/** `messages` with `incoming` added in time order; a message already there (same idServer or idClient) is replaced. */
export function withMessages(messages: readonly TalkMessage[], incoming: readonly TalkMessage[]): TalkMessage[] {
  if (incoming.length === 0) return messages as TalkMessage[];
  const byKey = new Map<string, TalkMessage>();
  for (const m of messages) byKey.set(keyOf(m), m);
  const seenServer = new Set(messages.map((m) => m.idServer).filter(Boolean));
  for (const m of incoming) {
    if (m.idServer && seenServer.has(m.idServer) && !byKey.has(keyOf(m))) continue;
    byKey.set(keyOf(m), m);
    if (m.idServer) seenServer.add(m.idServer);
  }
  return [...byKey.values()].sort((a, b) => a.time - b.time);
}

export const TEXT_TOO_LONG = `A message can be up to ${MAX_TEXT} characters.`;

/** Characters as a person counts them (an emoji is one). */
export const lengthOf = (text: string): number => [...text].length;

/** The text as it is sent (trimmed), or null when there is nothing to send or it is too long (nothing is cut off). */
export function textToSend(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed || lengthOf(trimmed) > MAX_TEXT) return null;
  return trimmed;
}

/** Our own message, on its way. */
function ownMessage(context: TalkContext, idClient: string, text: string, time: number, ext?: Record<string, unknown>): TalkMessage {
  return {
    idClient, idServer: '', from: context.account, to: context.peer, sessionId: context.peer,
    scene: 'p2p', flow: 'out', type: 'text', text, time, status: 'sending', ...(ext ? { ext } : {}),
  };
}

const failureStatus = (reason: 'notConnected' | 'refused' | 'error'): TalkStatus => (reason === 'refused' ? 'refused' : 'failed');

export const talkMachine = setup({
  types: {
    input: {} as TalkInput,
    context: {} as TalkContext,
    events: {} as TalkEvent,
    emitted: {} as TalkEmitted,
  },
  actors: {
    extras: talkExtrasMachine,
    /** Stores a secret message; reports `talk.secretStored` or `talk.sendFailed`. */
    storeSecret: fromCallback<TalkEvent, { idClient: string; to: string; price: number; content: string }>(() => () => {}),
    /** Newest first, at most `limit`, older than `before` when given. */
    history: fromPromise<ImMessage[], { peer: string; limit: number; before?: number }>(() => Promise.resolve([])),
  },
  guards: {
    hasText: ({ event }) => event.type === 'talk.send' && textToSend(event.text) !== null,
    validSecret: ({ event }) =>
      event.type === 'talk.sendSecret' && Number.isInteger(event.price) && event.price >= 1 && event.price <= SECRET_PRICE_MAX
      && event.content.trim() !== '' && lengthOf(event.content.trim()) <= SECRET_TEXT_MAX,
    secretPending: ({ context, event }) =>
      event.type === 'talk.secretStored' && context.messages.some((m) => m.idClient === event.idClient && m.status === 'sending'),
    fromPeer: ({ context, event }) => event.type === 'talk.incoming' && event.message.sessionId === context.peer,
    ours: ({ context, event }) =>
      (event.type === 'talk.sent' || event.type === 'talk.sendFailed')
      && context.messages.some((m) => m.idClient === event.idClient && m.status === 'sending'),
    lastPage: (_, output: readonly ImMessage[]) => output.length < HISTORY_PAGE,
    /** The IM is not logged in (yet, or for now): wait for it rather than fail. */
    notConnected: ({ event }) => {
      const code = (event as { error?: { code?: unknown } }).error?.code;
      return code === ImCode.linkLost || code === ImCode.unreachable;
    },
  },
  actions: {
    addOwn: assign({
      messages: ({ context, event }) => {
        if (event.type !== 'talk.send') return context.messages;
        return withMessages(context.messages, [ownMessage(context, event.idClient, textToSend(event.text) ?? '', event.time)]);
      },
    }),
    /** Provided by the owner: hands the text to the IM connection. */
    sendText: (_, _params: { to: string; text: string; idClient: string }) => {},
    /** Provided by the owner: marks the conversation read. */
    markRead: (_, _params: { peer: string }) => {},
    addIncoming: assign({
      messages: ({ context, event }) =>
        event.type === 'talk.incoming' ? withMessages(context.messages, [{ ...event.message }]) : context.messages,
    }),
    settle: assign({
      messages: ({ context, event }) => context.messages.map((m) => {
        if (event.type === 'talk.sent' && m.idClient === event.idClient) {
          return { ...event.message, idClient: m.idClient, time: m.time, status: 'sent' as const };
        }
        if (event.type === 'talk.sendFailed' && m.idClient === event.idClient) {
          return { ...m, status: failureStatus(event.reason), reason: event.text };
        }
        return m;
      }),
    }),
    addHistory: assign({
      messages: ({ context }, page: readonly ImMessage[]) => withMessages(context.messages, page.map((m) => ({ ...m }))),
      error: null,
    }),
    addOwnSecret: assign({
      messages: ({ context, event }) => {
        if (event.type !== 'talk.sendSecret') return context.messages;
        const ext = { extensionType: 'privateMsg', data: { price: event.price } };
        return withMessages(context.messages, [ownMessage(context, event.idClient, event.content.trim(), event.time, ext)]);
      },
    }),
    storeSecret: spawnChild('storeSecret', {
      input: ({ context, event }) => (event.type === 'talk.sendSecret'
        ? { idClient: event.idClient, to: context.peer, price: event.price, content: event.content.trim() }
        : { idClient: '', to: context.peer, price: 0, content: '' }),
    }),
    /** The stored secret's ext goes on the message, which is then sent like a text. */
    attachSecret: assign({
      messages: ({ context, event }) => (event.type === 'talk.secretStored'
        ? context.messages.map((m) => (m.idClient === event.idClient ? { ...m, ext: event.ext } : m))
        : context.messages),
    }),
    sendSecret: (_, _params: { to: string; text: string; idClient: string; ext: Record<string, unknown> }) => {},
    toast: emit((_, text: string): TalkEmitted => ({ type: 'toast', text })),
    setError: assign({
      error: ({ event }) => {
        const error = (event as { error?: unknown }).error;
        return error instanceof Error ? error.message : String(error);
      },
    }),
  },
}).createMachine({
  id: 'talk',
  context: ({ input }) => ({ ...input, messages: [], error: null }),
  invoke: { id: 'extras', src: 'extras', input: ({ context }) => ({ peer: context.peer }) },
  on: {
    'talk.toast': { actions: { type: 'toast', params: ({ event }) => event.text } },
    'talk.sendSecret': { guard: 'validSecret', actions: ['addOwnSecret', 'storeSecret'] },
    'talk.secretStored': {
      guard: 'secretPending',
      actions: [
        'attachSecret',
        {
          type: 'sendSecret',
          params: ({ context, event }) => ({
            to: context.peer,
            text: context.messages.find((m) => m.idClient === event.idClient)?.text ?? '',
            idClient: event.idClient,
            ext: event.ext,
          }),
        },
      ],
    },
    'talk.send': {
      guard: 'hasText',
      actions: [
        'addOwn',
        {
          type: 'sendText',
          params: ({ context, event }) => ({ to: context.peer, text: textToSend(event.text) ?? '', idClient: event.idClient }),
        },
      ],
    },
    'talk.incoming': {
      guard: 'fromPeer',
      actions: ['addIncoming', { type: 'markRead', params: ({ context }) => ({ peer: context.peer }) }],
    },
    'talk.sent': { guard: 'ours', actions: 'settle' },
    'talk.sendFailed': { guard: 'ours', actions: 'settle' },
  },
  initial: 'loading',
  states: {
    loading: {
      entry: { type: 'markRead', params: ({ context }) => ({ peer: context.peer }) },
      invoke: {
        src: 'history',
        input: ({ context }) => ({ peer: context.peer, limit: HISTORY_PAGE }),
        onDone: [
          {
            guard: { type: 'lastPage', params: ({ event }) => event.output },
            target: 'ready.complete',
            actions: { type: 'addHistory', params: ({ event }) => event.output },
          },
          { target: 'ready', actions: { type: 'addHistory', params: ({ event }) => event.output } },
        ],
        onError: [{ guard: 'notConnected', target: 'waiting' }, { target: 'failed', actions: 'setError' }],
      },
    },
    /** Until the IM connection is up. */
    waiting: {
      on: { 'talk.connected': 'loading' },
    },
    failed: {
      on: { 'talk.retry': 'loading', 'talk.connected': 'loading' },
    },
    ready: {
      // Back after a reconnect: the newest page again, merged (each message once).
      on: { 'talk.connected': 'loading' },
      initial: 'idle',
      states: {
        idle: {
          on: { 'talk.loadOlder': 'loadingOlder' },
        },
        loadingOlder: {
          invoke: {
            src: 'history',
            input: ({ context }) => ({
              peer: context.peer,
              limit: HISTORY_PAGE,
              before: context.messages.find((m) => m.status !== 'sending')?.time,
            }),
            onDone: [
              {
                guard: { type: 'lastPage', params: ({ event }) => event.output },
                target: 'complete',
                actions: { type: 'addHistory', params: ({ event }) => event.output },
              },
              { target: 'idle', actions: { type: 'addHistory', params: ({ event }) => event.output } },
            ],
            // The messages stay; scrolling up again tries again.
            onError: { target: 'idle', actions: 'setError' },
          },
        },
        /** The whole history is here. */
        complete: {},
      },
    },
  },
});

export type TalkMachine = typeof talkMachine;
