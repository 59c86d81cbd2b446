/**
 * Generated-path tests of the USDT payment countdown (SPEC §4 Crypto payment, §9 crypto
 * countdown, pay data cleared after 1 hour) on a simulated clock: the clock jumps to each
 * sample's time as a hidden webview's late timer would, a reload is an input that starts late,
 * and the order query is settled by hand. Checked at each step: the countdown from the
 * deadline, the stage by the time left, and what the countdown tells its owner.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import type { ClockPort } from '../ports/clock.port';
import { clockPortOf } from '../testing/realtime';
import { composePaymentCountdown } from './payment-countdown.actors';
import {
  USDT_LAST_MINUTE_MS, USDT_PAY_DATA_TTL_MS, USDT_PAY_WINDOW_MS, USDT_SOON_MS, paymentCountdownMachine, suspendNumOf,
} from './payment-countdown.machine';
import type { PaymentCountdownContext, PaymentCountdownInput, UsdtOrder } from './payment-countdown.machine';

const MIN = 60_000;
const order: UsdtOrder = { orderNo: 'u1', address: 'TXyz', amount: '9.99', chain: 'TRC20', createdAt: 0, deadline: USDT_PAY_WINDOW_MS };

const inputs: Record<string, PaymentCountdownInput> = {
  'a new order': { order, now: 0 },
  'a reload in the last minute': { order, now: 14.5 * MIN },
  'a reload after the deadline': { order, now: 20 * MIN },
};

const samples: AnyEventObject[] = [
  { type: 'countdown.tick', now: 1 * MIN },
  { type: 'countdown.tick', now: 11 * MIN },
  { type: 'countdown.tick', now: 14.5 * MIN },
  { type: 'countdown.tick', now: 15 * MIN },
  // Past the deadline, within the pay data's hour.
  { type: 'countdown.tick', now: 30 * MIN },
  { type: 'countdown.tick', now: 61 * MIN },
  { type: 'system.cryptoPayment', paid: true, orderNo: 'u1' },
  { type: 'system.cryptoPayment', paid: false, orderNo: 'u1' },
  // Another order's result is not this countdown's.
  { type: 'system.cryptoPayment', paid: true, orderNo: 'u0' },
  { type: 'app.visible' },
  { type: 'countdown.retry' },
  { type: 'xstate.done.actor.query', output: true },
  { type: 'xstate.done.actor.query', output: false },
  { type: 'xstate.error.actor.query', error: new Error('The server is away') },
];

function setUp(input: PaymentCountdownInput) {
  const simulated = new SimulatedClock();
  simulated.set(input.now);
  const pending = new PendingCalls();
  const logic = composePaymentCountdown({ clock: clockPortOf(simulated), queryOrder: (orderNo) => pending.add<boolean>('queryOrder', [orderNo]) });
  return { simulated, pending, logic };
}

/** The stage the time left calls for (SPEC §9: 5 minutes, then the last one). */
const stageOf = (c: PaymentCountdownContext) => {
  const left = c.order.deadline - c.now;
  return left <= USDT_LAST_MINUTE_MS ? 'lastMinute' : left <= USDT_SOON_MS ? 'soon' : 'plenty';
};

async function replay(input: PaymentCountdownInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { simulated, pending, logic } = setUp(input);
  const actor = createActor(logic, { input, clock: simulated, inspect });
  actor.start();
  await flush();
  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const queriesBefore = pending.count('queryOrder');
    // The clock jumps to the sample's time: the ticker's timer fires once, late, and reads it.
    if (e.type === 'countdown.tick') simulated.set(e.now as number);
    else if (e.type === 'xstate.done.actor.query') pending.latest('queryOrder').resolve(e.output as boolean);
    else if (e.type === 'xstate.error.actor.query') pending.latest('queryOrder').reject(e.error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    const { context } = snapshot;
    // The countdown is the clock's distance to the deadline, whatever the ticks did.
    expect(context.now).toBe(simulated.now());
    expect(suspendNumOf(context)).toBe(Math.max(0, Math.ceil((order.deadline - simulated.now()) / 1000)));
    if (snapshot.matches('waiting')) expect(snapshot.matches({ waiting: stageOf(context) })).toBe(true);
    // The order is queried once the deadline passed, once per try.
    if (snapshot.matches('querying')) expect(pending.open().filter((c) => c.method === 'queryOrder')).toHaveLength(1);
    if (e.type === 'countdown.retry' || e.type === 'app.visible') {
      expect(pending.count('queryOrder')).toBe(queriesBefore + (snapshot.matches('querying') && !state.matches('queryFailed') ? 1 : 0));
    }
    // What the owner hears: paid (status page), expired (back), cleared (pay data gone), once, at the end.
    if (snapshot.status === 'done') expect(snapshot.output).toEqual({ orderNo: snapshot.context.order.orderNo, ended: snapshot.value });
    else expect(snapshot.output).toBeUndefined();
  }
  actor.stop();
}

describeGeneratedPaths('paymentCountdown', paymentCountdownMachine, {
  events: samples,
  inputs,
  // The clock never goes back, and a sample's tick is the clock moving on (the ticker reads it once the time has come).
  possible: (snapshot, event) => event.type !== 'countdown.tick' || (event as AnyEventObject).now > (snapshot.context as PaymentCountdownContext).now,
  serializeContext: (c) => {
    const ctx = c as PaymentCountdownContext;
    return [ctx.now, ctx.queryError !== null];
  },
  minPaths: 12,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('[§4 Crypto payment, §9] the countdown', () => {
  it('counts from the deadline, not by ticks: a timer that fires 3 minutes late shows 3 minutes less', async () => {
    const { simulated, logic } = setUp({ order, now: 0 });
    const actor = createActor(logic, { input: { order, now: 0 }, clock: simulated }).start();
    expect(suspendNumOf(actor.getSnapshot().context)).toBe(900);
    simulated.increment(1000);
    expect(suspendNumOf(actor.getSnapshot().context)).toBe(899);
    simulated.set(3 * MIN + 1000);
    expect(suspendNumOf(actor.getSnapshot().context)).toBe(719);
    actor.stop();
  });

  it('back in view, it reads the clock at once', async () => {
    // A hidden webview: the clock moves on, its timers are held back.
    let now = 0;
    const held: ClockPort = { now: () => now, setTimeout: () => 0, clearTimeout: () => {} };
    const logic = composePaymentCountdown({ clock: held, queryOrder: () => Promise.resolve(false) });
    const actor = createActor(logic, { input: { order, now: 0 } }).start();
    now = 10.5 * MIN;
    expect(actor.getSnapshot().matches({ waiting: 'plenty' })).toBe(true);
    actor.send({ type: 'app.visible' });
    expect(actor.getSnapshot().matches({ waiting: 'soon' })).toBe(true);
    expect(suspendNumOf(actor.getSnapshot().context)).toBe(270);
    actor.stop();
  });

  it('a reload an hour after the order clears the pay data at once, asking nothing', async () => {
    const { simulated, pending, logic } = setUp({ order, now: 61 * MIN });
    const actor = createActor(logic, { input: { order, now: 61 * MIN }, clock: simulated });
    actor.start();
    expect(actor.getSnapshot().value).toBe('cleared');
    expect(actor.getSnapshot().output).toEqual({ orderNo: order.orderNo, ended: 'cleared' });
    expect(pending.open()).toEqual([]);
  });

  it('the pay data is kept an hour after the order, also while a query cannot be answered', async () => {
    const { simulated, pending, logic } = setUp({ order, now: 20 * MIN });
    const actor = createActor(logic, { input: { order, now: 20 * MIN }, clock: simulated }).start();
    pending.latest('queryOrder').reject(new Error('offline'));
    await flush();
    expect(actor.getSnapshot().matches('queryFailed')).toBe(true);
    simulated.set(USDT_PAY_DATA_TTL_MS - 1000);
    expect(actor.getSnapshot().matches('queryFailed')).toBe(true);
    simulated.set(USDT_PAY_DATA_TTL_MS);
    expect(actor.getSnapshot().value).toBe('cleared');
  });
});
