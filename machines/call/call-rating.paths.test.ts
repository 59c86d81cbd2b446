/**
 * Generated-path tests of an ended call's rating (SPEC §3 Call rating payload, §7 callRate),
 * replayed with a manual call API, plus the rating's input and payload.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeCallRating } from './call-rating.actors';
import { callRatingMachine, ratingInputOf, ratingOf } from './call-rating.machine';
import type { CallRatingInput } from './call-rating.machine';

const input: CallRatingInput = { channelId: 'ch1', callType: 0, answerTime: 75, userType: 1 };

const samples: AnyEventObject[] = [
  { type: 'rating.choose', category: 4 }, { type: 'rating.setAbnormal', abnormal: true }, { type: 'rating.send' },
  { type: 'xstate.done.actor.rate' }, { type: 'xstate.error.actor.rate', error: new Error('Network Connection Failure') },
];

const serialize = (c: unknown) => {
  const { category, abnormal } = c as { category: number; abnormal: boolean };
  return { category, abnormal };
};

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const actor = createActor(composeCallRating({ rate: (rating) => pending.add('rate', [rating]) }), { input, inspect }).start();
  for (const { event, state } of steps) {
    if (event.type === 'xstate.done.actor.rate') pending.next('rate').resolve(undefined);
    else if (event.type === 'xstate.error.actor.rate') pending.next('rate').reject((event as AnyEventObject).error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(serialize(snapshot.context)).toEqual(serialize(state.context));
    // One rating at a time, and only with stars chosen: the payload is what was chosen.
    expect(pending.open().length).toBeLessThanOrEqual(1);
    if (snapshot.matches('sending')) expect(pending.latest('rate').args).toEqual([ratingOf(snapshot.context)]);
    if (snapshot.matches('sending')) expect(snapshot.context.category).toBeGreaterThan(0);
  }
  actor.stop();
}

describeGeneratedPaths('callRating', callRatingMachine, {
  events: samples,
  inputs: { 'a user rates': input },
  serializeContext: serialize,
  minPaths: 4,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§3 Call rating] the rating of an ended call', () => {
  it('only a call that took place on a channel is rated; a host rates as 2, a user as 1', () => {
    expect(ratingInputOf({ channelId: 'ch1', callType: 10, answerTime: 3 }, true)).toEqual({ channelId: 'ch1', callType: 10, answerTime: 3, userType: 2 });
    expect(ratingInputOf({ channelId: 'ch1', callType: 0, answerTime: 3 }, false)?.userType).toBe(1);
    expect(ratingInputOf({ channelId: 'ch1', callType: 0, answerTime: 0 }, false)).toBeNull();
    expect(ratingInputOf({ channelId: null, callType: 0, answerTime: 9 }, false)).toBeNull();
  });

  it('sends nothing without stars; stars stay within 1–5; abnormal is 0 or 1', () => {
    const actor = createActor(callRatingMachine, { input }).start();
    actor.send({ type: 'rating.send' });
    expect(actor.getSnapshot().value).toBe('rating');
    actor.send({ type: 'rating.choose', category: 9 });
    expect(actor.getSnapshot().context.category).toBe(5);
    actor.send({ type: 'rating.setAbnormal', abnormal: true });
    expect(ratingOf(actor.getSnapshot().context)).toEqual({ ...input, category: 5, abnormal: 1 });
    actor.stop();
  });

  it('a failed rating can be sent again, a double tap sends once, and once sent it is done', async () => {
    const pending = new PendingCalls();
    const actor = createActor(composeCallRating({ rate: (rating) => pending.add('rate', [rating]) }), { input }).start();
    actor.send({ type: 'rating.choose', category: 3 });
    actor.send({ type: 'rating.send' });
    actor.send({ type: 'rating.send' });
    expect(pending.count('rate')).toBe(1);
    pending.next('rate').reject(new Error('Server Failure'));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    actor.send({ type: 'rating.send' });
    pending.next('rate').resolve(undefined);
    await flush();
    expect(actor.getSnapshot().status).toBe('done');
  });
});
