/**
 * One's relation to another person: following and blocking (SPEC §3 User profile; §7
 * followUser, blockUser / removeBlockUser). The one follow protocol of the app: the user
 * profile runs it as its child `relation` once the profile is loaded, and the live room's
 * Follow button runs it for the room's host.
 *
 *   starting ─known─▶ ready                     (the profile gives what it loaded)
 *            ─else─▶ reading ─done─▶ ready       (the room: read from the person's profile)
 *                            ─error─▶ ready (as not followed: following twice is still one follow)
 *   ready (parallel):
 *     follow: idle ─follow.toggle─▶ saving ─done─▶ idle (followed, follower count) ─error─▶ idle (error said)
 *     block:  idle ─block.toggle─▶ saving ─done─▶ idle (blocked) ─error─▶ idle (error said)
 *
 * A toggle asks for the opposite of what is shown; a second tap while one is saving has no
 * transition and is dropped, so a double tap never follows and unfollows at once.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { errorText } from '../paged-list/paged-list.machine';

/** What is known of the relation. */
export interface Relation {
  followed: boolean;
  blocked: boolean;
  /** The person's followers; null when not known. */
  followerCount: number | null;
}

export interface FollowInput {
  userId: number;
  /** Known already (the loaded profile); without it the relation is read first. */
  known?: Relation;
}

export interface FollowContext extends Relation {
  userId: number;
  known: boolean;
  /** Why the last follow or block did not go through. */
  error: string | null;
}

export type FollowEvent = { type: 'follow.toggle' } | { type: 'block.toggle' };

export interface FollowChange {
  userId: number;
  follow: boolean;
}

export interface BlockChange {
  userId: number;
  blocked: boolean;
}

/** Before anything is known: not followed, not blocked. */
const UNKNOWN: Relation = { followed: false, blocked: false, followerCount: null };

export const followMachine = setup({
  types: {
    input: {} as FollowInput,
    context: {} as FollowContext,
    events: {} as FollowEvent,
  },
  actors: {
    read: fromPromise<Relation, number>(() => Promise.reject(new Error('read not provided'))),
    setFollowed: fromPromise<{ followed: boolean; followerCount: number }, FollowChange>(
      () => Promise.reject(new Error('setFollowed not provided')),
    ),
    setBlocked: fromPromise<boolean, BlockChange>(() => Promise.reject(new Error('setBlocked not provided'))),
  },
  guards: {
    known: ({ context }) => context.known,
  },
  actions: {
    recordError: assign((_, failure: { error: unknown }) => ({ error: errorText(failure.error) })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'follow',
  context: ({ input }) => ({ userId: input.userId, ...(input.known ?? UNKNOWN), known: input.known !== undefined, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'known', target: 'ready' }, { target: 'reading' }],
    },
    reading: {
      invoke: {
        id: 'read',
        src: 'read',
        input: ({ context }) => context.userId,
        onDone: { target: 'ready', actions: assign(({ event }) => ({ ...event.output, known: true })) },
        // Not known: shown as not followed (a follow then is still one follow).
        onError: 'ready',
      },
    },
    ready: {
      type: 'parallel',
      states: {
        follow: {
          initial: 'idle',
          states: {
            idle: { on: { 'follow.toggle': { target: 'saving', actions: 'clearError' } } },
            saving: {
              invoke: {
                id: 'setFollowed',
                src: 'setFollowed',
                input: ({ context }) => ({ userId: context.userId, follow: !context.followed }),
                onDone: {
                  target: 'idle',
                  actions: assign(({ event }) => ({ followed: event.output.followed, followerCount: event.output.followerCount })),
                },
                onError: { target: 'idle', actions: { type: 'recordError', params: ({ event }) => event } },
              },
            },
          },
        },
        block: {
          initial: 'idle',
          states: {
            idle: { on: { 'block.toggle': { target: 'saving', actions: 'clearError' } } },
            saving: {
              invoke: {
                id: 'setBlocked',
                src: 'setBlocked',
                input: ({ context }) => ({ userId: context.userId, blocked: !context.blocked }),
                onDone: { target: 'idle', actions: assign({ blocked: ({ event }) => event.output }) },
                onError: { target: 'idle', actions: { type: 'recordError', params: ({ event }) => event } },
              },
            },
          },
        },
      },
    },
  },
});

export type FollowMachine = typeof followMachine;
