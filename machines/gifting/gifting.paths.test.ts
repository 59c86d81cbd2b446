/**
 * Generated-path tests of the user's gifts in a call (SPEC §2 gift panel and incoming ask,
 * §5 gift quantity 1–99 integer) with a manual gift API: every send and refusal is answered
 * by the path.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { GiftApiError } from '../ports/gift.port';
import type { GiftAsk } from '../ports/gift.port';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { TEXT_GIFT_SENT, giftingMachine, isGiftQuantity } from './gifting.machine';
import type { GiftingContext, GiftingInput } from './gifting.machine';

const ask = (askId: number, giftId: number, channelId = 'ch1'): GiftAsk => ({
  askId, channelId, giftId, giftName: giftId === 1 ? 'Rose' : 'Ring', giftImg: '/g.svg', giftPrice: giftId === 1 ? 1 : 520, fromNick: 'Sofia',
});
const NOT_ENOUGH = 'You do not have enough diamonds.';

const samples: AnyEventObject[] = [
  { type: 'gift.send', giftId: 1, giftNum: 2 },
  { type: 'gift.send', giftId: 1, giftNum: 100 },
  { type: 'gift.send', giftId: 1, giftNum: 1.5 },
  { type: 'system.giftAsked', ask: ask(5, 11) },
  { type: 'system.giftAsked', ask: ask(6, 1) },
  { type: 'system.giftAsked', ask: ask(7, 1, 'an-earlier-call') },
  { type: 'gift.sendAsked' }, { type: 'gift.refuseAsk' },
  { type: 'xstate.done.actor.send', output: { balance: 900 } },
  { type: 'xstate.error.actor.send', error: new GiftApiError('balance', NOT_ENOUGH) },
  { type: 'xstate.done.actor.refuseAsk', output: 5 },
  { type: 'xstate.done.actor.refuseAsk', output: 6 },
  { type: 'xstate.error.actor.refuseAsk', error: new Error('This request for a gift does not exist.') },
];

const inputs: Record<string, GiftingInput> = {
  'balance known': { channelId: 'ch1', toUserId: 100001, balance: 1000 },
  'balance unknown': { channelId: 'ch1', toUserId: 100001, balance: null },
};

const flush = () => vi.advanceTimersByTimeAsync(0);
beforeEach(() => { vi.useFakeTimers({ now: 1_700_000_000_000 }); });
afterEach(() => { vi.useRealTimers(); });

function manual() {
  const pending = new PendingCalls();
  const logic = giftingMachine.provide({
    actors: {
      send: fromPromise(({ input }) => pending.add<{ balance: number }>('send', [input])),
      refuseAsk: fromPromise(({ input }) => pending.add<void>('refuseAsk', [input]).then(() => input)),
    },
  });
  return { pending, logic };
}

async function replay(input: GiftingInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { input, inspect }).start();
  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const e = event as AnyEventObject;
    if (event.type.startsWith('xstate.done.actor.')) pending.next(event.type.slice('xstate.done.actor.'.length)).resolve(e.output);
    else if (event.type.startsWith('xstate.error.actor.')) pending.next(event.type.slice('xstate.error.actor.'.length)).reject(e.error);
    else actor.send(event as never);
    await flush();

    const snapshot = actor.getSnapshot();
    const ctx: GiftingContext = snapshot.context;
    const model = state.context as GiftingContext;
    expect(snapshot.value).toEqual(state.value);
    expect(ctx.ask?.askId ?? null).toBe(model.ask?.askId ?? null);
    expect(ctx.notice).toBe(model.notice);
    // SPEC §5: only whole quantities 1–99 are sent, to the host of this call.
    for (const [args] of pending.argsOf('send') as [{ giftNum: number; channelId: string; toUserId: number }][]) {
      expect(isGiftQuantity(args.giftNum)).toBe(true);
      expect(args).toMatchObject({ channelId: 'ch1', toUserId: 100001 });
    }
    if (e.type === 'gift.send' && !isGiftQuantity(e.giftNum as number)) expect(snapshot.value).toEqual(before.value);
    if (event.type === 'gift.sendAsked') {
      expect(pending.argsOf('send').at(-1)).toEqual([{ channelId: 'ch1', toUserId: 100001, giftId: before.context.ask!.giftId, giftNum: 1 }]);
    }
    if (event.type === 'gift.refuseAsk') expect(pending.argsOf('refuseAsk').at(-1)).toEqual([before.context.ask!.askId]);
    // The balance is what the server last said, with when it said it.
    if (event.type === 'xstate.done.actor.send') expect(ctx.known).toEqual({ amount: 900, at: Date.now() });
    else if (input.balance !== null && !pending.argsOf('send').length) expect(ctx.known).toEqual({ amount: input.balance, at: 0 });
    if (event.type === 'xstate.done.actor.send') expect(ctx.notice).toBe(TEXT_GIFT_SENT);
    if (event.type === 'xstate.error.actor.send') expect(ctx.notice).toBe(NOT_ENOUGH);
    // An ask of another call never shows.
    expect(ctx.ask?.channelId ?? 'ch1').toBe('ch1');
    expect(pending.open().length).toBe(snapshot.matches('idle') ? 0 : 1);
  }
  actor.stop();
}

describeGeneratedPaths('gifting', giftingMachine, {
  events: samples,
  inputs,
  serializeContext: (c) => {
    const ctx = c as GiftingContext;
    return [ctx.ask?.askId ?? null, ctx.notice, ctx.known?.amount ?? null];
  },
  // Which ask a refusal answered is the one asked when it started; a new ask meanwhile is a scenario below.
  // The refusal answers with the ask it refused: the one showing.
  possible: (s, e) =>
    !(e.type === 'system.giftAsked' && s.matches('refusing'))
    && !(e.type === 'xstate.done.actor.refuseAsk' && (e as AnyEventObject).output !== (s.context as GiftingContext).ask?.askId),
  minPaths: 20,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('[§2 gift ask] answers', () => {
  it('Scenario: an ask that arrives while the previous one is being refused stays', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: inputs['balance known']! }).start();
    actor.send({ type: 'system.giftAsked', ask: ask(5, 11) });
    actor.send({ type: 'gift.refuseAsk' });
    actor.send({ type: 'system.giftAsked', ask: ask(6, 1) });
    pending.next('refuseAsk').resolve(undefined);
    await flush();
    expect(actor.getSnapshot().context.ask?.askId).toBe(6);
  });

  it('Scenario: sending the gift asked for answers the ask; another gift does not', async () => {
    const { pending, logic } = manual();
    const actor = createActor(logic, { input: inputs['balance known']! }).start();
    actor.send({ type: 'system.giftAsked', ask: ask(5, 11) });
    actor.send({ type: 'gift.send', giftId: 1, giftNum: 3 });
    pending.next('send').resolve({ balance: 997 });
    await flush();
    expect(actor.getSnapshot().context.ask?.askId).toBe(5);
    actor.send({ type: 'gift.sendAsked' });
    pending.next('send').resolve({ balance: 477 });
    await flush();
    expect(actor.getSnapshot().context.ask).toBeNull();
    expect(actor.getSnapshot().context.known?.amount).toBe(477);
  });

  it.each([[1, true], [99, true], [0, false], [100, false], [2.5, false], [Number.NaN, false]])('[§5] quantity %s → %s', (n, ok) => {
    expect(isGiftQuantity(n)).toBe(ok);
  });
});
