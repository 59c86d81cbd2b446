/**
 * Another person's profile (SPEC §2 /userProfile; §3 User profile; §7 getUserDetail,
 * followUser, blockUser / removeBlockUser).
 *
 *   loading ─done─▶ loaded ─error─▶ failed ─profile.retry─▶ loading
 *   loaded (parallel):
 *     follow: idle ─profile.toggleFollow─▶ saving ─done─▶ idle (followed, follower count) ─error─▶ idle (error said)
 *     block:  idle ─profile.toggleBlock─▶ saving ─done─▶ idle (blocked) ─error─▶ idle (error said)
 *
 * A toggle asks for the opposite of what the profile shows; a second tap while one is saving
 * has no transition and is dropped, so a double tap never follows and unfollows at once.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { errorText } from '../paged-list/paged-list.machine';
import type { ProfileDetail, ProfileTarget } from './people.port';

export interface UserProfileContext {
  target: ProfileTarget;
  detail: ProfileDetail | null;
  /** Why the profile did not load. */
  error: string | null;
  /** Why the last follow or block did not go through. */
  actionError: string | null;
}

export type UserProfileEvent =
  | { type: 'profile.retry' }
  | { type: 'profile.toggleFollow' }
  | { type: 'profile.toggleBlock' };

export interface FollowChange {
  userId: number;
  follow: boolean;
}

export interface BlockChange {
  userId: number;
  blocked: boolean;
}

export const userProfileMachine = setup({
  types: {
    input: {} as { target: ProfileTarget },
    context: {} as UserProfileContext,
    events: {} as UserProfileEvent,
  },
  actors: {
    load: fromPromise<ProfileDetail, ProfileTarget>(() => Promise.reject(new Error('load not provided'))),
    setFollowed: fromPromise<{ followed: boolean; followerCount: number }, FollowChange>(
      () => Promise.reject(new Error('setFollowed not provided')),
    ),
    setBlocked: fromPromise<boolean, BlockChange>(() => Promise.reject(new Error('setBlocked not provided'))),
  },
  actions: {
    recordActionError: assign((_, failure: { error: unknown }) => ({ actionError: errorText(failure.error) })),
  },
}).createMachine({
  id: 'userProfile',
  context: ({ input }) => ({ target: input.target, detail: null, error: null, actionError: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => context.target,
        onDone: { target: 'loaded', actions: assign({ detail: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorText(event.error) }) },
      },
    },
    failed: { on: { 'profile.retry': 'loading' } },
    loaded: {
      type: 'parallel',
      states: {
        follow: {
          initial: 'idle',
          states: {
            idle: { on: { 'profile.toggleFollow': { target: 'saving', actions: assign({ actionError: null }) } } },
            saving: {
              invoke: {
                id: 'setFollowed',
                src: 'setFollowed',
                input: ({ context }) => ({ userId: context.detail!.userId, follow: !context.detail!.isFollowed }),
                onDone: {
                  target: 'idle',
                  actions: assign({
                    detail: ({ context, event }) => ({
                      ...context.detail!, isFollowed: event.output.followed, followerCount: event.output.followerCount,
                    }),
                  }),
                },
                onError: { target: 'idle', actions: { type: 'recordActionError', params: ({ event }) => event } },
              },
            },
          },
        },
        block: {
          initial: 'idle',
          states: {
            idle: { on: { 'profile.toggleBlock': { target: 'saving', actions: assign({ actionError: null }) } } },
            saving: {
              invoke: {
                id: 'setBlocked',
                src: 'setBlocked',
                input: ({ context }) => ({ userId: context.detail!.userId, blocked: !context.detail!.isBlockUser }),
                onDone: {
                  target: 'idle',
                  actions: assign({ detail: ({ context, event }) => ({ ...context.detail!, isBlockUser: event.output }) }),
                },
                onError: { target: 'idle', actions: { type: 'recordActionError', params: ({ event }) => event } },
              },
            },
          },
        },
      },
    },
  },
});

export type UserProfileMachine = typeof userProfileMachine;
