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
import { assertEvent, assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { ASK_GIFT_COOLDOWN_MS, GiftApiError } from '../ports/gift.port';
import { errorOf, textOf } from '../shared/error-text';
import { systemNow } from '../ports/clock.port';
import type { Now } from '../ports/clock.port';

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

/**
 * What reads the clock (ARCHITECTURE.md "The clock is a port"): the cooldown's deadline and the
 * time left to it. The composition provides them with its clock (`askGiftMachine.provide(askGiftClock(now))`).
 */
export const askGiftClock = (now: Now) => ({
  delays: {
    // From the deadline, so time already gone (a late start, a slept phone) counts.
    askGiftCooldown: ({ context }: { context: AskGiftContext }) => Math.max(0, context.nextAskAt - now()),
  },
  actions: {
    armCooldown: assign<AskGiftContext, AskGiftEvent, undefined, AskGiftEvent, never>({
      nextAskAt: () => now() + ASK_GIFT_COOLDOWN_MS, giftId: null, notice: TEXT_ASKED,
    }),
    armServerCooldown: assign<AskGiftContext, AskGiftEvent, { error: unknown }, AskGiftEvent, never>(
      (_, { error }) => ({ nextAskAt: now() + remainingOf(error), giftId: null }),
    ),
  },
});
const clockParts = askGiftClock(systemNow);

export const askGiftMachine = setup({
  types: {
    input: {} as AskGiftInput,
    context: {} as AskGiftContext,
    events: {} as AskGiftEvent,
  },
  actors: {
    askFor: fromPromise<{ askId: number }, { beAskYxAccid: string; giftId: number }>(() => Promise.reject(new Error('not provided'))),
  },
  delays: clockParts.delays,
  guards: {
    validGift: ({ event }) => {
      assertEvent(event, 'gift.ask');
      return Number.isInteger(event.giftId) && event.giftId > 0;
    },
    serverCoolingDown: (_, { error }: { error: unknown }) => remainingOf(error) > 0,
  },
  actions: {
    startAsk: assign(({ event }) => {
      assertEvent(event, 'gift.ask');
      return { giftId: event.giftId, notice: null };
    }),
    ...clockParts.actions,
    fail: assign((_, { error }: { error: unknown }) => ({ giftId: null, notice: textOf(error) })),
    refused: assign(({ event }) => {
      assertEvent(event, 'system.askGiftRefused');
      return { notice: event.text };
    }),
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
          {
            guard: { type: 'serverCoolingDown', params: errorOf }, target: 'coolingDown',
            actions: [{ type: 'armServerCooldown', params: errorOf }, { type: 'fail', params: errorOf }],
          },
          { target: 'ready', actions: { type: 'fail', params: errorOf } },
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
