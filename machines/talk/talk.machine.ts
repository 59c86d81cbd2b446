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
 * - Sends go to the IM connection (`sendText`, provided by the owner); the chat subscribes to
 *   the connection's facts (`imFacts`) for as long as it lives: messages (`im.message`, its
 *   peer's kept), each login (`im.connected`) and the answers to its sends (`im.sent`,
 *   `im.sendFailed`), under the names the connection emits them with. Reading: on open and on every incoming message
 *   the owner is asked to mark the conversation read (`markRead`).
 * - A secret (paid) message is stored first (`/api/payPrivateMsg/uploadPrivateInfo`, a
 *   short-lived child that reports back), then sent with the ext it answers.
 * - Beside the messages, the `extras` child (talk-extras.machine.ts): the peer's name and
 *   block state, translating, opening secrets. Failures the person should hear of leave as
 *   `toast` (emitted), the extras' ones too (they come up as `talk.toast`).
 * - The talk screen's chat (not a call's) has the non-paid user quota (chat-quota.ts, SPEC §4
 *   Recharge): its facts come in as events from three children started with it (`quotaDay`: the
 *   local day and whom the person wrote to that day, again at each local midnight; `walletPaid`:
 *   whether they ever paid; `customerService`: the account never counted), and the `withinQuota`
 *   guard refuses a text to one person too many: nothing is sent, the text stays with the
 *   screen, which shows TEXT_CHAT_LIMIT. A text to someone new that day is kept in the day's
 *   record (`saveQuota`, the device's storage). The server does not enforce this: it cannot know
 *   the person's local day, and it is a nudge towards recharging, not a charge.
 */
import { and, assign, emit, enqueueActions, fromCallback, fromPromise, spawnChild } from 'xstate';
import { setup } from '../setup';
import { talkExtrasMachine } from './talk-extras.machine';
import { ImCode } from '../ports/im.port';
import type { ImMessage } from '../ports/im.port';
import { isLastPage, pagingOf } from '../paged-list/paged-list.machine';
import type { ImConnectionEmitted } from '../im-connection/im-connection.types';
import { factsOf } from '../shared/facts-of';
import { errorOf, textOf } from '../shared/error-text';
import { codeOf } from '../im-connection/im-connection.types';
import { quotaCounts, quotaOf, quotaReached } from './chat-quota';
import type { ChatQuota, QuotaInput } from './chat-quota';

/** SPEC §9 chat limits: a message is capped like in-call chat. */
export const MAX_TEXT = 200;
/** Messages per history page. */
export const HISTORY_PAGE = 50;

/** The history pages by the one paging protocol (machines/shared/paging.ts): a page shorter than HISTORY_PAGE is the last. */
const paging = pagingOf<readonly ImMessage[]>();

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
  /** The non-paid user quota's limit and whether the person is a host (the talk screen's chat only; none: no quota). */
  quota?: QuotaInput;
}

export interface TalkContext extends Omit<TalkInput, 'quota'> {
  messages: readonly TalkMessage[];
  error: string | null;
  /** The quota's facts (chat-quota.ts); null: the chat has none. */
  quota: ChatQuota | null;
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
  | { type: 'im.message'; message: ImMessage }
  | { type: 'im.sent'; idClient: string; message: ImMessage }
  | { type: 'im.sendFailed'; idClient: string; reason: 'notConnected' | 'refused' | 'error'; text: string }
  /** A secret message could not be stored (its text is not sent then). */
  | { type: 'talk.secretNotStored'; idClient: string; text: string }
  | { type: 'talk.loadOlder' }
  | { type: 'talk.retry' }
  /** The IM connection is (again) up. */
  | { type: 'im.connected' }
  | { type: 'talk.sendSecret'; idClient: string; time: number; price: number; content: string }
  | { type: 'talk.secretStored'; idClient: string; ext: Record<string, unknown> }
  /** A failure the extras child wants told. */
  | { type: 'talk.toast'; text: string }
  /** The quota's facts: the local day and whom the person wrote to on it, whether they ever paid, the customer-service account. */
  | { type: 'quota.day'; day: string; peers: readonly string[] }
  | { type: 'quota.paid'; paid: boolean; vip: boolean }
  | { type: 'quota.customerService'; account: string | null };

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
    // Each child by its invoke id (its actor by name), so that selectors read them typed.
    children: {} as { extras: 'extras'; imFacts: 'imFacts'; quotaDay: 'quotaDay'; walletPaid: 'walletPaid'; customerService: 'customerService' },
  },
  actors: {
    extras: talkExtrasMachine,
    /** Stores a secret message; reports `talk.secretStored` or `talk.secretNotStored`. */
    storeSecret: fromCallback<TalkEvent, { idClient: string; to: string; price: number; content: string }>(() => () => {}),
    /** What the IM connection says that the chat uses, for as long as it lives. */
    imFacts: factsOf<ImConnectionEmitted>('imConnection', ['im.message', 'im.connected', 'im.sent', 'im.sendFailed']),
    /** Newest first, at most `limit`, older than `before` when given. */
    history: fromPromise<ImMessage[], { peer: string; limit: number; before?: number }>(() => Promise.resolve([])),
    /** Reports `quota.day` at once and again as each local day begins (by the composition's clock). */
    quotaDay: fromCallback<TalkEvent, { account: string }>(() => () => {}),
    /** Reports `quota.paid` once the wallet knows, and whenever it changes. */
    walletPaid: fromCallback<TalkEvent>(() => () => {}),
    /** Reports `quota.customerService` once looked up. */
    customerService: fromCallback<TalkEvent>(() => () => {}),
  },
  guards: {
    hasText: ({ event }) => event.type === 'talk.send' && textToSend(event.text) !== null,
    /** SPEC §4 non-paid user quota: not a text to one person too many today. */
    withinQuota: ({ context }) => !quotaReached(context.quota, context.peer),
    validSecret: ({ event }) =>
      event.type === 'talk.sendSecret' && Number.isInteger(event.price) && event.price >= 1 && event.price <= SECRET_PRICE_MAX
      && event.content.trim() !== '' && lengthOf(event.content.trim()) <= SECRET_TEXT_MAX,
    secretPending: ({ context, event }) =>
      event.type === 'talk.secretStored' && context.messages.some((m) => m.idClient === event.idClient && m.status === 'sending'),
    fromPeer: ({ context, event }) => event.type === 'im.message' && event.message.sessionId === context.peer,
    ours: ({ context, event }) =>
      (event.type === 'im.sent' || event.type === 'im.sendFailed' || event.type === 'talk.secretNotStored')
      && context.messages.some((m) => m.idClient === event.idClient && m.status === 'sending'),
    lastPage: (_, output: readonly ImMessage[]) => isLastPage(output, HISTORY_PAGE),
    /** The IM is not logged in (yet, or for now): wait for it rather than fail. */
    notConnected: (_, { error }: { error: unknown }) => {
      const code = codeOf(error);
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
        event.type === 'im.message' ? withMessages(context.messages, [{ ...event.message }]) : context.messages,
    }),
    settle: assign({
      messages: ({ context, event }) => context.messages.map((m) => {
        if (event.type === 'im.sent' && m.idClient === event.idClient) {
          return { ...event.message, idClient: m.idClient, time: m.time, status: 'sent' as const };
        }
        if (event.type === 'im.sendFailed' && m.idClient === event.idClient) {
          return { ...m, status: failureStatus(event.reason), reason: event.text };
        }
        if (event.type === 'talk.secretNotStored' && m.idClient === event.idClient) return { ...m, status: 'failed' as const, reason: event.text };
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
    /** The quota's facts start with the talk screen's chat (a call's chat has none) where it can apply: a limit, and not a host. */
    startQuota: enqueueActions(({ context, enqueue }) => {
      if (!context.quota || context.quota.limit === 0 || context.quota.isHost) return;
      enqueue.spawnChild('quotaDay', { id: 'quotaDay', input: { account: context.account } });
      enqueue.spawnChild('walletPaid', { id: 'walletPaid' });
      enqueue.spawnChild('customerService', { id: 'customerService' });
    }),
    setQuota: assign({
      quota: ({ context, event }) => {
        if (!context.quota) return null;
        if (event.type === 'quota.day') return { ...context.quota, day: event.day, peers: [...event.peers] };
        // A VIP member bought VIP: that is paying too (SPEC §6), whatever the recharge orders say.
        if (event.type === 'quota.paid') return { ...context.quota, paid: event.paid || event.vip };
        if (event.type === 'quota.customerService') return { ...context.quota, customerService: event.account };
        return context.quota;
      },
    }),
    /** Someone new today: into the day's record, kept on the device. */
    countPeer: enqueueActions(({ context, enqueue }) => {
      const quota = context.quota;
      if (!quotaCounts(quota, context.peer) || quota.day === null) return;
      const peers = [...quota.peers, context.peer];
      enqueue.assign({ quota: { ...quota, peers } });
      // The named action, so that the owner's composition decides where the record is kept.
      enqueue({ type: 'saveQuota', params: { account: context.account, day: quota.day, peers } } as never);
    }),
    /** Provided by the owner: keeps the day's record (the device's storage). */
    saveQuota: (_, _params: { account: string; day: string; peers: readonly string[] }) => {},
    setError: assign({ error: (_, { error }: { error: unknown }) => textOf(error) }),
  },
}).createMachine({
  id: 'talk',
  context: ({ input: { quota, ...input } }) => ({ ...input, messages: [], error: null, quota: quota ? quotaOf(quota) : null }),
  entry: 'startQuota',
  invoke: [{ id: 'extras', src: 'extras', input: ({ context }) => ({ peer: context.peer }) }, { id: 'imFacts', src: 'imFacts' }],
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
    // One person too many today (SPEC §4 quota): nothing is sent, and the text stays with the screen.
    'talk.send': {
      guard: and(['hasText', 'withinQuota']),
      actions: [
        'addOwn',
        {
          type: 'sendText',
          params: ({ context, event }) => ({ to: context.peer, text: textToSend(event.text) ?? '', idClient: event.idClient }),
        },
        'countPeer',
      ],
    },
    'quota.day': { actions: 'setQuota' },
    'quota.paid': { actions: 'setQuota' },
    'quota.customerService': { actions: 'setQuota' },
    'im.message': {
      guard: 'fromPeer',
      actions: ['addIncoming', { type: 'markRead', params: ({ context }) => ({ peer: context.peer }) }],
    },
    'im.sent': { guard: 'ours', actions: 'settle' },
    'im.sendFailed': { guard: 'ours', actions: 'settle' },
    'talk.secretNotStored': { guard: 'ours', actions: 'settle' },
  },
  initial: 'loading',
  states: {
    loading: {
      entry: { type: 'markRead', params: ({ context }) => ({ peer: context.peer }) },
      invoke: {
        src: 'history',
        input: ({ context }) => ({ peer: context.peer, limit: HISTORY_PAGE }),
        onDone: paging.answered({ last: 'ready.complete', more: 'ready' }, 'addHistory'),
        onError: [
          { guard: { type: 'notConnected', params: errorOf }, target: 'waiting' },
          { target: 'failed', actions: { type: 'setError', params: errorOf } },
        ],
      },
    },
    /** Until the IM connection is up. */
    waiting: {
      on: { 'im.connected': 'loading' },
    },
    failed: {
      on: { 'talk.retry': 'loading', 'im.connected': 'loading' },
    },
    ready: {
      // Back after a reconnect: the newest page again, merged (each message once).
      on: { 'im.connected': 'loading' },
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
            onDone: paging.answered({ last: 'complete', more: 'idle' }, 'addHistory'),
            // The messages stay; scrolling up again tries again.
            onError: { target: 'idle', actions: { type: 'setError', params: errorOf } },
          },
        },
        /** The whole history is here. */
        complete: {},
      },
    },
  },
});

export type TalkMachine = typeof talkMachine;
