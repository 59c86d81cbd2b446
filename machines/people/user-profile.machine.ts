/**
 * Another person's profile (SPEC §2 /userProfile; §3 User profile; §7 getUserDetail,
 * followUser, blockUser / removeBlockUser).
 *
 *   loading ─done─▶ loaded ─error─▶ failed ─profile.retry─▶ loading
 *   loaded: the relation (following, blocking) runs as the child `relation` (follow.machine.ts,
 *           the one follow protocol, also the live room's), from what the profile says of it
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { errorText } from '../paged-list/paged-list.machine';
import { followMachine } from './follow.machine';
import type { Relation } from './follow.machine';
import type { ProfileDetail, ProfileTarget } from './people.port';

export type { BlockChange, FollowChange } from './follow.machine';

export interface UserProfileContext {
  target: ProfileTarget;
  detail: ProfileDetail | null;
  /** Why the profile did not load. */
  error: string | null;
}

export type UserProfileEvent = { type: 'profile.retry' };

/** What a loaded profile says of one's relation to the person. */
export const relationOf = (d: Pick<ProfileDetail, 'isFollowed' | 'isBlockUser' | 'followerCount'>): Relation =>
  ({ followed: d.isFollowed, blocked: d.isBlockUser, followerCount: d.followerCount });

export const userProfileMachine = setup({
  types: {
    input: {} as { target: ProfileTarget },
    context: {} as UserProfileContext,
    events: {} as UserProfileEvent,
    children: {} as { relation: 'relation' },
  },
  actors: {
    load: fromPromise<ProfileDetail, ProfileTarget>(() => Promise.reject(new Error('load not provided'))),
    relation: followMachine,
  },
}).createMachine({
  id: 'userProfile',
  context: ({ input }) => ({ target: input.target, detail: null, error: null }),
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
      invoke: {
        id: 'relation',
        src: 'relation',
        input: ({ context }) => ({ userId: context.detail!.userId, known: relationOf(context.detail!) }),
      },
    },
  },
});

export type UserProfileMachine = typeof userProfileMachine;
