/**
 * Load once: one answer, or why there is none, with a retry (SPEC §8: a failed lookup says why
 * and offers to try again). The live screens' lookups (send rank, the wishlist's gifts, the gift
 * task, the saved wishlist) run on it; the owner provides `load`.
 *
 *   starting ─wanted─▶ loading        ─not yet─▶ idle ─load.reload─▶ loading
 *   loading ─done─▶ ready (the answer)   ─error─▶ failed (its text)
 *   ready | failed ─load.reload─▶ loading (an answer shown meanwhile is kept)
 *   loading ─load.reload─▶ loading afresh (the answer of the load it replaces is dropped with its state)
 *
 * Loading is a state: an answer for a load that was left (reloaded, or the actor stopped) is
 * dropped with its state, so an older question's answer never lands over a newer one's.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { errorText } from '../paged-list/paged-list.machine';

export interface LoadOnceInput {
  /** False: wait for `load.reload` (nothing to load yet). */
  start: boolean;
}

export interface LoadOnceContext<T> {
  start: boolean;
  /** The last answer; kept while a reload runs or after it failed. */
  data: T | null;
  /** Why the last load failed; null after one that worked. */
  error: string | null;
}

/** Load (again): the retry of a failure, or a reload of an answer that may have changed. */
export type LoadOnceEvent = { type: 'load.reload' };

export function createLoadOnceMachine<T>() {
  return setup({
    types: {
      input: {} as LoadOnceInput,
      context: {} as LoadOnceContext<T>,
      events: {} as LoadOnceEvent,
    },
    actors: {
      load: fromPromise<T, void>(() => Promise.reject(new Error('load not provided'))),
    },
    guards: {
      wanted: ({ context }) => context.start,
    },
  }).createMachine({
    id: 'loadOnce',
    context: ({ input }) => ({ start: input.start, data: null, error: null }),
    initial: 'starting',
    states: {
      starting: { always: [{ guard: 'wanted', target: 'loading' }, { target: 'idle' }] },
      idle: { on: { 'load.reload': 'loading' } },
      loading: {
        on: { 'load.reload': { target: 'loading', reenter: true } },
        invoke: {
          id: 'load',
          src: 'load',
          onDone: { target: 'ready', actions: assign({ data: ({ event }) => event.output, error: null }) },
          onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
        },
      },
      ready: { on: { 'load.reload': 'loading' } },
      failed: { on: { 'load.reload': 'loading' } },
    },
  });
}

/** The machine with answers of unknown type; owners that want typed answers call createLoadOnceMachine<T>(). */
export const loadOnceMachine = createLoadOnceMachine<unknown>();

export type LoadOnceMachine<T = unknown> = ReturnType<typeof createLoadOnceMachine<T>>;
