/**
 * Generated-path tests of another person's profile (SPEC §2 /userProfile; §7 followUser,
 * blockUser / removeBlockUser), replayed with a manual-mode port, plus scenarios.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import type { ProfileDetail, ProfileTarget } from './people.port';
import { selectProfilePhase, selectSavingBlock, selectSavingFollow } from './people.selectors';
import { userProfileMachine } from './user-profile.machine';
import type { BlockChange, FollowChange } from './user-profile.machine';

export const detail = (change: Partial<ProfileDetail> = {}): ProfileDetail => ({
  userId: 7, yxAccid: 'yx7', nickname: 'Sofia', icon: '/avatars/h7.svg', userType: 2, userLevel: 3, levelName: 'Lv.3',
  age: 24, countryName: 'Brazil', countryCode: 'BR', isVip: false, onlineGroupStatus: 1, videoPrice: 50, tags: [],
  picList: [{ mediaType: 1, mediaUrl: '/avatars/h7-1.svg' }, { mediaType: 2, mediaUrl: '/media/v.mp4' }],
  isFollowed: false, isBlockUser: false, followerCount: 10, followingCount: 2, living: false, ...change,
});

function manual() {
  const pending = new PendingCalls();
  const logic = userProfileMachine.provide({
    actors: {
      load: fromPromise<ProfileDetail, ProfileTarget>(({ input }) => pending.add('load', [input])),
      setFollowed: fromPromise<{ followed: boolean; followerCount: number }, FollowChange>(({ input }) => pending.add('setFollowed', [input])),
      setBlocked: fromPromise<boolean, BlockChange>(({ input }) => pending.add('setBlocked', [input])),
    },
  });
  return { pending, logic };
}

const samples: AnyEventObject[] = [
  { type: 'profile.retry' }, { type: 'profile.toggleFollow' }, { type: 'profile.toggleBlock' },
  { type: 'xstate.done.actor.load', output: detail() },
  { type: 'xstate.error.actor.load', error: new Error('no.match.user') },
  { type: 'xstate.done.actor.setFollowed', output: { followed: true, followerCount: 11 } },
  { type: 'xstate.done.actor.setFollowed', output: { followed: false, followerCount: 10 } },
  { type: 'xstate.error.actor.setFollowed', error: new Error('Server Failure') },
  { type: 'xstate.done.actor.setBlocked', output: true },
  { type: 'xstate.done.actor.setBlocked', output: false },
  { type: 'xstate.error.actor.setBlocked', error: new Error('Server Failure') },
];

const serialize = (c: unknown) => {
  const { detail: d, error, actionError } = c as { detail: ProfileDetail | null; error: string | null; actionError: string | null };
  return { followed: d?.isFollowed ?? null, blocked: d?.isBlockUser ?? null, error, actionError };
};

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { input: { target: { userId: 7 } }, inspect }).start();
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    if (kind === 'done') pending.latest(id!).resolve((event as AnyEventObject).output);
    else if (kind === 'error') pending.latest(id!).reject((event as AnyEventObject).error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(serialize(snapshot.context)).toEqual(serialize(state.context));
    const d = snapshot.context.detail;
    if (snapshot.matches('loading')) expect(pending.latest('load').args).toEqual([{ userId: 7 }]);
    // A toggle asks for the opposite of what is shown.
    if (snapshot.matches({ loaded: { follow: 'saving' } })) expect(pending.latest('setFollowed').args).toEqual([{ userId: 7, follow: !d!.isFollowed }]);
    if (snapshot.matches({ loaded: { block: 'saving' } })) expect(pending.latest('setBlocked').args).toEqual([{ userId: 7, blocked: !d!.isBlockUser }]);
    expect(pending.open().filter((c) => c.method === 'setFollowed').length).toBeLessThanOrEqual(1);
    if (snapshot.matches('failed')) expect(selectProfilePhase(snapshot)).toBe('failed');
  }
  actor.stop();
}

describeGeneratedPaths('userProfile', userProfileMachine, {
  events: samples,
  inputs: { 'by user id': { target: { userId: 7 } } },
  serializeContext: serialize,
  minPaths: 20,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§2 /userProfile] follow and block', () => {
  it('follows, then unfollows; the follower count is the server\'s; a double tap is one request', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: { target: { yxAccid: 'yx7' } } }).start();
    expect(pending.next('load').args).toEqual([{ yxAccid: 'yx7' }]);
    pending.next<ProfileDetail>('load').resolve(detail());
    await flush();
    actor.send({ type: 'profile.toggleFollow' });
    actor.send({ type: 'profile.toggleFollow' });
    expect(pending.count('setFollowed')).toBe(1);
    expect(selectSavingFollow(actor.getSnapshot())).toBe(true);
    pending.next('setFollowed').resolve({ followed: true, followerCount: 12 });
    await flush();
    expect(actor.getSnapshot().context.detail).toMatchObject({ isFollowed: true, followerCount: 12 });
    actor.send({ type: 'profile.toggleFollow' });
    expect(pending.next('setFollowed').args).toEqual([{ userId: 7, follow: false }]);
  });

  it('a failed block says why and leaves the state as it was', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: { target: { userId: 7 } } }).start();
    pending.next<ProfileDetail>('load').resolve(detail({ isBlockUser: true }));
    await flush();
    actor.send({ type: 'profile.toggleBlock' });
    expect(selectSavingBlock(actor.getSnapshot())).toBe(true);
    pending.next('setBlocked').reject(new Error('Network Connection Failure'));
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ actionError: 'Network Connection Failure', detail: { isBlockUser: true } });
  });
});
