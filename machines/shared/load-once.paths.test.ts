/**
 * Generated-path tests of the load-once machine (one answer or why there is none, with a
 * retry), replayed with a manual load, for a lookup that starts at once and one that waits.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { createLoadOnceMachine, loadOnceMachine } from './load-once.machine';
import type { LoadOnceContext, LoadOnceInput } from './load-once.machine';
import { selectLoadError, selectLoaded, selectLoading } from './load-once.selectors';

function manual() {
  const pending = new PendingCalls();
  const logic = loadOnceMachine.provide({ actors: { load: fromPromise<unknown, void>(() => pending.add('load', [])) } });
  return { pending, logic };
}

const samples: AnyEventObject[] = [
  { type: 'load.reload' },
  { type: 'xstate.done.actor.load', output: ['first'] },
  { type: 'xstate.done.actor.load', output: ['second'] },
  { type: 'xstate.error.actor.load', error: new Error('Network Connection Failure') },
];

const serialize = (c: unknown) => {
  const { data, error } = c as LoadOnceContext<unknown>;
  return { data, error };
};

const inputs: Record<string, LoadOnceInput> = { 'asked at once': { start: true }, 'nothing to ask yet': { start: false } };

async function replay(input: LoadOnceInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { input, inspect }).start();
  for (const { event, state } of steps) {
    if (event.type === 'xstate.done.actor.load') pending.latest('load').resolve((event as AnyEventObject).output);
    else if (event.type === 'xstate.error.actor.load') pending.latest('load').reject((event as AnyEventObject).error);
    else if (event.type !== 'xstate.init') actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(serialize(snapshot.context)).toEqual(serialize(state.context));
    // Loading is one question: the load asked last is the one answered.
    expect(selectLoading(snapshot)).toBe(snapshot.matches('loading'));
    if (snapshot.matches('idle')) expect(pending.count('load')).toBe(0);
    if (snapshot.matches('failed')) expect(selectLoadError(snapshot)).toBe('Network Connection Failure');
    else expect(selectLoadError(snapshot)).toBeNull();
  }
  actor.stop();
}

describeGeneratedPaths('loadOnce', loadOnceMachine, {
  events: samples,
  inputs,
  serializeContext: serialize,
  minPaths: 6,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('load once', () => {
  it('keeps the answer through a reload and a failed reload; the failure says why', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: { start: true } }).start();
    pending.next('load').resolve([1]);
    await flush();
    actor.send({ type: 'load.reload' });
    expect(selectLoaded(actor.getSnapshot())).toEqual([1]);
    pending.next('load').reject(new Error('Server Failure'));
    await flush();
    expect(actor.getSnapshot().context).toEqual({ start: true, data: [1], error: 'Server Failure' });
  });

  it('an answer for a load a reload replaced is dropped', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: { start: true } }).start();
    const older = pending.next('load');
    actor.send({ type: 'load.reload' });
    const newer = pending.latest('load');
    older.resolve('old');
    await flush();
    expect(actor.getSnapshot().value).toBe('loading');
    newer.resolve('new');
    await flush();
    expect(selectLoaded(actor.getSnapshot())).toBe('new');
  });

  it('a typed machine answers with its type', () => {
    const typed = createLoadOnceMachine<number[]>();
    expect(typed.id).toBe('loadOnce');
  });
});
