/**
 * Generated-path tests of the host's wishlist editor (SPEC §3 Live info wishlist; §7
 * setAnchorWishlist), replayed with a manual save, plus the rules of a valid wishlist.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeWishlist } from './wishlist.actors';
import { countOf, rowsValid, wishesOf, wishlistMachine } from './wishlist.machine';
import type { WishlistContext, WishlistInput } from './wishlist.machine';
import { selectWishlistPhase } from './wishlist.selectors';

const inputs: Record<string, WishlistInput> = {
  'one wish saved, room for one more': { wishes: [{ giftId: 3, giftNum: 2 }], max: 2, maxCount: 99 },
};

const samples: AnyEventObject[] = [
  { type: 'wish.add' },
  { type: 'wish.remove', key: 1 },
  { type: 'wish.setGift', key: 1, giftId: 4 },
  { type: 'wish.setCount', key: 0, count: '0' },
  { type: 'wishlist.save' },
  { type: 'xstate.done.actor.save' },
  { type: 'xstate.error.actor.save', error: new Error('set wishlist is failed!') },
];

const serialize = (c: unknown) => ({ rows: (c as WishlistContext).rows });

async function replay(input: WishlistInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const actor = createActor(composeWishlist({ save: (wishes) => pending.add('save', [wishes]) }), { input, inspect }).start();
  for (const { event, state } of steps) {
    if (event.type === 'xstate.done.actor.save') pending.next('save').resolve(undefined);
    else if (event.type === 'xstate.error.actor.save') pending.next('save').reject((event as AnyEventObject).error);
    else if (event.type !== 'xstate.init') actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect(serialize(snapshot.context)).toEqual(serialize(state.context));
    const { rows, max, maxCount } = snapshot.context;
    // Never more wishes than allowed; one save at a time, of valid rows only.
    expect(rows.length).toBeLessThanOrEqual(max);
    expect(pending.open().length).toBeLessThanOrEqual(1);
    if (snapshot.matches('saving')) {
      const [sent] = pending.latest('save').args as [{ giftId: number; giftNum: number }[]];
      expect(new Set(sent.map((w) => w.giftId)).size).toBe(sent.length);
      expect(sent.every((w) => w.giftNum >= 1 && w.giftNum <= maxCount)).toBe(true);
    }
    if (snapshot.matches('editing')) expect(selectWishlistPhase(snapshot)).toBe('idle');
  }
  actor.stop();
}

describeGeneratedPaths('wishlist', wishlistMachine, {
  events: samples,
  inputs,
  serializeContext: serialize,
  minPaths: 6,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('[§3 Live info wishlist] editing and saving', () => {
  it('a count is a whole number from 1 to the most; a gift is wished once', () => {
    expect(countOf('3', 99)).toBe(3);
    expect([countOf('', 99), countOf('0', 99), countOf('1.5', 99), countOf('100', 99)]).toEqual([null, null, null, null]);
    expect(rowsValid([{ key: 0, giftId: 1, count: '2' }, { key: 1, giftId: 2, count: '1' }], 99)).toBe(true);
    expect(rowsValid([{ key: 0, giftId: 1, count: '2' }, { key: 1, giftId: 1, count: '1' }], 99)).toBe(false);
    expect(rowsValid([{ key: 0, giftId: null, count: '2' }], 99)).toBe(false);
    expect(wishesOf([{ key: 0, giftId: 1, count: '2' }], 99)).toEqual([{ giftId: 1, giftNum: 2 }]);
  });

  it('sends the rows as wishes once, says it saved, and an edit forgets that', async () => {
    const pending = new PendingCalls();
    const actor = createActor(composeWishlist({ save: (wishes) => pending.add('save', [wishes]) }), { input: inputs['one wish saved, room for one more']! }).start();
    actor.send({ type: 'wish.add' });
    actor.send({ type: 'wishlist.save' });
    expect(pending.count('save')).toBe(0);
    actor.send({ type: 'wish.setGift', key: 1, giftId: 4 });
    actor.send({ type: 'wishlist.save' });
    actor.send({ type: 'wishlist.save' });
    expect(pending.count('save')).toBe(1);
    expect(pending.latest('save').args).toEqual([[{ giftId: 3, giftNum: 2 }, { giftId: 4, giftNum: 1 }]]);
    pending.next('save').resolve(undefined);
    await flush();
    expect(selectWishlistPhase(actor.getSnapshot())).toBe('saved');
    actor.send({ type: 'wish.add' });
    expect(actor.getSnapshot().context.rows).toHaveLength(2);
    actor.send({ type: 'wish.remove', key: 0 });
    expect(selectWishlistPhase(actor.getSnapshot())).toBe('idle');
  });
});
