/**
 * Generated-path tests of the one follow (and block) protocol (SPEC §3 User profile; §7
 * followUser, blockUser / removeBlockUser), replayed with a manual-mode port, for a relation
 * known from a loaded profile and one read first (the live room's host), plus scenarios.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { followMachine } from './follow.machine';
import type { BlockChange, FollowChange, FollowContext, FollowInput, Relation } from './follow.machine';
import { selectReadingRelation, selectSavingBlock, selectSavingFollow } from './people.selectors';

function manual() {
  const pending = new PendingCalls();
  const logic = followMachine.provide({
    actors: {
      read: fromPromise<Relation, number>(({ input }) => pending.add('read', [input])),
      setFollowed: fromPromise<{ followed: boolean; followerCount: number }, FollowChange>(({ input }) => pending.add('setFollowed', [input])),
      setBlocked: fromPromise<boolean, BlockChange>(({ input }) => pending.add('setBlocked', [input])),
    },
  });
  return { pending, logic };
}

const samples: AnyEventObject[] = [
  { type: 'follow.toggle' }, { type: 'block.toggle' },
  { type: 'xstate.done.actor.read', output: { followed: true, blocked: false, followerCount: 5 } },
  { type: 'xstate.error.actor.read', error: new Error('Network Connection Failure') },
  { type: 'xstate.done.actor.setFollowed', output: { followed: true, followerCount: 11 } },
  { type: 'xstate.done.actor.setFollowed', output: { followed: false, followerCount: 10 } },
  { type: 'xstate.error.actor.setFollowed', error: new Error('Server Failure') },
  { type: 'xstate.done.actor.setBlocked', output: true },
  { type: 'xstate.done.actor.setBlocked', output: false },
  { type: 'xstate.error.actor.setBlocked', error: new Error('Server Failure') },
];

const serialize = (c: unknown) => {
  const { followed, blocked, followerCount, error } = c as FollowContext;
  return { followed, blocked, followerCount, error };
};

const inputs: Record<string, FollowInput> = {
  'known from the profile': { userId: 7, known: { followed: false, blocked: false, followerCount: 10 } },
  'read first (the live room)': { userId: 7 },
};

async function replay(input: FollowInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { input, inspect }).start();
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    if (kind === 'done') pending.latest(id!).resolve((event as AnyEventObject).output);
    else if (kind === 'error') pending.latest(id!).reject((event as AnyEventObject).error);
    else if (kind !== 'init') actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(serialize(snapshot.context)).toEqual(serialize(state.context));
    const c = snapshot.context;
    if (snapshot.matches('reading')) expect(pending.latest('read').args).toEqual([7]);
    // Known from the profile: nothing is read.
    if (input.known) expect(pending.count('read')).toBe(0);
    // A toggle asks for the opposite of what is shown, one at a time.
    if (selectSavingFollow(snapshot)) expect(pending.latest('setFollowed').args).toEqual([{ userId: 7, follow: !c.followed }]);
    if (selectSavingBlock(snapshot)) expect(pending.latest('setBlocked').args).toEqual([{ userId: 7, blocked: !c.blocked }]);
    expect(pending.open().filter((p) => p.method === 'setFollowed').length).toBeLessThanOrEqual(1);
    expect(pending.open().filter((p) => p.method === 'setBlocked').length).toBeLessThanOrEqual(1);
  }
  actor.stop();
}

describeGeneratedPaths('follow', followMachine, {
  events: samples,
  inputs,
  serializeContext: serialize,
  minPaths: 10,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('[§3 User profile] following and blocking', () => {
  it('follows, then unfollows; the follower count is the server\'s; a double tap is one request', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: inputs['known from the profile']! }).start();
    actor.send({ type: 'follow.toggle' });
    actor.send({ type: 'follow.toggle' });
    expect(pending.count('setFollowed')).toBe(1);
    pending.next('setFollowed').resolve({ followed: true, followerCount: 12 });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ followed: true, followerCount: 12 });
    actor.send({ type: 'follow.toggle' });
    expect(pending.next('setFollowed').args).toEqual([{ userId: 7, follow: false }]);
  });

  it('a failed block says why and leaves the state as it was; the next toggle clears the error', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: { userId: 7, known: { followed: false, blocked: true, followerCount: 1 } } }).start();
    actor.send({ type: 'block.toggle' });
    pending.next('setBlocked').reject(new Error('Network Connection Failure'));
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Network Connection Failure', blocked: true });
    actor.send({ type: 'block.toggle' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('the live room: waits while the relation is read; unread, it starts as not followed', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: { userId: 7 } }).start();
    expect(selectReadingRelation(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'follow.toggle' });
    expect(pending.count('setFollowed')).toBe(0);
    pending.next('read').reject(new Error('Network Connection Failure'));
    await flush();
    expect(selectReadingRelation(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context).toMatchObject({ followed: false, error: null });
  });
});
