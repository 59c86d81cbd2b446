/**
 * The host asks the user of a call for a gift (SPEC §2 in-call screen ask-for-gift button,
 * §5 "Gift ask blocked during the 15 s cooldown", §8 'Asking for a gift was refused',
 * §9 ask-gift cooldown 15 s; `/api/gift/askFor`).
 *
 *   ready ─gift.ask─▶ asking ─ok─▶ coolingDown ─deadline─▶ ready
 *   asking ─server's cooldown─▶ coolingDown (its deadline)     asking ─error─▶ ready (notice)
 *   anywhere ─system.askGiftRefused (16)─▶ notice 'Asking for a gift was refused'
 *
 * The cooldown is a deadline (`nextAskAt`, clock ms) taken when the server accepted the ask:
 * the timer is set from it on entry and the screen counts down from it, so a throttled tab
 * cannot stretch or shorten it. The server keeps its own 15 s; its refusal says how long is
 * left, which becomes the deadline here.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { ASK_GIFT_COOLDOWN_MS, GiftApiError } from '../ports/gift.port';

export const TEXT_ASK_GIFT_REFUSED = 'Asking for a gift was refused';
export const TEXT_ASKED = 'Asked for a gift';

export interface AskGiftInput {
  /** The user's IM account (beAskYxAccid). */
  peer: string;
}

export interface AskGiftContext extends AskGiftInput {
  /** The gift being asked for (while asking). */
  giftId: number | null;
  /** When the next ask is allowed (clock ms); 0 before the first. */
  nextAskAt: number;
  /** What the host was last told: asked, refused, or why it failed. */
  notice: string | null;
}

export type AskGiftEvent =
  | { type: 'gift.ask'; giftId: number }
  | { type: 'system.askGiftRefused'; text: string };

const remainingOf = (error: unknown): number => (error instanceof GiftApiError && error.refusal === 'cooldown' ? error.retryInMs : 0);

export const askGiftMachine = setup({
  types: {
    input: {} as AskGiftInput,
    context: {} as AskGiftContext,
    events: {} as AskGiftEvent,
  },
  actors: {
    askFor: fromPromise<{ askId: number }, { beAskYxAccid: string; giftId: number }>(() => Promise.reject(new Error('not provided'))),
  },
  delays: {
    // From the deadline, so time already gone (a late start, a slept phone) counts.
    askGiftCooldown: ({ context }) => Math.max(0, context.nextAskAt - Date.now()),
  },
  guards: {
    validGift: ({ event }) => event.type === 'gift.ask' && Number.isInteger(event.giftId) && event.giftId > 0,
    serverCoolingDown: ({ event }) => remainingOf((event as { error?: unknown }).error) > 0,
  },
  actions: {
    startAsk: assign({ giftId: ({ event }) => (event.type === 'gift.ask' ? event.giftId : null), notice: null }),
    armCooldown: assign({ nextAskAt: () => Date.now() + ASK_GIFT_COOLDOWN_MS, giftId: null, notice: TEXT_ASKED }),
    armServerCooldown: assign({
      nextAskAt: ({ event }) => Date.now() + remainingOf((event as { error?: unknown }).error),
      giftId: null,
    }),
    fail: assign({
      giftId: null,
      notice: ({ event }) => {
        const error = (event as { error?: unknown }).error;
        return error instanceof Error ? error.message : String(error);
      },
    }),
    refused: assign({ notice: ({ event }) => (event.type === 'system.askGiftRefused' ? event.text : null) }),
  },
}).createMachine({
  id: 'askGift',
  context: ({ input }) => ({ ...input, giftId: null, nextAskAt: 0, notice: null }),
  on: {
    'system.askGiftRefused': { actions: 'refused' },
  },
  initial: 'ready',
  states: {
    ready: {
      on: { 'gift.ask': { guard: 'validGift', target: 'asking', actions: 'startAsk' } },
    },
    asking: {
      invoke: {
        id: 'askFor',
        src: 'askFor',
        input: ({ context }) => ({ beAskYxAccid: context.peer, giftId: context.giftId ?? 0 }),
        onDone: { target: 'coolingDown', actions: 'armCooldown' },
        onError: [
          // The server's cooldown still runs (e.g. asked from another device): wait it out here too.
          { guard: 'serverCoolingDown', target: 'coolingDown', actions: ['armServerCooldown', 'fail'] },
          { target: 'ready', actions: 'fail' },
        ],
      },
    },
    /** SPEC §5: no ask until the deadline. */
    coolingDown: {
      after: { askGiftCooldown: 'ready' },
    },
  },
});

export type AskGiftMachine = typeof askGiftMachine;

/** Whole seconds left of the cooldown at `now` (what the button shows), 0 when none. */
export function cooldownSecondsLeft(nextAskAt: number, now: number): number {
  return Math.max(0, Math.ceil((nextAskAt - now) / 1000));
}
