/**
 * A connected call's room (SPEC §2 in-call screen, §4 system messages 4, 15, 16, 18, -1):
 * what the server tells about income, the translated chat lines, and the gift machines —
 * the gift list and the one-at-a-time gift queue for both sides, asks for gifts for the
 * host, paying and answering asks for the user. A child of the call while connected; the
 * call keeps the protocol (hang-ups, media, signalling) and hands the system messages here.
 *
 *   choosing ─host─▶ hosting (askGift)      choosing ─user─▶ paying (gifting)
 *
 * The messages that came before the call was connected (`early`: the first period's income is
 * told as the callee takes the call) are taken as the room starts, as if they came then.
 */
import { assign, enqueueActions, sendTo } from 'xstate';
import { setup } from '../setup';
import { askGiftMachine } from '../ask-gift/ask-gift.machine';
import { giftListMachine } from '../gift-list/gift-list.machine';
import { giftQueueMachine } from '../gift-queue/gift-queue.machine';
import { giftingMachine } from '../gifting/gifting.machine';
import type { SystemEvent } from '../system-messages/system-messages';

/** How many translated lines are kept (the history shows them all). */
export const MAX_TRANSLATED_LINES = 200;

/** A translated in-call chat line (SPEC §4 system message -1). */
export interface TranslatedLine {
  key: string;
  text: string;
  /** When it arrived (ms since the epoch). */
  time: number;
}

export interface InCallInput {
  isHost: boolean;
  /** The peer's IM account (whom a host asks for gifts). */
  peer: string;
  channelId: string;
  /** The peer's user id (to whom a user sends gifts). */
  toUserId: number;
  /** The paying user's diamonds when the call was created (or rang her), when the server said. */
  balance: number | null;
  /** The room's messages that came before the call was connected, oldest first. */
  early?: readonly InCallEvent[];
}

export interface InCallContext extends InCallInput {
  callIncome: number;
  giftIncome: number;
  translations: readonly TranslatedLine[];
}

export type InCallEvent = Extract<SystemEvent, {
  type: 'system.callIncome' | 'system.giftIncome' | 'system.inCallTranslation' | 'system.giftReceived' | 'system.askGiftRefused' | 'system.giftAsked';
}>;

export const inCallMachine = setup({
  types: {
    input: {} as InCallInput,
    context: {} as InCallContext,
    events: {} as InCallEvent,
  },
  actors: {
    giftList: giftListMachine,
    giftQueue: giftQueueMachine,
    askGift: askGiftMachine,
    gifting: giftingMachine,
  },
  guards: {
    isHost: ({ context }) => context.isHost,
  },
  actions: {
    addCallIncome: assign({
      callIncome: ({ context, event }) => context.callIncome + (event.type === 'system.callIncome' ? event.amount : 0),
    }),
    addGiftIncome: assign({
      giftIncome: ({ context, event }) => context.giftIncome + (event.type === 'system.giftIncome' ? event.amount : 0),
    }),
    addTranslation: assign({
      translations: ({ context, event }) => {
        if (event.type !== 'system.inCallTranslation' || !event.text.trim()) return context.translations;
        const line = { key: `tr-${context.translations.length + 1}-${Date.now()}`, text: event.text.trim(), time: Date.now() };
        return [...context.translations, line].slice(-MAX_TRANSLATED_LINES);
      },
    }),
    toGiftQueue: sendTo('giftQueue', ({ event }) => {
      if (event.type !== 'system.giftReceived') throw new Error('toGiftQueue needs system.giftReceived');
      const { type: _, ...gift } = event;
      return { type: 'gift.received' as const, gift };
    }),
  },
}).createMachine({
  id: 'inCall',
  context: ({ input }) => ({ ...input, callIncome: 0, giftIncome: 0, translations: [] }),
  // Taken as if they came now: raised events are taken once the initial states (and the children) are there.
  entry: enqueueActions(({ context, enqueue }) => {
    for (const event of context.early ?? []) enqueue.raise(event);
  }),
  invoke: [
    { id: 'giftList', src: 'giftList' },
    { id: 'giftQueue', src: 'giftQueue' },
  ],
  on: {
    'system.callIncome': { actions: 'addCallIncome' },
    'system.giftIncome': { actions: 'addGiftIncome' },
    'system.inCallTranslation': { actions: 'addTranslation' },
    'system.giftReceived': { actions: 'toGiftQueue' },
  },
  initial: 'choosing',
  states: {
    choosing: { always: [{ guard: 'isHost', target: 'hosting' }, { target: 'paying' }] },
    /** The host: asks for gifts; 16 tells her an ask was refused. */
    hosting: {
      invoke: { id: 'askGift', src: 'askGift', input: ({ context }) => ({ peer: context.peer }) },
      on: { 'system.askGiftRefused': { actions: sendTo('askGift', ({ event }) => event) } },
    },
    /** The user: pays, sends gifts and answers the host's asks. */
    paying: {
      invoke: {
        id: 'gifting',
        src: 'gifting',
        input: ({ context }) => ({ channelId: context.channelId, toUserId: context.toUserId, balance: context.balance }),
      },
      on: { 'system.giftAsked': { actions: sendTo('gifting', ({ event }) => event) } },
    },
  },
});

export type InCallMachine = typeof inCallMachine;
