/**
 * Generated-path tests of the gift animation queue (SPEC §4 one at a time, §9 hide after
 * 5 s) with fake timers: every path is replayed on the real actor, and at each step the
 * queue is checked against a plain first-in-first-out model of it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { GIFT_SHOW_MS } from '../ports/gift.port';
import type { ReceivedGift } from '../ports/gift.port';
import { afterEvent, describeGeneratedPaths } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { giftQueueMachine } from './gift-queue.machine';
import type { GiftQueueContext } from './gift-queue.machine';

const rose: ReceivedGift = { giftId: 1, giftName: 'Rose', giftImg: '/gifts/rose.svg', giftNum: 3, fromNick: 'Alex' };
const ring: ReceivedGift = { giftId: 11, giftName: 'Ring', giftImg: '/gifts/ring.svg', giftNum: 1, fromNick: 'Alex' };
const SHOW = afterEvent('giftShow', 'giftQueue.showing');

const samples: AnyEventObject[] = [
  { type: 'gift.received', gift: rose }, { type: 'gift.received', gift: ring }, { type: 'gift.dismiss' }, { type: SHOW },
];

const flush = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const actor = createActor(giftQueueMachine, { inspect }).start();
  /** The model: what arrived and has not been shown yet, and what is showing. */
  let showing: ReceivedGift | null = null;
  const waiting: ReceivedGift[] = [];
  const shown: number[] = [];
  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    if (event.type === SHOW) {
      // Nothing changes a moment before the 5 s are up.
      await vi.advanceTimersByTimeAsync(GIFT_SHOW_MS - 1);
      expect(actor.getSnapshot().context.current?.seq).toBe(before.context.current?.seq);
      await vi.advanceTimersByTimeAsync(1);
    } else {
      actor.send(event as never);
      await flush();
    }
    const e = event as AnyEventObject;
    if (e.type === 'gift.received') {
      if (showing) waiting.push(e.gift as ReceivedGift);
      else showing = e.gift as ReceivedGift;
    } else {
      showing = waiting.shift() ?? null;
    }

    const snapshot = actor.getSnapshot();
    const ctx: GiftQueueContext = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    // One at a time, in arrival order, none lost.
    expect(ctx.current === null ? null : { ...ctx.current, seq: undefined }).toEqual(showing === null ? null : { ...showing, seq: undefined });
    expect(ctx.waiting.map(({ seq: _, ...g }) => g)).toEqual(waiting);
    expect(snapshot.matches('idle')).toBe(ctx.current === null);
    if (ctx.current && shown.at(-1) !== ctx.current.seq) shown.push(ctx.current.seq);
    expect([...shown].sort((a, b) => a - b)).toEqual(shown);
    expect(new Set(shown).size).toBe(shown.length);
  }
  actor.stop();
}

describeGeneratedPaths('gift queue', giftQueueMachine, {
  events: samples,
  serializeContext: (c) => {
    const ctx = c as GiftQueueContext;
    return [ctx.current?.giftId ?? null, ctx.waiting.map((g) => g.giftId)];
  },
  // Two waiting are enough to show the order; more only repeats it.
  possible: (s, e) => !(e.type === 'gift.received' && (s.context as GiftQueueContext).waiting.length >= 2),
  minPaths: 10,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§9 gift animation] timing', () => {
  it('Scenario: three gifts in a burst show 5 s each, one after another', async () => {
    const actor = createActor(giftQueueMachine).start();
    for (const gift of [rose, ring, rose]) actor.send({ type: 'gift.received', gift });
    const seen: (number | undefined)[] = [];
    for (let t = 0; t < 3; t++) {
      seen.push(actor.getSnapshot().context.current?.seq);
      await vi.advanceTimersByTimeAsync(GIFT_SHOW_MS);
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(actor.getSnapshot().matches('idle')).toBe(true);
  });
});
