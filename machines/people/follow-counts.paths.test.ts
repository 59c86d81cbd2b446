/**
 * Generated-path tests of the follower counts (SPEC §4 system message -4 "increments follower
 * count"), replayed with a manual-mode loader.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { followCountsMachine } from './follow-counts.machine';
import type { FollowCounts } from './follow-counts.machine';
import { selectCounts } from './people.selectors';

function manual() {
  const pending = new PendingCalls();
  const logic = followCountsMachine.provide({ actors: { load: fromPromise<FollowCounts, void>(() => pending.add('load', [])) } });
  return { pending, logic };
}

const samples: AnyEventObject[] = [
  { type: 'follower.added' }, { type: 'counts.reload' },
  { type: 'xstate.done.actor.load', output: { followerCount: 4, followingCount: 2 } },
  { type: 'xstate.error.actor.load', error: new Error('Server Failure') },
];

const serialize = (c: unknown) => {
  const { counts, error } = c as { counts: FollowCounts | null; error: string | null };
  return { loaded: counts !== null, error };
};

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { inspect }).start();
  for (const { event, state } of steps) {
    const before = actor.getSnapshot().context.counts;
    if (event.type === 'xstate.done.actor.load') pending.latest('load').resolve((event as AnyEventObject).output);
    else if (event.type === 'xstate.error.actor.load') pending.latest('load').reject((event as AnyEventObject).error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(serialize(snapshot.context)).toEqual(serialize(state.context));
    if (event.type === 'follower.added' && snapshot.matches('ready')) {
      expect(snapshot.context.counts!.followerCount).toBe(before!.followerCount + 1);
    }
    // A load runs while loading (a superseded one may still be open, its answer dropped).
    if (snapshot.matches('loading')) expect(pending.open().length).toBeGreaterThanOrEqual(1);
  }
  actor.stop();
}

describeGeneratedPaths('followCounts', followCountsMachine, {
  events: samples,
  serializeContext: serialize,
  minPaths: 8,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§4 -4] follower count', () => {
  it('goes up by one per new follower; a follower during the load loads again', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic).start();
    actor.send({ type: 'follower.added' });
    expect(pending.count('load')).toBe(2);
    pending.latest<FollowCounts>('load').resolve({ followerCount: 5, followingCount: 1 });
    await flush();
    actor.send({ type: 'follower.added' });
    actor.send({ type: 'follower.added' });
    expect(selectCounts(actor.getSnapshot())).toEqual({ followerCount: 7, followingCount: 1 });
  });
});
