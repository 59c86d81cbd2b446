/**
 * The signed-in person's follower and following counts (SPEC §2 /followList; §4 system message
 * -4 "increments follower count"), shown on Mine.
 *
 *   loading ─done─▶ ready ─follower.added─▶ ready (follower count + 1)
 *           ─error─▶ failed ─counts.reload─▶ loading
 *   ready ─counts.reload─▶ loading (the counts shown meanwhile)
 *   loading ─follower.added─▶ loading again (an answer already on its way may not count the new follower)
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { errorText } from '../paged-list/paged-list.machine';

export interface FollowCounts {
  followerCount: number;
  followingCount: number;
}

export interface FollowCountsContext {
  counts: FollowCounts | null;
  error: string | null;
}

export type FollowCountsEvent = { type: 'follower.added' } | { type: 'counts.reload' };

export const followCountsMachine = setup({
  types: {
    context: {} as FollowCountsContext,
    events: {} as FollowCountsEvent,
  },
  actors: {
    load: fromPromise<FollowCounts, void>(() => Promise.reject(new Error('load not provided'))),
  },
}).createMachine({
  id: 'followCounts',
  context: { counts: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        onDone: { target: 'ready', actions: assign({ counts: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
      on: { 'follower.added': { target: 'loading', reenter: true } },
    },
    ready: {
      on: {
        'follower.added': {
          actions: assign({
            counts: ({ context }) => context.counts && { ...context.counts, followerCount: context.counts.followerCount + 1 },
          }),
        },
        'counts.reload': 'loading',
      },
    },
    failed: { on: { 'counts.reload': 'loading' } },
  },
});

export type FollowCountsMachine = typeof followCountsMachine;
