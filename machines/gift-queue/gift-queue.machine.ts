/**
 * The gift animation queue of a call (SPEC §4 "Gift animation queue plays one at a time",
 * §4 system message 4, §9 gift animation hide 5 s).
 *
 *   idle ─gift.received─▶ showing ─5 s | gift.dismiss─▶ showing (the next one) or idle
 *
 * Gifts that arrive while one shows wait in arrival order; each shows for its own 5 s. None
 * is dropped: every gift was paid for. The screen decides how a gift looks (an animation, or a
 * static card when the person prefers reduced motion).
 */
import { assign } from 'xstate';
import { setup } from '../setup';
import { GIFT_SHOW_MS } from '../ports/gift.port';
import type { ReceivedGift } from '../ports/gift.port';

/** A gift in the queue, numbered in arrival order (a stable key for the screen). */
export interface QueuedGift extends ReceivedGift {
  seq: number;
}

export interface GiftQueueContext {
  current: QueuedGift | null;
  waiting: readonly QueuedGift[];
  /** How many gifts arrived so far. */
  received: number;
}

export type GiftQueueEvent =
  | { type: 'gift.received'; gift: ReceivedGift }
  /** The person taps the shown gift away. */
  | { type: 'gift.dismiss' };

export const giftQueueMachine = setup({
  types: {
    context: {} as GiftQueueContext,
    events: {} as GiftQueueEvent,
  },
  delays: { giftShow: GIFT_SHOW_MS },
  guards: {
    hasWaiting: ({ context }) => context.waiting.length > 0,
  },
  actions: {
    showArrived: assign(({ context, event }) => {
      if (event.type !== 'gift.received') return {};
      return { current: { ...event.gift, seq: context.received + 1 }, received: context.received + 1 };
    }),
    enqueue: assign(({ context, event }) => {
      if (event.type !== 'gift.received') return {};
      const gift = { ...event.gift, seq: context.received + 1 };
      return { waiting: [...context.waiting, gift], received: context.received + 1 };
    }),
    showNext: assign(({ context }) => ({ current: context.waiting[0] ?? null, waiting: context.waiting.slice(1) })),
    clear: assign({ current: null }),
  },
}).createMachine({
  id: 'giftQueue',
  context: { current: null, waiting: [], received: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: { 'gift.received': { target: 'showing', actions: 'showArrived' } },
    },
    showing: {
      after: {
        giftShow: [
          // Re-entered, so the next gift gets its own 5 s.
          { guard: 'hasWaiting', target: 'showing', reenter: true, actions: 'showNext' },
          { target: 'idle', actions: 'clear' },
        ],
      },
      on: {
        'gift.received': { actions: 'enqueue' },
        'gift.dismiss': [
          { guard: 'hasWaiting', target: 'showing', reenter: true, actions: 'showNext' },
          { target: 'idle', actions: 'clear' },
        ],
      },
    },
  },
});

export type GiftQueueMachine = typeof giftQueueMachine;
