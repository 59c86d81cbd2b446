/**
 * Generated-path tests of buying diamonds or VIP (SPEC §4 Recharge, §5, §8) over manual ports
 * and a simulated clock: the packages, the picker, the order by kind, the store's answers, and
 * one intent per tap (an order with no answer sends its key again).
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import type { PayChannel, PlacedOrder, RechargeOffer } from '../ports/wallet.port';
import { UnansweredError } from '../shared/intent-key';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { NOTICE_MS, TEXT_NO_PAY, TEXT_STORE_CANCELLED, TEXT_STORE_DECLINED, rechargeMachine } from './recharge.machine';
import type { RechargeContext, StoreOutcome } from './recharge.machine';

const channel = (payMethod: PayChannel['payMethod'], channelId: number, countryTypeId = 0): PayChannel => ({
  payMethod, channelType: payMethod, channelId, countryTypeId, productId: `P.${channelId}`, recent: false, recommended: false, icon: `/pay/${payMethod}.svg`,
});
const offers: RechargeOffer[] = [
  { batchNo: 'ONE', vip: false, price: '0.99', diamonds: 100, bonus: 0, firstRechargeBonus: 20, channels: [channel('card', 11)] },
  { batchNo: 'TWO', vip: true, price: '9.99', diamonds: 300, bonus: 0, firstRechargeBonus: 0, channels: [channel('googlepay', 31), channel('usdt', 41)] },
  { batchNo: 'USDT', vip: false, price: '4.99', diamonds: 500, bonus: 0, firstRechargeBonus: 0, channels: [channel('usdt', 42)] },
];
const TEXT_VIP = 'Hey there! You’ll need to purchase other products first to unlock VIP recharges. We appreciate your understanding and hope you enjoy your day!';
const usdtOrder = { orderNo: 'R3', address: 'Tx', amount: '9.99', chain: 'TRC20', createdAt: 0, deadline: 900_000 };

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.offers', output: offers },
  { type: 'xstate.error.actor.offers', error: new Error('The server is away') },
  { type: 'recharge.retry' },
  { type: 'recharge.choose', batchNo: 'ONE' },
  { type: 'recharge.choose', batchNo: 'TWO' },
  { type: 'recharge.choose', batchNo: 'NONE' },
  { type: 'recharge.choose', batchNo: 'USDT' },
  { type: 'recharge.pick', channelId: 31, countryTypeId: 0 },
  { type: 'recharge.pick', channelId: 41, countryTypeId: 0 },
  { type: 'recharge.chain', chain: 'ERC20' },
  { type: 'recharge.chain', chain: 'BEP20' as 'TRC20' },
  { type: 'recharge.pick', channelId: 99, countryTypeId: 0 },
  { type: 'recharge.back' },
  { type: 'xstate.done.actor.order', output: { kind: 'redirect', orderCode: 'R1', url: '/sandbox/pay/R1' } satisfies PlacedOrder },
  { type: 'xstate.done.actor.order', output: { kind: 'store', orderCode: 'R2' } satisfies PlacedOrder },
  { type: 'xstate.done.actor.order', output: { kind: 'usdt', order: usdtOrder } satisfies PlacedOrder },
  { type: 'xstate.error.actor.order', error: new Error(TEXT_VIP) },
  { type: 'xstate.error.actor.order', error: new UnansweredError('No answer') },
  ...(['approved', 'declined', 'cancelled', 'unavailable'] as StoreOutcome[]).map((output) => ({ type: 'xstate.done.actor.store', output })),
  { type: 'xstate.error.actor.store', error: new Error('The store is away') },
  { type: afterEvent(String(NOTICE_MS), 'recharge.ready') },
];

function setUp() {
  const pending = new PendingCalls();
  const logic = rechargeMachine.provide({
    actors: {
      offers: fromPromise(() => pending.add('offers', [])),
      order: fromPromise(({ input }) => pending.add('order', [input])),
      store: fromPromise(({ input }) => pending.add('store', [input])),
    },
  });
  return { pending, logic };
}

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, logic } = setUp();
  const clock = new SimulatedClock();
  const actor = createActor(logic, { input: { returnPath: '/wallet' }, clock, inspect });
  actor.start();
  const keysSent: string[] = [];
  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = actor.getSnapshot();
    const [, kind, , id] = e.type.split('.');
    if (e.type.startsWith('xstate.after.')) clock.increment(NOTICE_MS);
    else if (kind === 'done') pending.latest(id!).resolve(e.output);
    else if (kind === 'error') pending.latest(id!).reject(e.error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    const context: RechargeContext = snapshot.context;
    // An order goes out with the picked channel and a key; a tap after an unanswered one sends the same key again.
    if (snapshot.matches('ordering') && !before.matches('ordering')) {
      const sent = pending.latest('order').args[0] as { channel: PayChannel; idempotencyKey: string; returnPath: string };
      expect(sent.channel).toEqual(context.channel);
      expect(sent.returnPath).toBe('/wallet');
      // A USDT order goes on the chain chosen just before; no other order names a chain.
      expect((sent as { chain?: string }).chain).toBe(context.channel?.payMethod === 'usdt' ? 'ERC20' : undefined);
      const last = keysSent.at(-1);
      if (before.context.key !== null) expect(sent.idempotencyKey).toBe(last);
      else expect(keysSent).not.toContain(sent.idempotencyKey);
      keysSent.push(sent.idempotencyKey);
    }
    if (e.type === 'xstate.error.actor.order') {
      expect(context.notice).toBe((e.error as Error).message);
      expect(context.key !== null).toBe(e.error instanceof UnansweredError);
    }
    if (e.type === 'xstate.done.actor.store' && e.output !== 'approved') {
      expect(context.notice).toBe({ declined: TEXT_STORE_DECLINED, cancelled: TEXT_STORE_CANCELLED, unavailable: TEXT_NO_PAY }[e.output as string]);
    }
    if (e.type.startsWith('xstate.after.')) expect(context.notice).toBeNull();
    // What the owner reads: where the payment goes, at the end only.
    if (snapshot.status === 'done') {
      const expected = { redirecting: { kind: 'redirect', url: '/sandbox/pay/R1' }, paid: { kind: 'paid', orderCode: 'R2' }, usdt: { kind: 'usdt', order: usdtOrder } };
      expect(snapshot.output).toEqual(expected[snapshot.value as keyof typeof expected]);
    } else expect(snapshot.output).toBeUndefined();
  }
  actor.stop();
}

describeGeneratedPaths('recharge', rechargeMachine, {
  events: samples,
  inputs: { 'from the wallet': { returnPath: '/wallet' } },
  serializeContext: (c) => {
    const ctx = c as RechargeContext;
    return [ctx.chosen?.batchNo ?? null, ctx.channel?.channelId ?? null, ctx.chain, ctx.key !== null, ctx.notice !== null, ctx.offers.length];
  },
  minPaths: 15,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§4 Recharge] one package', () => {
  it('with one channel it pays directly; with several the picker opens', async () => {
    const { pending, logic } = setUp();
    const actor = createActor(logic, { input: { returnPath: '/wallet' } }).start();
    pending.latest('offers').resolve(offers);
    await flush();
    actor.send({ type: 'recharge.choose', batchNo: 'TWO' });
    expect(actor.getSnapshot().value).toBe('picking');
    actor.send({ type: 'recharge.back' });
    actor.send({ type: 'recharge.choose', batchNo: 'ONE' });
    expect(actor.getSnapshot().value).toBe('ordering');
    expect((pending.latest('order').args[0] as { channel: PayChannel }).channel.channelId).toBe(11);
  });

  it('a USDT channel asks for the chain first, and the order goes on it', async () => {
    const { pending, logic } = setUp();
    const actor = createActor(logic, { input: { returnPath: '/wallet' } }).start();
    pending.latest('offers').resolve(offers);
    await flush();
    actor.send({ type: 'recharge.choose', batchNo: 'USDT' });
    expect(actor.getSnapshot().value).toBe('choosingChain');
    actor.send({ type: 'recharge.chain', chain: 'BEP20' as 'TRC20' });
    expect(actor.getSnapshot().value).toBe('choosingChain');
    actor.send({ type: 'recharge.chain', chain: 'TRC20' });
    expect(actor.getSnapshot().value).toBe('ordering');
    expect(pending.latest('order').args[0]).toMatchObject({ chain: 'TRC20', channel: { channelId: 42 } });
  });
});
