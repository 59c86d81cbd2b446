/**
 * What a peer chat offers beside its messages (SPEC §2 /talk, §7): the peer's name, whether
 * the peer is a host live now (the room is offered), and block state, blocking and unblocking (`/api/user/blockUser`), translating a message and
 * opening a secret (paid) message (`/api/payPrivateMsg/privateInfo`). A child of the talk;
 * each request runs as its own short-lived child that reports back.
 *
 *   block: unknown.{looking ─failed─▶ resting ─PEER_RETRY_MS─▶ looking} ─talk.peer─▶
 *          unblocked ⇄ blocked, through blocking / unblocking (a failure goes back where it
 *          was and is told as `toast`)
 *
 * The peer's profile is looked up until it answers: without it the talk has no name, no call
 * button and no block state, so a failed lookup (a bad network) is tried again, sooner first.
 *
 * Translations and secrets are kept per message (many at once), so they are context.
 *
 * A secret is paid for only once its price and the balance were shown and the person said
 * Unlock (per secret: locked ─talk.unlockSecret─▶ checking (a look, nothing paid) ─▶ confirming
 * ─talk.confirmUnlock─▶ opening (the payment) ─▶ open | failed; confirming ─talk.cancelUnlock─▶
 * locked; a look that finds it paid already opens it). Paying is an intent with its idempotency
 * key (machines/shared/intent-key.ts), made as the person confirms; a tap while it checks or
 * opens is not taken. An answer, the message or a refusal, ends it. A payment that got no
 * answer may have been made: its key is kept with the failure, and the next Unlock of that
 * message sends it again at once (the person already agreed to it), so it is paid at most once.
 */
import { and, assign, emit, fromCallback, spawnChild } from 'xstate';
import { setup } from '../setup';
import type { SecretInfo } from '../ports/chat.port';
import { newIntentKey } from '../shared/intent-key';

/** Waits before looking the peer up again, by failures in a row; the last one repeats. */
export const PEER_RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;

/** The wait after `failures` failed lookups in a row (at least 1). */
export const peerRetryMs = (failures: number): number => PEER_RETRY_MS[Math.min(Math.max(failures, 1), PEER_RETRY_MS.length) - 1]!;

/** A secret message as its recipient (or sender) may see it (SPEC §3 Message ext privateMsg). */
export type { SecretInfo } from '../ports/chat.port';

/** A secret with no entry is locked: its card offers Unlock. */
export type SecretState =
  /** Looking up its price and the balance, before asking (nothing is paid). */
  | { status: 'checking' }
  /** Asking the person: unlock for `price` diamonds, of the `balance` they have. */
  | { status: 'confirming'; price: number; balance: number }
  /** `payKey`: the payment's idempotency key (none when only looking). */
  | { status: 'opening'; payKey?: string }
  | { status: 'open'; info: SecretInfo }
  /** `payKey`: kept when the payment got no answer (it may have been made), for the next Unlock. */
  | { status: 'failed'; reason: string; payKey?: string };

export type TranslationState =
  | { status: 'translating' }
  | { status: 'done'; text: string }
  | { status: 'failed'; reason: string };

export interface TalkExtrasContext {
  /** The peer's IM account. */
  peer: string;
  /** The peer's name, user id and whether the peer is a host (who can be called), once looked up. */
  peerName: string | null;
  peerUserId: number | null;
  peerIsHost: boolean;
  /** Whether the peer is live now (a host with a live room on air), as the lookup said. */
  peerLiving: boolean;
  /** Failed lookups of the peer in a row. */
  peerFailures: number;
  /** By message key (client id, else server id). */
  translations: Readonly<Record<string, TranslationState>>;
  /** By secret message id. */
  secrets: Readonly<Record<number, SecretState>>;
}

export type TalkExtrasEvent =
  | { type: 'talk.peer'; nickname: string | null; blocked: boolean; userId?: number; isHost?: boolean; living?: boolean }
  /** The lookup of the peer failed (it is tried again). */
  | { type: 'talk.peerFailed' }
  | { type: 'talk.translate'; key: string; text: string; to: string }
  | { type: 'talk.translated'; key: string; text: string }
  | { type: 'talk.translateFailed'; key: string; reason: string }
  | { type: 'talk.setBlocked'; blocked: boolean }
  | { type: 'talk.blockDone' }
  | { type: 'talk.blockFailed'; reason: string }
  /** Unlock tapped on a locked secret: its price and the balance are looked up and shown first. */
  | { type: 'talk.unlockSecret'; id: number }
  /** The person agreed to pay the price shown. */
  | { type: 'talk.confirmUnlock'; id: number }
  | { type: 'talk.cancelUnlock'; id: number }
  | { type: 'talk.secretOpened'; id: number; info: SecretInfo }
  /** `unanswered`: no answer came (the payment may have been made). */
  | { type: 'talk.secretFailed'; id: number; reason: string; unanswered?: boolean };

export type TalkExtrasEmitted = { type: 'toast'; text: string };

type Reporter<I> = ReturnType<typeof fromCallback<TalkExtrasEvent, I>>;
/** A child that does one thing and reports back with events; the owner provides it. */
const reporter = <I>(): Reporter<I> => fromCallback<TalkExtrasEvent, I>(() => () => {});

export const talkExtrasMachine = setup({
  types: {
    input: {} as { peer: string },
    context: {} as TalkExtrasContext,
    events: {} as TalkExtrasEvent,
    emitted: {} as TalkExtrasEmitted,
  },
  actors: {
    peerInfo: reporter<{ peer: string }>(),
    translate: reporter<{ key: string; text: string; to: string }>(),
    setBlocked: reporter<{ peer: string; blocked: boolean }>(),
    /** `payKey`: pay first, under this idempotency key; null only looks. */
    openSecret: reporter<{ id: number; payKey: string | null }>(),
  },
  delays: {
    peerRetry: ({ context }) => peerRetryMs(context.peerFailures),
  },
  guards: {
    peerBlocked: ({ event }) => event.type === 'talk.peer' && event.blocked,
    /** Not translated yet, nor being translated (a failed one may be tried again). */
    canTranslate: ({ context, event }) =>
      event.type === 'talk.translate' && event.text.trim() !== ''
      && (context.translations[event.key] === undefined || context.translations[event.key]!.status === 'failed'),
    asksBlock: ({ event }) => event.type === 'talk.setBlocked' && event.blocked,
    asksUnblock: ({ event }) => event.type === 'talk.setBlocked' && !event.blocked,
    /** A locked secret, or one whose last try failed (one checking, asking, opening or open takes no tap). */
    canUnlockSecret: ({ context, event }) =>
      event.type === 'talk.unlockSecret' && (context.secrets[event.id] === undefined || context.secrets[event.id]!.status === 'failed'),
    /** A payment that got no answer: the person agreed to it already; it is sent again under its key. */
    paymentUnanswered: ({ context, event }) => {
      const secret = event.type === 'talk.unlockSecret' ? context.secrets[event.id] : undefined;
      return secret?.status === 'failed' && secret.payKey !== undefined;
    },
    secretAsked: ({ context, event }) =>
      (event.type === 'talk.confirmUnlock' || event.type === 'talk.cancelUnlock') && context.secrets[event.id]?.status === 'confirming',
  },
  actions: {
    setPeer: assign(({ event }) =>
      event.type === 'talk.peer'
        ? {
          peerName: event.nickname, peerUserId: event.userId ?? null, peerIsHost: event.isHost ?? false,
          peerLiving: event.living ?? false, peerFailures: 0,
        }
        : {}),
    startTranslation: assign({
      translations: ({ context, event }) =>
        event.type === 'talk.translate' ? { ...context.translations, [event.key]: { status: 'translating' as const } } : context.translations,
    }),
    translate: spawnChild('translate', {
      input: ({ event }) => (event.type === 'talk.translate' ? { key: event.key, text: event.text, to: event.to } : { key: '', text: '', to: '' }),
    }),
    endTranslation: assign({
      translations: ({ context, event }) => {
        if (event.type === 'talk.translated') return { ...context.translations, [event.key]: { status: 'done' as const, text: event.text } };
        if (event.type === 'talk.translateFailed') return { ...context.translations, [event.key]: { status: 'failed' as const, reason: event.reason } };
        return context.translations;
      },
    }),
    startChecking: assign({
      secrets: ({ context, event }) =>
        (event.type === 'talk.unlockSecret' ? { ...context.secrets, [event.id]: { status: 'checking' as const } } : context.secrets),
    }),
    /** A payment takes the key its unanswered try left, or a new one. */
    startPaying: assign({
      secrets: ({ context, event }) => {
        if (event.type !== 'talk.unlockSecret' && event.type !== 'talk.confirmUnlock') return context.secrets;
        const before = context.secrets[event.id];
        const payKey = (before?.status === 'failed' && before.payKey) || newIntentKey();
        return { ...context.secrets, [event.id]: { status: 'opening' as const, payKey } };
      },
    }),
    /** Looks (checking) or pays (opening, under its key). */
    openSecret: spawnChild('openSecret', {
      input: ({ context, event }) => {
        const id = event.type === 'talk.unlockSecret' || event.type === 'talk.confirmUnlock' ? event.id : 0;
        const opening = context.secrets[id];
        return { id, payKey: opening?.status === 'opening' ? opening.payKey ?? null : null };
      },
    }),
    /** Locked again: the person did not want to pay. */
    forgetSecret: assign({
      secrets: ({ context, event }) => {
        if (event.type !== 'talk.cancelUnlock') return context.secrets;
        const { [event.id]: _asked, ...rest } = context.secrets;
        return rest;
      },
    }),
    endOpening: assign({
      secrets: ({ context, event }) => {
        if (event.type === 'talk.secretOpened') {
          // A look at a secret not paid yet asks the person; anything else shows what came.
          const checked = context.secrets[event.id]?.status === 'checking' && !event.info.unlocked;
          const next = checked
            ? { status: 'confirming' as const, price: event.info.price, balance: event.info.balance }
            : { status: 'open' as const, info: event.info };
          return { ...context.secrets, [event.id]: next };
        }
        if (event.type === 'talk.secretFailed') {
          const opening = context.secrets[event.id];
          const payKey = event.unanswered && opening?.status === 'opening' ? opening.payKey : undefined;
          return { ...context.secrets, [event.id]: { status: 'failed' as const, reason: event.reason, ...(payKey ? { payKey } : {}) } };
        }
        return context.secrets;
      },
    }),
    toast: emit((_, text: string): TalkExtrasEmitted => ({ type: 'toast', text })),
  },
}).createMachine({
  id: 'talkExtras',
  context: ({ input }) => ({
    peer: input.peer, peerName: null, peerUserId: null, peerIsHost: false, peerLiving: false, peerFailures: 0, translations: {}, secrets: {},
  }),
  on: {
    'talk.translate': { guard: 'canTranslate', actions: ['startTranslation', 'translate'] },
    'talk.translated': { actions: 'endTranslation' },
    'talk.translateFailed': { actions: 'endTranslation' },
    'talk.unlockSecret': [
      { guard: and(['canUnlockSecret', 'paymentUnanswered']), actions: ['startPaying', 'openSecret'] },
      { guard: 'canUnlockSecret', actions: ['startChecking', 'openSecret'] },
    ],
    'talk.confirmUnlock': { guard: 'secretAsked', actions: ['startPaying', 'openSecret'] },
    'talk.cancelUnlock': { guard: 'secretAsked', actions: 'forgetSecret' },
    'talk.secretOpened': { actions: 'endOpening' },
    'talk.secretFailed': { actions: ['endOpening', { type: 'toast', params: ({ event }) => event.reason }] },
  },
  initial: 'unknown',
  states: {
    /** Until the peer's profile answered (without an answer, no block button). */
    unknown: {
      initial: 'looking',
      states: {
        looking: {
          invoke: { src: 'peerInfo', input: ({ context }) => ({ peer: context.peer }) },
          on: { 'talk.peerFailed': { target: 'resting', actions: assign({ peerFailures: ({ context }) => context.peerFailures + 1 }) } },
        },
        resting: {
          after: { peerRetry: 'looking' },
        },
      },
      on: {
        'talk.peer': [
          { guard: 'peerBlocked', target: 'blocked', actions: 'setPeer' },
          { target: 'unblocked', actions: 'setPeer' },
        ],
      },
    },
    unblocked: {
      on: { 'talk.setBlocked': { guard: 'asksBlock', target: 'blocking' } },
    },
    blocked: {
      on: { 'talk.setBlocked': { guard: 'asksUnblock', target: 'unblocking' } },
    },
    blocking: {
      invoke: { src: 'setBlocked', input: ({ context }) => ({ peer: context.peer, blocked: true }) },
      on: {
        'talk.blockDone': 'blocked',
        'talk.blockFailed': { target: 'unblocked', actions: { type: 'toast', params: ({ event }) => event.reason } },
      },
    },
    unblocking: {
      invoke: { src: 'setBlocked', input: ({ context }) => ({ peer: context.peer, blocked: false }) },
      on: {
        'talk.blockDone': 'unblocked',
        'talk.blockFailed': { target: 'blocked', actions: { type: 'toast', params: ({ event }) => event.reason } },
      },
    },
  },
});

export type TalkExtrasMachine = typeof talkExtrasMachine;

/** Whether the peer is blocked (null until known), and whether a change is under way: read from the state. */
export function blockStateOf(snapshot: { matches(value: 'unknown' | 'blocked' | 'blocking' | 'unblocking'): boolean }) {
  if (snapshot.matches('unknown')) return { blocked: null, changing: false };
  const changing = snapshot.matches('blocking') || snapshot.matches('unblocking');
  // While changing, what shows is where it still is.
  return { blocked: snapshot.matches('blocked') || snapshot.matches('unblocking'), changing };
}
