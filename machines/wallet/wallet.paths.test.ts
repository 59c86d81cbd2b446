/**
 * Generated-path tests of the wallet (SPEC §4 Recharge and Crypto payment, §9 VIP info refresh
 * debounced 500 ms): the wallet composed as the session composes it, under a stand-in session
 * that hears what it asks for, over manual ports and a simulated clock. The on-use children
 * (the recharge, the countdown) are stand-ins whose ends the test settles by hand. Checked at
 * each step: a burst of refreshes is one load 500 ms after the last; the recharge and the
 * countdown live exactly while their states do; the kept order is kept while followed and
 * forgotten when it ends; where each end of a payment leads.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor, emit, fromPromise, setup } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import type { PayDataPort } from '../ports/pay-data.port';
import type { UsdtOrder, VipShop, WalletPort, WalletSummary } from '../ports/wallet.port';
import type { ImMessage } from '../ports/im.port';
import type { PaymentCountdownMachine } from '../payment-countdown/payment-countdown.machine';
import type { RechargeMachine } from '../recharge/recharge.machine';
import { SYSTEM_SENDER_ACCID } from '../system-messages/system-sender';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeWallet } from './wallet.actors';
import type { MoneyLoader } from './wallet.actors';
import {
  REFRESH_DEBOUNCE_MS, TEXT_RECHARGE_PAID, USDT_PAY_PATH, USDT_PAY_STATUS_PATH, WALLET_PATH, walletMachine,
} from './wallet.machine';
import type { WalletContext, WalletInput } from './wallet.machine';

const order: UsdtOrder = { orderNo: 'R9', address: 'Tabc', amount: '9.99', chain: 'TRC20', createdAt: 1_000, deadline: 901_000 };
const kept: UsdtOrder = { ...order, orderNo: 'R8' };
const plain: WalletSummary = { diamonds: 120, vip: false, paid: true };
const vip: WalletSummary = { diamonds: 420, vip: true, paid: true };
const shop: VipShop = { price: '9.99', diamonds: 300, callPercent: 80 };
const rechargeMessage = (from: string): ImMessage => ({
  idClient: 'recharge-R1', idServer: 's1', from, to: 'yx-me', sessionId: from, scene: 'p2p', flow: 'in', type: 'custom',
  attach: { type: 'recharge', num: 100, orderCode: 'R1' }, time: 1, status: 'sent',
});

/** What the model spawns for a loaded child: logic that runs until stopped. */
const running = fromPromise(() => new Promise<never>(() => {}));

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.summary', output: { summary: plain, shop } },
  { type: 'xstate.done.actor.summary', output: { summary: vip, shop } },
  { type: 'xstate.error.actor.summary', error: new Error('The server is away') },
  { type: 'wallet.refresh' },
  { type: afterEvent(String(REFRESH_DEBOUNCE_MS), 'wallet.summary.waiting') },
  { type: 'recharge.open', returnPath: '/wallet' },
  { type: 'recharge.close' },
  { type: 'xstate.done.actor.loadRecharge', output: running },
  { type: 'xstate.error.actor.loadRecharge', error: new TypeError('Failed to fetch dynamically imported module') },
  { type: 'xstate.done.actor.recharge', output: { kind: 'redirect', url: '/sandbox/pay/R1' } },
  { type: 'xstate.done.actor.recharge', output: { kind: 'paid', orderCode: 'R2' } },
  { type: 'xstate.done.actor.recharge', output: { kind: 'usdt', order } },
  { type: 'xstate.done.actor.savedOrder', output: { order: kept, now: 5_000 } },
  { type: 'xstate.done.actor.savedOrder', output: { order: null, now: 5_000 } },
  { type: 'xstate.error.actor.savedOrder', error: new Error('The storage could not be read') },
  { type: 'system.cryptoPayment', paid: true, orderNo: 'R9' },
  { type: 'xstate.done.actor.loadCountdown', output: running },
  { type: 'xstate.error.actor.loadCountdown', error: new TypeError('Failed to fetch dynamically imported module') },
  ...(['paid', 'expired', 'cleared'] as const).map((ended) => ({ type: 'xstate.done.actor.paymentCountdown', output: { orderNo: 'R9', ended } })),
  { type: 'app.visible' },
  { type: 'im.message', message: rechargeMessage(SYSTEM_SENDER_ACCID) },
  { type: 'im.message', message: rechargeMessage('yx-stranger') },
  { type: 'recharge.returned', orderCode: 'R1', result: 'paid' },
  { type: 'recharge.dismissResult' },
];

/** Stand-ins of the on-use children: each is a promise the test settles with the child's output. */
function standIns(pending: PendingCalls) {
  const recharge = fromPromise(({ input }) => pending.add('recharge', [input])) as unknown as RechargeMachine;
  const countdown = fromPromise(({ input }) => pending.add('countdown', [input])) as unknown as PaymentCountdownMachine;
  return { composeRecharge: () => recharge, composeCountdown: () => countdown };
}

function memoryPayData(): PayDataPort & { value: UsdtOrder | null } {
  const store = {
    value: null as UsdtOrder | null,
    read: async (account: string) => (account === 'yx-me' ? store.value : null),
    write: async (account: string, o: UsdtOrder) => { if (account === 'yx-me') store.value = o; },
    clear: async (account: string) => { if (account === 'yx-me') store.value = null; },
  };
  return store;
}

function setUp(input: WalletInput, inspect?: InspectFn) {
  const pending = new PendingCalls();
  const payData = memoryPayData();
  const wallet = {
    summary: () => pending.add<WalletSummary>('summary', []),
    vipShop: () => Promise.resolve(shop),
  } as Partial<WalletPort> as WalletPort;
  const loadMoney: MoneyLoader = (use) => pending.add(`load.${use}`, []);
  const composed = composeWallet({
    wallet, payData, storePay: () => Promise.resolve('unavailable'),
    clock: { now: () => 5_000, setTimeout: () => 0, clearTimeout: () => {} },
  }, loadMoney).provide({
    // The kept order of an earlier run is settled by hand too.
    actors: { savedOrder: fromPromise(() => pending.add('savedOrder', [])) },
  });
  const asked: AnyEventObject[] = [];
  const imConnection = setup({ types: { events: {} as { type: 'im.message'; message: ImMessage }, emitted: {} as { type: 'im.message'; message: ImMessage } } })
    .createMachine({ on: { 'im.message': { actions: emit(({ event }) => event) } } });
  // The session's place: it invokes the wallet and hears what it asks for.
  const session = setup({
    types: { children: {} as { wallet: 'wallet'; imConnection: 'imConnection' } },
    actors: { wallet: composed, imConnection },
  }).createMachine({
    invoke: [
      { id: 'imConnection', systemId: 'imConnection', src: 'imConnection' },
      { id: 'wallet', systemId: 'wallet', src: 'wallet', input },
    ],
    on: { '*': { actions: ({ event }) => { if (event.type.startsWith('child.') || event.type.startsWith('wallet.')) asked.push(event); } } },
  });
  const clock = new SimulatedClock();
  const actor = createActor(session, { clock, ...(inspect ? { inspect } : {}) }).start();
  const wallet$: AnyActorRef = actor.getSnapshot().children.wallet!;
  const im: AnyActorRef = actor.getSnapshot().children.imConnection!;
  return { pending, payData, asked, clock, actor, wallet: wallet$, im };
}

async function replay(input: WalletInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { pending, payData, asked, clock, actor, wallet, im } = setUp(input, inspect);
  const money = standIns(pending);
  let lastRecharge: AnyActorRef | undefined;
  let lastCountdown: AnyActorRef | undefined;
  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = wallet.getSnapshot() as AnyMachineSnapshot;
    const beforeContext = before.context as WalletContext;
    const summaryLoads = pending.count('summary');
    const askedBefore = asked.length;
    const [, kind, , id] = e.type.split('.');
    if (e.type.startsWith('xstate.after.')) clock.increment(REFRESH_DEBOUNCE_MS);
    else if (e.type === 'xstate.done.actor.loadRecharge') pending.latest('load.recharge').resolve(money);
    else if (e.type === 'xstate.done.actor.loadCountdown') pending.latest('load.countdown').resolve(money);
    else if (e.type === 'xstate.error.actor.loadRecharge') pending.latest('load.recharge').reject(e.error);
    else if (e.type === 'xstate.error.actor.loadCountdown') pending.latest('load.countdown').reject(e.error);
    else if (e.type === 'xstate.done.actor.paymentCountdown') pending.latest('countdown').resolve(e.output);
    else if (e.type === 'xstate.done.actor.summary') pending.latest('summary').resolve((e.output as { summary: WalletSummary }).summary);
    else if (kind === 'done') pending.latest(id!).resolve(e.output);
    else if (kind === 'error') pending.latest(id!).reject(e.error);
    else if (e.type === 'im.message') im.send(e);
    else wallet.send(e);
    await flush();
    const snapshot = wallet.getSnapshot() as AnyMachineSnapshot;
    const context = snapshot.context as WalletContext;
    expect(snapshot.value).toEqual(state.value);
    const told = asked.slice(askedBefore);
    // An event of one region leaves the others where they were (the model's values say so too; this says it of the running wallet).
    const regionsOf = (v: unknown) => v as Record<string, string>;
    if (e.type === 'wallet.refresh') {
      expect(regionsOf(snapshot.value).recharge).toBe(regionsOf(before.value).recharge);
      expect(regionsOf(snapshot.value).countdown).toBe(regionsOf(before.value).countdown);
    }
    if (e.type === 'countdown.follow') expect(regionsOf(snapshot.value).summary).toBe(regionsOf(before.value).summary);

    // A burst of refreshes is one load, 500 ms after the last: none before the pause is over.
    // (The first ask loads at once.)
    if (before.matches({ summary: 'idle' }) && snapshot.matches({ summary: 'loading' })) expect(pending.count('summary')).toBe(summaryLoads + 1);
    else if (e.type === 'wallet.refresh' || e.type === 'im.message' || e.type === 'recharge.returned') expect(pending.count('summary')).toBe(summaryLoads);
    if (e.type.startsWith('xstate.after.')) expect(pending.count('summary')).toBe(summaryLoads + 1);
    // A VIP that the summary reports differently from the profile is told; the same one is not.
    if (e.type === 'xstate.done.actor.summary') {
      const summary = (e.output as { summary: WalletSummary }).summary;
      expect(context.summary).toEqual(summary);
      expect(told.filter((t) => t.type === 'wallet.vip')).toEqual(summary.vip !== beforeContext.isVip ? [{ type: 'wallet.vip', isVip: summary.vip }] : []);
    }
    // Only the server's recharge message refreshes.
    if (e.type === 'im.message') {
      const refreshed = before.matches({ summary: 'idle' }) ? snapshot.matches({ summary: 'loading' }) : snapshot.matches({ summary: 'waiting' });
      expect(refreshed).toBe(e.message.from === SYSTEM_SENDER_ACCID || before.matches({ summary: 'waiting' }));
    }

    // The recharge lives exactly while open, with the return path it was opened with; the one before is stopped.
    const recharge = snapshot.children.recharge as AnyActorRef | undefined;
    expect(Boolean(recharge)).toBe(snapshot.matches({ recharge: 'open' }));
    if (recharge && recharge !== lastRecharge) expect(pending.latest('recharge').args[0]).toEqual({ returnPath: '/wallet' });
    if (lastRecharge && lastRecharge !== recharge) expect(lastRecharge.getSnapshot().status).not.toBe('active');
    lastRecharge = recharge;
    if (e.type === 'xstate.done.actor.recharge') {
      const result = e.output as { kind: string; url?: string };
      const expected = {
        redirect: [{ type: 'child.openPage', url: '/sandbox/pay/R1' }],
        paid: [{ type: 'child.toast', text: TEXT_RECHARGE_PAID }],
        usdt: [{ type: 'child.navigate', to: USDT_PAY_PATH }],
      }[result.kind];
      expect(told).toEqual(expected);
    }

    // The countdown lives exactly while counting, for the order followed, which is kept meanwhile.
    const countdown = snapshot.children.paymentCountdown as AnyActorRef | undefined;
    expect(Boolean(countdown)).toBe(snapshot.matches({ countdown: 'counting' }));
    if (countdown && countdown !== lastCountdown) expect(pending.latest('countdown').args[0]).toEqual({ order: context.usdt, now: context.usdtFrom });
    if (lastCountdown && lastCountdown !== countdown) expect(lastCountdown.getSnapshot().status).not.toBe('active');
    lastCountdown = countdown;
    if (snapshot.matches({ countdown: 'counting' }) || snapshot.matches({ countdown: 'loading' }) || snapshot.matches({ countdown: 'notLoaded' })) {
      expect(payData.value).toEqual(context.usdt);
    }
    if (e.type === 'xstate.done.actor.paymentCountdown') {
      const ended = (e.output as { ended: string }).ended;
      expect(payData.value).toBeNull();
      expect(context.usdtEnded).toEqual(e.output);
      expect(told).toEqual({ paid: [{ type: 'child.navigate', to: USDT_PAY_STATUS_PATH }], expired: [{ type: 'child.navigate', to: WALLET_PATH }], cleared: [] }[ended]);
      if (ended === 'paid') expect(snapshot.matches({ summary: before.matches({ summary: 'idle' }) ? 'loading' : 'waiting' })).toBe(true);
    }
  }
  actor.stop();
}

const REST: Record<string, readonly string[]> = { summary: ['idle', 'ready', 'failed'], recharge: ['closed', 'open'], countdown: ['idle', 'counting'] };
/** Which region an event is of (null: the wallet's own, taken anywhere). */
function regionOf(type: string): string | null {
  if (/summary|wallet\.refresh|xstate\.after/.test(type)) return 'summary';
  if (/[Rr]echarge(?!\.returned|\.dismiss)/.test(type)) return 'recharge';
  if (/savedOrder|[Cc]ountdown|app\.visible/.test(type)) return 'countdown';
  return null;
}
function restingOthers(snapshot: AnyMachineSnapshot, event: EventObject): boolean {
  const own = regionOf(event.type);
  const value = snapshot.value as Record<string, string>;
  return Object.entries(REST).filter(([region, rest]) => region !== own && !rest.includes(value[region]!)).length <= 1;
}

describeGeneratedPaths('wallet', walletMachine, {
  events: samples,
  inputs: { 'not a VIP': { account: 'yx-me', isVip: false } },
  serializeContext: (c) => {
    const ctx = c as WalletContext;
    return [ctx.isVip];
  },
  // The regions run side by side: a region's own events are tried while at most one other waits
  // (resting: summary ready or failed, recharge closed or open, countdown idle or counting), so the
  // tour covers each region's transitions, and their meeting points, without every product of their waits.
  possible: (snapshot, event) => restingOthers(snapshot, event),
  minPaths: 100,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('[§9] the VIP info refresh', () => {
  it('is one load 500 ms after the last of a burst', async () => {
    const { pending, clock, wallet } = setUp({ account: 'yx-me', isVip: false });
    wallet.send({ type: 'wallet.refresh' });
    pending.latest<WalletSummary>('summary').resolve(plain);
    await flush();
    for (let i = 0; i < 5; i++) {
      wallet.send({ type: 'wallet.refresh' });
      clock.increment(REFRESH_DEBOUNCE_MS - 1);
    }
    expect(pending.count('summary')).toBe(1);
    clock.increment(1);
    expect(pending.count('summary')).toBe(2);
  });
});

describe('[§4 Crypto payment] a reload', () => {
  it('follows the kept order again, from the clock read at start', async () => {
    const { pending, payData, wallet } = setUp({ account: 'yx-me', isVip: false });
    pending.latest('savedOrder').resolve({ order: kept, now: 5_000 });
    await flush();
    pending.latest('load.countdown').resolve(standIns(pending));
    await flush();
    expect(pending.latest('countdown').args[0]).toEqual({ order: kept, now: 5_000 });
    expect(payData.value).toEqual(kept);
    expect((wallet.getSnapshot() as AnyMachineSnapshot).matches({ countdown: 'counting' })).toBe(true);
  });
});
