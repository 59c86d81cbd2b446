/**
 * Generated-path tests of the user's gifts in a call (SPEC §2 gift panel and incoming ask,
 * §5 gift quantity 1–99 integer) with a manual gift API: every send and refusal is answered
 * by the path. Each send carries its intent's idempotency key: a double tap sends one request,
 * a send whose answer never came is retried with the same key when the same gift is sent
 * again, and a new intent (after an answer, or another gift) takes a new key.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { GiftApiError } from '../ports/gift.port';
import type { GiftAsk } from '../ports/gift.port';
import { PendingCalls } from '../ports/pending';
import { UnansweredError } from '../shared/intent-key';
import { seenIntentKeys } from '../testing/intent-keys';
import { describeGeneratedPaths } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { TEXT_GIFT_SENT, TEXT_GIFT_UNANSWERED, giftingMachine, isGiftQuantity } from './gifting.machine';
import type { GiftingContext, GiftingInput } from './gifting.machine';

const ask = (askId: number, giftId: number, channelId = 'ch1'): GiftAsk => ({
  askId, channelId, giftId, giftName: giftId === 1 ? 'Rose' : 'Ring', giftImg: '/g.svg', giftPrice: giftId === 1 ? 1 : 520, fromNick: 'Sofia',
});
const NOT_ENOUGH = 'You do not have enough diamonds.';

const samples: AnyEventObject[] = [
  { type: 'gift.send', giftId: 1, giftNum: 2 },
  { type: 'gift.send', giftId: 3, giftNum: 2 },
  { type: 'gift.send', giftId: 1, giftNum: 100 },
  { type: 'gift.send', giftId: 1, giftNum: 1.5 },
  { type: 'system.giftAsked', ask: ask(5, 11) },
  { type: 'system.giftAsked', ask: ask(6, 1) },
  { type: 'system.giftAsked', ask: ask(7, 1, 'an-earlier-call') },
  { type: 'gift.sendAsked' }, { type: 'gift.refuseAsk' },
  { type: 'xstate.done.actor.send', output: { balance: 900 } },
  { type: 'xstate.error.actor.send', error: new GiftApiError('balance', NOT_ENOUGH) },
  { type: 'xstate.error.actor.send', error: new UnansweredError('Network Connection Failure') },
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
  const { made, restore } = seenIntentKeys();
  try {
    await replaySteps(input, steps, inspect, made);
  } finally {
    restore();
  }
}

type SendArgs = { giftId: number; giftNum: number; idempotencyKey: string };

async function replaySteps(input: GiftingInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn, made: string[]) {
  const { pending, logic } = manual();
  const actor = createActor(logic, { input, inspect }).start();
  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const sendsBefore = pending.count('send');
    const keysBefore = made.length;
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
      expect(pending.argsOf('send').at(-1)).toMatchObject([{ channelId: 'ch1', toUserId: 100001, giftId: before.context.ask!.giftId, giftNum: 1 }]);
    }
    // One request per intent: a tap while sending sends nothing (a double tap is one intent).
    if (!before.matches('idle')) expect(pending.count('send')).toBe(sendsBefore);
    // A send taken: the open intent's key when it is the same gift (the retry of a send that got no answer),
    // else a key made for it now.
    if (pending.count('send') > sendsBefore) {
      const [sent] = pending.argsOf('send').at(-1) as [SendArgs];
      const open = before.context.intent;
      const retry = open !== null && open.giftId === sent.giftId && open.giftNum === sent.giftNum;
      expect(sent.idempotencyKey).toBe(retry ? open.key : made.at(-1));
      expect(made.length).toBe(keysBefore + (retry ? 0 : 1));
      expect(ctx.intent).toEqual({ giftId: sent.giftId, giftNum: sent.giftNum, key: sent.idempotencyKey });
    } else {
      expect(made.length).toBe(keysBefore);
    }
    // An answer ends the intent (the next tap makes a new key); no answer keeps it for the retry.
    if (event.type === 'xstate.done.actor.send' || (event.type === 'xstate.error.actor.send' && !(e.error instanceof UnansweredError))) {
      expect(ctx.intent).toBeNull();
    }
    if (event.type === 'xstate.error.actor.send' && e.error instanceof UnansweredError) {
      expect(ctx.intent).toEqual(before.context.intent);
      expect(ctx.notice).toBe(TEXT_GIFT_UNANSWERED);
    }
    if (event.type === 'gift.refuseAsk') expect(pending.argsOf('refuseAsk').at(-1)).toEqual([before.context.ask!.askId]);
    // The balance is what the server last said, with when it said it.
    if (event.type === 'xstate.done.actor.send') expect(ctx.known).toEqual({ amount: 900, at: Date.now() });
    else if (input.balance !== null && !pending.argsOf('send').length) expect(ctx.known).toEqual({ amount: input.balance, at: 0 });
    if (event.type === 'xstate.done.actor.send') expect(ctx.notice).toBe(TEXT_GIFT_SENT);
    if (event.type === 'xstate.error.actor.send' && !(e.error instanceof UnansweredError)) expect(ctx.notice).toBe(NOT_ENOUGH);
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
    // An open intent shows as its notice (TEXT_GIFT_UNANSWERED): only a send of gift 1 is walked losing its answer.
    return [ctx.ask?.askId ?? null, ctx.notice, ctx.known?.amount ?? null];
  },
  // Which ask a refusal answered is the one asked when it started; a new ask meanwhile is a scenario below.
  // The refusal answers with the ask it refused: the one showing.
  possible: (s, e) =>
    !(e.type === 'system.giftAsked' && s.matches('refusing'))
    && !(e.type === 'xstate.done.actor.refuseAsk' && (e as AnyEventObject).output !== (s.context as GiftingContext).ask?.askId)
    // Keys are walked without an ask (asks are walked without lost answers): another gift only once an answer was
    // lost (a new intent besides the open one), and a lost answer only of a send of gift 1 with no ask showing.
    && !(e.type === 'gift.send' && (e as AnyEventObject).giftId === 3 && (s.context as GiftingContext).intent === null)
    && !((e as AnyEventObject).error instanceof UnansweredError
      && ((s.context as GiftingContext).ask !== null || (s.context as GiftingContext).intent?.giftId !== 1)),
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

  it('Scenario: a double tap sends once; a send that got no answer is sent again with its key; answered, the next takes a new key', async () => {
    const keys = seenIntentKeys();
    try {
      const { pending, logic } = manual();
      const actor = createActor(logic, { input: inputs['balance known']! }).start();
      actor.send({ type: 'gift.send', giftId: 1, giftNum: 2 });
      actor.send({ type: 'gift.send', giftId: 1, giftNum: 2 });
      expect(pending.count('send')).toBe(1);
      pending.next('send').reject(new UnansweredError('Network Connection Failure'));
      await flush();
      expect(actor.getSnapshot().context.notice).toBe(TEXT_GIFT_UNANSWERED);
      actor.send({ type: 'gift.send', giftId: 1, giftNum: 2 });
      pending.next('send').resolve({ balance: 998 });
      await flush();
      actor.send({ type: 'gift.send', giftId: 1, giftNum: 2 });
      const sentKeys = (pending.argsOf('send') as [SendArgs][]).map(([args]) => args.idempotencyKey);
      expect(sentKeys).toEqual([keys.made[0], keys.made[0], keys.made[1]]);
      expect(keys.made).toHaveLength(2);
    } finally {
      keys.restore();
    }
  });

  it.each([[1, true], [99, true], [0, false], [100, false], [2.5, false], [Number.NaN, false]])('[§5] quantity %s → %s', (n, ok) => {
    expect(isGiftQuantity(n)).toBe(ok);
  });
});
