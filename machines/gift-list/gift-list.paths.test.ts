/**
 * Generated-path tests of the gift popup's list (SPEC §3 Gift categories with 'Popular',
 * §5 optional min/max price filter) with a manual loader: every load is answered by the path.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import type { GiftCategory, GiftFilter } from '../ports/gift.port';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { TEXT_FILTER_NOT_WHOLE, TEXT_FILTER_ORDER, filterProblem, giftListMachine } from './gift-list.machine';
import type { GiftListContext } from './gift-list.machine';

const rose = { id: 1, name: 'Rose', price: 1, smallImg: '/g/rose-s.svg', icon: '/g/rose.svg' };
const ring = { id: 11, name: 'Ring', price: 520, smallImg: '/g/ring-s.svg', icon: '/g/ring.svg' };
const list: GiftCategory[] = [
  { id: 1, name: 'Popular', gifts: [rose, ring] },
  { id: 2, name: 'Classic', gifts: [rose] },
];

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.load', output: list },
  { type: 'xstate.error.actor.load', error: new Error('Network Connection Failure') },
  { type: 'giftList.filter', filter: { minPrice: 10, maxPrice: 600 } },
  { type: 'giftList.filter', filter: {} },
  { type: 'giftList.filter', filter: { minPrice: 600, maxPrice: 10 } },
  { type: 'giftList.retry' },
];

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const actor = createActor(giftListMachine.provide({
    actors: { load: fromPromise(({ input }) => pending.add<GiftCategory[]>('load', [input])) },
  }), { inspect }).start();
  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const e = event as AnyEventObject;
    // A superseded load is the newest's business no more: answer the newest.
    if (event.type === 'xstate.done.actor.load') pending.latest('load').resolve(e.output);
    else if (event.type === 'xstate.error.actor.load') pending.latest('load').reject(e.error);
    else actor.send(event as never);
    await flush();

    const snapshot = actor.getSnapshot();
    const ctx: GiftListContext = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    expect(ctx.filter).toEqual((state.context as GiftListContext).filter);
    if (snapshot.matches('loading')) expect(pending.argsOf('load').at(-1)).toEqual([ctx.filter]);
    if (event.type === 'xstate.done.actor.load') expect(ctx.categories).toEqual(list);
    if (snapshot.matches('failed')) expect(ctx.error).toBe('Network Connection Failure');
    if (snapshot.matches('ready')) expect(ctx.error).toBeNull();
    // SPEC §5: an unusable filter changes nothing.
    if (e.type === 'giftList.filter' && filterProblem(e.filter as GiftFilter) !== null) {
      expect(snapshot.value).toEqual(before.value);
      expect(ctx.filter).toEqual(before.context.filter);
    }
  }
  actor.stop();
}

describeGeneratedPaths('gift list', giftListMachine, {
  events: samples,
  serializeContext: (c) => [(c as GiftListContext).filter, (c as GiftListContext).categories.length],
  minPaths: 10,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§5 gift price filter] optional min and max', () => {
  it.each([
    [{}, null],
    [{ minPrice: 0 }, null],
    [{ maxPrice: 99 }, null],
    [{ minPrice: 5, maxPrice: 5 }, null],
    [{ minPrice: 6, maxPrice: 5 }, TEXT_FILTER_ORDER],
    [{ minPrice: -1 }, TEXT_FILTER_NOT_WHOLE],
    [{ maxPrice: 2.5 }, TEXT_FILTER_NOT_WHOLE],
    [{ maxPrice: 1_000_001 }, TEXT_FILTER_NOT_WHOLE],
    [{ minPrice: Number.NaN }, TEXT_FILTER_NOT_WHOLE],
  ])('%j → %s', (filter, problem) => {
    expect(filterProblem(filter)).toBe(problem);
  });

  it('Scenario: a filter while a load runs replaces it; the old answer is not shown', async () => {
    const pending = new PendingCalls();
    const actor = createActor(giftListMachine.provide({
      actors: { load: fromPromise(({ input }) => pending.add<GiftCategory[]>('load', [input])) },
    })).start();
    actor.send({ type: 'giftList.filter', filter: { maxPrice: 10 } });
    pending.next('load').resolve(list);
    await flush();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    pending.latest('load').resolve([list[1]!]);
    await flush();
    expect(actor.getSnapshot().context.categories).toEqual([list[1]]);
  });
});
