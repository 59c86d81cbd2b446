/**
 * The user's gifts in a call (SPEC §2 user call screen: gift panel and an incoming gift ask
 * to send or refuse; §5 gift quantity 1–99, an integer; `/api/gift/send`,
 * `/api/gift/refuseAsk`; the ask is attachType 17, a reference-server extension).
 *
 *   idle ─gift.send─▶ sending ─▶ idle          idle ─gift.sendAsked─▶ sending (the asked gift, one) ─▶ idle
 *   idle ─gift.refuseAsk─▶ refusing ─▶ idle    anywhere ─system.giftAsked (this call)─▶ the ask shows
 *
 * What the server answers about the user's diamonds after a send is kept with the moment it
 * was known (`known`), so the screen can go on from there with the call's per-period price.
 *
 * Each send is an intent with its idempotency key (machines/shared/intent-key.ts), made as the
 * send is accepted; a second tap while sending is not taken (one intent, one request). A
 * definitive answer (sent, or refused) ends the intent. A send whose answer never came (no
 * connection, a time-out) may have been paid: its intent is kept, and sending the same gift
 * again is its retry, with the same key, which the server pays at most once. Another gift, or
 * another quantity, is a new intent. Nothing is retried by itself: the person decides.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { GIFT_NUM_MAX } from '../ports/gift.port';
import type { GiftAsk } from '../ports/gift.port';
import { UnansweredError, newIntentKey } from '../shared/intent-key';

export const TEXT_GIFT_SENT = 'Gift sent';
/** A send whose answer never came. */
export const TEXT_GIFT_UNANSWERED = 'We could not tell whether your gift was sent. Send the same gift again to make sure: it is paid only once.';

/** SPEC §5: a quantity is an integer from 1 to 99. */
export const isGiftQuantity = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= GIFT_NUM_MAX;

export interface GiftingInput {
  channelId: string;
  /** The host's user id. */
  toUserId: number;
  /** The user's diamonds when the call was created, if the server said. */
  balance: number | null;
}

/** A balance the server stated, and when (clock ms; 0 = before the call was connected). */
export interface KnownBalance {
  amount: number;
  at: number;
}

export interface GiftingContext {
  channelId: string;
  toUserId: number;
  known: KnownBalance | null;
  /** The host's ask waiting for an answer. */
  ask: GiftAsk | null;
  /** The send under way, or the one whose answer never came (its retry keeps the key); null once answered. */
  intent: GiftIntent | null;
  /** What the user was last told about a send or a refusal. */
  notice: string | null;
}

/** One send the person asked for, with its idempotency key. */
export interface GiftIntent {
  giftId: number;
  giftNum: number;
  key: string;
}

export type GiftingEvent =
  | { type: 'gift.send'; giftId: number; giftNum: number }
  | { type: 'gift.sendAsked' }
  | { type: 'gift.refuseAsk' }
  | { type: 'system.giftAsked'; ask: GiftAsk };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const giftingMachine = setup({
  types: {
    input: {} as GiftingInput,
    context: {} as GiftingContext,
    events: {} as GiftingEvent,
  },
  actors: {
    send: fromPromise<{ balance: number }, { channelId: string; toUserId: number; giftId: number; giftNum: number; idempotencyKey: string }>(
      () => Promise.reject(new Error('not provided')),
    ),
    /** Answers the ask id it refused. */
    refuseAsk: fromPromise<number, number>(() => Promise.reject(new Error('not provided'))),
  },
  guards: {
    validOrder: ({ event }) =>
      event.type === 'gift.send' && Number.isInteger(event.giftId) && event.giftId > 0 && isGiftQuantity(event.giftNum),
    hasAsk: ({ context }) => context.ask !== null,
    /** An ask of this call (a late one of an earlier call is not shown). */
    thisCall: ({ context, event }) => event.type === 'system.giftAsked' && event.ask.channelId === context.channelId,
    /** No answer came: the send may have been paid, so its intent stays open. */
    unanswered: ({ event }) => (event as { error?: unknown }).error instanceof UnansweredError,
  },
  actions: {
    /** The send asked for: the open intent again when it is the same gift (its retry), else a new one with a new key. */
    intend: assign({
      intent: ({ context, event }) => {
        const order = event.type === 'gift.send'
          ? { giftId: event.giftId, giftNum: event.giftNum }
          : { giftId: context.ask?.giftId ?? 0, giftNum: 1 };
        const open = context.intent;
        if (open && open.giftId === order.giftId && open.giftNum === order.giftNum) return open;
        return { ...order, key: newIntentKey() };
      },
      notice: null,
    }),
    paid: assign(({ context }, output: { balance: number }) => ({
      known: { amount: output.balance, at: Date.now() },
      notice: TEXT_GIFT_SENT,
      intent: null,
      // The server fulfils an ask with the gift asked for.
      ask: context.ask && context.intent && context.ask.giftId === context.intent.giftId ? null : context.ask,
    })),
    /** Refused: the intent ended. */
    refused: assign({ notice: ({ event }) => messageOf((event as { error?: unknown }).error), intent: null }),
    /** Not answered: the intent stays open for the same gift's retry. */
    unanswered: assign({ notice: TEXT_GIFT_UNANSWERED }),
    failed: assign({ notice: ({ event }) => messageOf((event as { error?: unknown }).error) }),
    /** The refused ask goes; one that arrived meanwhile stays. */
    clearAsk: assign(({ context }, refused: number) => ({ ask: context.ask?.askId === refused ? null : context.ask, notice: null })),
    setAsk: assign({ ask: ({ context, event }) => (event.type === 'system.giftAsked' ? event.ask : context.ask) }),
  },
}).createMachine({
  id: 'gifting',
  context: ({ input }) => ({
    channelId: input.channelId,
    toUserId: input.toUserId,
    known: input.balance === null ? null : { amount: input.balance, at: 0 },
    ask: null,
    intent: null,
    notice: null,
  }),
  on: {
    'system.giftAsked': { guard: 'thisCall', actions: 'setAsk' },
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'gift.send': { guard: 'validOrder', target: 'sending', actions: 'intend' },
        'gift.sendAsked': { guard: 'hasAsk', target: 'sending', actions: 'intend' },
        'gift.refuseAsk': { guard: 'hasAsk', target: 'refusing' },
      },
    },
    sending: {
      invoke: {
        id: 'send',
        src: 'send',
        input: ({ context }) => ({
          channelId: context.channelId, toUserId: context.toUserId, giftId: context.intent?.giftId ?? 0, giftNum: context.intent?.giftNum ?? 1,
          idempotencyKey: context.intent?.key ?? '',
        }),
        onDone: { target: 'idle', actions: { type: 'paid', params: ({ event }) => event.output } },
        onError: [
          { guard: 'unanswered', target: 'idle', actions: 'unanswered' },
          { target: 'idle', actions: 'refused' },
        ],
      },
    },
    refusing: {
      invoke: {
        id: 'refuseAsk',
        src: 'refuseAsk',
        input: ({ context }) => context.ask?.askId ?? 0,
        onDone: { target: 'idle', actions: { type: 'clearAsk', params: ({ event }) => event.output } },
        // Asked again meanwhile or not: the ask stays, so it can be answered again.
        onError: { target: 'idle', actions: 'failed' },
      },
    },
  },
});

export type GiftingMachine = typeof giftingMachine;
