/**
 * Entering-room highlights of a live room (SPEC §6 "some entering-room highlights show only
 * for userLevel above 0", §9 Timers: enter highlight 2 s each, enter list shift 1.2 s).
 *
 *   cadence: ready ─highlight.add (level > 0)─▶ cooling ─1.2 s─▶ cooling (the next waiting one) | ready
 *   slotA / slotB: empty ─shown─▶ shown ─2 s─▶ empty
 *
 * Highlights wait in arrival order; one comes in at most every 1.2 s and each stays 2 s, so
 * for 0.8 s the one before is still leaving while the next arrives: two slots take turns.
 * A member at level 0 gets no highlight. A crowd entering at once keeps the newest
 * MAX_WAITING_HIGHLIGHTS waiting.
 */
import { assign, enqueueActions } from 'xstate';
import { setup } from '../setup';
import { HIGHLIGHT_SHIFT_MS, HIGHLIGHT_SHOW_MS, MAX_WAITING_HIGHLIGHTS } from './live-chat.types';
import type { Highlight } from './live-chat.types';

/** A highlight on show or waiting, numbered in arrival order (a stable key for the screen). */
export interface QueuedHighlight extends Highlight {
  seq: number;
}

export type HighlightSlot = 'A' | 'B';

export interface EnterHighlightsContext {
  waiting: readonly QueuedHighlight[];
  slots: Readonly<Record<HighlightSlot, QueuedHighlight | null>>;
  /** Highlights that arrived so far. */
  received: number;
}

export type EnterHighlightsEvent =
  | { type: 'highlight.add'; highlight: Highlight }
  /** Internal: a slot starts its 2 s. */
  | { type: 'highlight.shownA' }
  | { type: 'highlight.shownB' };

export const enterHighlightsMachine = setup({
  types: {
    context: {} as EnterHighlightsContext,
    events: {} as EnterHighlightsEvent,
  },
  delays: {
    highlightShift: HIGHLIGHT_SHIFT_MS,
    highlightShow: HIGHLIGHT_SHOW_MS,
  },
  guards: {
    /** SPEC §6: only members above level 0. */
    worthy: ({ event }) => event.type === 'highlight.add' && event.highlight.userLevel > 0,
    hasWaiting: ({ context }) => context.waiting.length > 0,
  },
  actions: {
    enqueue: assign(({ context, event }) => {
      if (event.type !== 'highlight.add') return {};
      const next = { ...event.highlight, seq: context.received + 1 };
      return { waiting: [...context.waiting, next].slice(-MAX_WAITING_HIGHLIGHTS), received: context.received + 1 };
    }),
    /** The first waiting one into the free slot (the one the older highlight left, or A). */
    showNext: enqueueActions(({ context, enqueue }) => {
      const [next, ...rest] = context.waiting;
      if (!next) return;
      const slot: HighlightSlot = context.slots.A === null || (context.slots.B !== null && context.slots.A.seq < context.slots.B.seq) ? 'A' : 'B';
      enqueue.assign({ waiting: rest, slots: { ...context.slots, [slot]: next } });
      enqueue.raise({ type: slot === 'A' ? 'highlight.shownA' : 'highlight.shownB' });
    }),
    clearA: assign({ slots: ({ context }) => ({ ...context.slots, A: null }) }),
    clearB: assign({ slots: ({ context }) => ({ ...context.slots, B: null }) }),
  },
}).createMachine({
  id: 'enterHighlights',
  context: { waiting: [], slots: { A: null, B: null }, received: 0 },
  type: 'parallel',
  states: {
    cadence: {
      initial: 'ready',
      states: {
        ready: {
          on: { 'highlight.add': { guard: 'worthy', target: 'cooling', actions: ['enqueue', 'showNext'] } },
        },
        /** One came in less than 1.2 s ago: the next waits. */
        cooling: {
          after: {
            highlightShift: [
              // Re-entered, so the one after it waits its own 1.2 s.
              { guard: 'hasWaiting', target: 'cooling', reenter: true, actions: 'showNext' },
              { target: 'ready' },
            ],
          },
          on: { 'highlight.add': { guard: 'worthy', actions: 'enqueue' } },
        },
      },
    },
    slotA: {
      initial: 'empty',
      states: {
        empty: { on: { 'highlight.shownA': 'shown' } },
        shown: {
          after: { highlightShow: { target: 'empty', actions: 'clearA' } },
          on: { 'highlight.shownA': { target: 'shown', reenter: true } },
        },
      },
    },
    slotB: {
      initial: 'empty',
      states: {
        empty: { on: { 'highlight.shownB': 'shown' } },
        shown: {
          after: { highlightShow: { target: 'empty', actions: 'clearB' } },
          on: { 'highlight.shownB': { target: 'shown', reenter: true } },
        },
      },
    },
  },
});

export type EnterHighlightsMachine = typeof enterHighlightsMachine;

/** The highlights on show, oldest first (the older one is leaving). */
export const highlightsOnShow = (context: EnterHighlightsContext): QueuedHighlight[] =>
  [context.slots.A, context.slots.B].filter((h): h is QueuedHighlight => h !== null).sort((a, b) => a.seq - b.seq);
