/**
 * Rating a call that took place (SPEC §3 Call rating payload, §7 /api/chat/callRate), the last
 * step of a call's end: the ended screen's stars and "something went wrong", sent through
 * `CallApiPort.rate`.
 *
 *   rating ─rating.send (stars chosen)─▶ sending ─done─▶ sent
 *                                                ─error─▶ failed ─rating.send─▶ sending (retry)
 *   rating | failed: rating.choose (1–5 stars), rating.setAbnormal
 *
 * Sending is a state: a second tap while the rating goes has no transition and is dropped, and
 * once sent there is nothing more to send. It runs after the call's own actor has ended (the
 * calls keep only the call's summary until it is dismissed), so it is its own small actor,
 * composed by the ended screen once per mount with the summary as input.
 */
import { assertEvent, assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import type { CallRating } from '../ports/call.port';
import type { CallRatingInput } from './call-rating.input';


export interface CallRatingContext extends CallRatingInput {
  /** Stars, 1–5; 0 before any is chosen. */
  category: number;
  abnormal: boolean;
}

export type CallRatingEvent =
  | { type: 'rating.choose'; category: number }
  | { type: 'rating.setAbnormal'; abnormal: boolean }
  | { type: 'rating.send' };


/** The payload of SPEC §3 from what was chosen. */
export const ratingOf = (c: CallRatingContext): CallRating => ({
  channelId: c.channelId, callType: c.callType, category: c.category, answerTime: c.answerTime, userType: c.userType, abnormal: c.abnormal ? 1 : 0,
});

/** What can be changed before sending (and after a failure). */
const choosing = { 'rating.choose': { actions: 'choose' }, 'rating.setAbnormal': { actions: 'setAbnormal' } } as const;

export const callRatingMachine = setup({
  types: {
    input: {} as CallRatingInput,
    context: {} as CallRatingContext,
    events: {} as CallRatingEvent,
  },
  actors: {
    rate: fromPromise<void, CallRating>(() => Promise.reject(new Error('rate not provided'))),
  },
  actions: {
    choose: assign({
      category: ({ event }) => { assertEvent(event, 'rating.choose'); return Math.max(0, Math.min(5, Math.floor(event.category))); },
    }),
    setAbnormal: assign({ abnormal: ({ event }) => { assertEvent(event, 'rating.setAbnormal'); return event.abnormal; } }),
  },
  guards: {
    chosen: ({ context }) => context.category > 0,
  },
}).createMachine({
  id: 'callRating',
  context: ({ input }) => ({ ...input, category: 0, abnormal: false }),
  initial: 'rating',
  states: {
    rating: {
      on: { ...choosing, 'rating.send': { guard: 'chosen', target: 'sending' } },
    },
    sending: {
      invoke: { id: 'rate', src: 'rate', input: ({ context }) => ratingOf(context), onDone: 'sent', onError: 'failed' },
    },
    /** Said so; the form is gone. */
    sent: { type: 'final' },
    /** Said so; the same choice can be sent again, or changed first. */
    failed: {
      on: { ...choosing, 'rating.send': { guard: 'chosen', target: 'sending' } },
    },
  },
});

export type CallRatingMachine = typeof callRatingMachine;

export type { CallRatingInput } from './call-rating.input';
export { ratingInputOf } from './call-rating.input';
