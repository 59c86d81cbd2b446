/**
 * Generated-path tests of another person's profile (SPEC §2 /userProfile; §7 getUserDetail),
 * replayed with a manual-mode port, plus scenarios of its relation child (follow.machine.ts, whose
 * own paths are in follow.paths.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import type { ProfileDetail } from './people.port';
import { composeUserProfile } from './people.actors';
import { selectProfilePhase, selectRelation, selectSavingFollow } from './people.selectors';
import { relationOf, userProfileMachine } from './user-profile.machine';

export const detail = (change: Partial<ProfileDetail> = {}): ProfileDetail => ({
  userId: 7, yxAccid: 'yx7', nickname: 'Sofia', icon: '/avatars/h7.svg', userType: 2, userLevel: 3, levelName: 'Lv.3',
  age: 24, countryName: 'Brazil', countryCode: 'BR', isVip: false, onlineGroupStatus: 1, videoPrice: 50, tags: [],
  picList: [{ mediaType: 1, mediaUrl: '/avatars/h7-1.svg' }, { mediaType: 2, mediaUrl: '/media/v.mp4' }],
  isFollowed: false, isBlockUser: false, followerCount: 10, followingCount: 2, living: false, ...change,
});

function manual() {
  const pending = new PendingCalls();
  const logic = composeUserProfile({
    loadProfile: (target) => pending.add('load', [target]),
    setFollowed: (userId, follow) => pending.add('setFollowed', [{ userId, follow }]),
    setBlocked: (userId, blocked) => pending.add('setBlocked', [{ userId, blocked }]),
  });
  return { pending, logic };
}

const samples: AnyEventObject[] = [
  { type: 'profile.retry' },
  { type: 'xstate.done.actor.load', output: detail() },
  { type: 'xstate.done.actor.load', output: detail({ isFollowed: true, isBlockUser: true }) },
  { type: 'xstate.error.actor.load', error: new Error('no.match.user') },
];

const serialize = (c: unknown) => {
  const { detail: d, error } = c as { detail: ProfileDetail | null; error: string | null };
  return { followed: d?.isFollowed ?? null, blocked: d?.isBlockUser ?? null, error };
};

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { input: { target: { userId: 7 } }, inspect }).start();
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    if (kind === 'done') pending.latest(id!).resolve((event as AnyEventObject).output);
    else if (kind === 'error') pending.latest(id!).reject((event as AnyEventObject).error);
    else if (kind !== 'init') actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(serialize(snapshot.context)).toEqual(serialize(state.context));
    if (snapshot.matches('loading')) expect(pending.latest('load').args).toEqual([{ userId: 7 }]);
    // The relation lives exactly as long as the loaded profile, from what the profile says of it.
    const relation = selectRelation(snapshot);
    if (snapshot.matches('loaded')) expect(relation?.getSnapshot().context).toMatchObject(relationOf(snapshot.context.detail!));
    else expect(relation).toBeUndefined();
    if (snapshot.matches('failed')) expect(selectProfilePhase(snapshot)).toBe('failed');
  }
  actor.stop();
}

describeGeneratedPaths('userProfile', userProfileMachine, {
  events: samples,
  inputs: { 'by user id': { target: { userId: 7 } } },
  serializeContext: serialize,
  minPaths: 4,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§2 /userProfile] follow and block', () => {
  it('follows, then unfollows through its relation; the follower count is the server\'s; a double tap is one request', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: { target: { yxAccid: 'yx7' } } }).start();
    expect(pending.next('load').args).toEqual([{ yxAccid: 'yx7' }]);
    pending.next<ProfileDetail>('load').resolve(detail());
    await flush();
    const relation = selectRelation(actor.getSnapshot())!;
    relation.send({ type: 'follow.toggle' });
    relation.send({ type: 'follow.toggle' });
    expect(pending.count('setFollowed')).toBe(1);
    expect(selectSavingFollow(relation.getSnapshot())).toBe(true);
    pending.next('setFollowed').resolve({ followed: true, followerCount: 12 });
    await flush();
    expect(relation.getSnapshot().context).toMatchObject({ followed: true, followerCount: 12 });
    relation.send({ type: 'follow.toggle' });
    expect(pending.next('setFollowed').args).toEqual([{ userId: 7, follow: false }]);
  });

  it('a failed block says why and leaves the state as it was', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: { target: { userId: 7 } } }).start();
    pending.next<ProfileDetail>('load').resolve(detail({ isBlockUser: true }));
    await flush();
    const relation = selectRelation(actor.getSnapshot())!;
    relation.send({ type: 'block.toggle' });
    pending.next('setBlocked').reject(new Error('Network Connection Failure'));
    await flush();
    expect(relation.getSnapshot().context).toMatchObject({ error: 'Network Connection Failure', blocked: true });
  });
});
