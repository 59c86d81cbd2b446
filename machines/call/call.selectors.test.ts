/** What the in-call screen derives from the call (SPEC §2 chat lines, §6 price, the user's balance and low-balance warning). */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { CallInfo, CallTerms } from '../ports/call.port';
import type { TalkMessage } from '../talk/talk.machine';
import { SignalAction } from '../ports/signalling.port';
import { flush } from '../testing/paths';
import { callSetupMachine } from './call-setup.machine';
import { CallText, callMachine } from './call.machine';
import { peerShortOfDiamonds } from './call.texts';
import { callViewOf, chatLinesOf, isLowBalance, offersRecharge, periodsCharged, remainingBalance, sameView } from './call.selectors';

const message = (over: Partial<TalkMessage>): TalkMessage => ({
  idClient: '', idServer: 's', from: 'a', to: 'b', sessionId: 'b', scene: 'p2p', flow: 'in', type: 'text', text: 'hi', time: 1, status: 'sent',
  ...over,
});

describe('[§2 in-call chat] lines', () => {
  it('merges both ways and the translations (-1) in time order, from `since` on', () => {
    const lines = chatLinesOf(
      [
        message({ idServer: 'old', text: 'before the call', time: 5 }),
        message({ idServer: 's1', text: 'hello', time: 20 }),
        message({ idClient: 'c1', idServer: '', flow: 'out', text: 'hi!', time: 30, status: 'sending' }),
        message({ idClient: 'c2', idServer: '', flow: 'out', text: 'lost', time: 40, status: 'failed', reason: 'No connection' }),
        message({ idServer: 'pic', type: 'image', text: '', time: 35 }),
      ],
      [{ key: 't1', text: 'hola', time: 25 }],
      10,
    );
    expect(lines.map((l) => [l.kind, l.text, l.pending, l.failure])).toEqual([
      ['in', 'hello', false, null],
      ['translated', 'hola', false, null],
      ['out', 'hi!', true, null],
      ['out', 'lost', false, 'No connection'],
    ]);
    expect(chatLinesOf([message({ time: 5 })], [])).toHaveLength(1);
  });
});

describe('[§6 price, balance] what the user has left', () => {
  const call = { connectedAt: 1_000, periodMs: 60_000, price: 48 };

  it('counts the first period at connection and one more each period', () => {
    expect(periodsCharged(999, 1_000, 60_000)).toBe(0);
    expect(periodsCharged(1_000, 1_000, 60_000)).toBe(1);
    expect(periodsCharged(60_999, 1_000, 60_000)).toBe(1);
    expect(periodsCharged(61_000, 1_000, 60_000)).toBe(2);
    expect(periodsCharged(5_000, 0, 60_000)).toBe(0);
  });

  it('goes on from the balance createCall said (before the first period)', () => {
    const known = { amount: 200, at: 0 };
    expect(remainingBalance(known, call, 500)).toBe(200);
    expect(remainingBalance(known, call, 1_000)).toBe(152);
    expect(remainingBalance(known, call, 61_000)).toBe(104);
    // Never below zero: the server ends the call before.
    expect(remainingBalance(known, call, 1_000_000)).toBe(0);
  });

  it('goes on from what a gift send said, counting only periods after it', () => {
    const known = { amount: 100, at: 30_000 };
    expect(remainingBalance(known, call, 30_000)).toBe(100);
    expect(remainingBalance(known, call, 61_000)).toBe(52);
  });

  it('says nothing without a known balance, and the balance alone without a price', () => {
    expect(remainingBalance(null, call, 5)).toBeNull();
    expect(remainingBalance({ amount: 70, at: 0 }, { connectedAt: 1, periodMs: null, price: 48 }, 5)).toBe(70);
  });

  it('warns when fewer than two periods are left', () => {
    expect(isLowBalance(96, 48)).toBe(false);
    expect(isLowBalance(95, 48)).toBe(true);
    expect(isLowBalance(0, 48)).toBe(true);
    expect(isLowBalance(null, 48)).toBe(false);
    expect(isLowBalance(10, null)).toBe(false);
    expect(isLowBalance(10, 0)).toBe(false);
  });
});

describe('[§4] the ringing tone plays while the app call state is calling', () => {
  it('the caller\'s not while the call is set up, only once it rings there; the callee\'s while it rings, not once taken', async () => {
    let created: (info: CallInfo) => void = () => {};
    const caller = createActor(callMachine.provide({
      actors: {
        setup: callSetupMachine.provide({ actors: { createCall: fromPromise(() => new Promise<CallInfo>((resolve) => { created = resolve; })) } }),
        signal: fromPromise(() => new Promise<void>(() => {})),
      },
    }), { input: { direction: 'out', online: true, isHost: false, account: 'yx-user', peer: { account: 'yx-host', userId: 1 }, callType: 0 } }).start();
    expect(callViewOf(caller.getSnapshot())).toMatchObject({ phase: 'dialling', tone: false });
    created({ channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 48, nickname: 'Sofia' });
    await flush();
    expect(caller.getSnapshot().matches({ outgoing: 'ringing' })).toBe(true);
    expect(callViewOf(caller.getSnapshot())).toMatchObject({ phase: 'dialling', tone: true });

    const callee = createActor(callMachine.provide({ actors: { accept: fromPromise(() => new Promise<void>(() => {})) } }), {
      input: {
        direction: 'in', online: true, isHost: true, account: 'yx-host',
        signal: { id: 'r1', action: 0, channelId: 'ch1', from: 'yx-user', to: 'yx-host', time: 1 },
      },
    }).start();
    expect(callViewOf(callee.getSnapshot())).toMatchObject({ phase: 'ringing', tone: true });
    callee.send({ type: 'call.accept' });
    expect(callViewOf(callee.getSnapshot())).toMatchObject({ phase: 'connecting', tone: false });
  });
});

describe('[§6] the payer sees the price before paying', () => {
  const ring = { id: 'r1', action: SignalAction.audioCall, channelId: 'ch1', from: 'yx-host', to: 'yx-user', time: 1 };

  it('a user a host calls: her price with the VIP discount as "100 − d % off" and her balance, and Accept only once they are known', async () => {
    let price: (terms: CallTerms) => void = () => {};
    const callee = createActor(callMachine.provide({
      actors: { terms: fromPromise(() => new Promise<CallTerms>((resolve) => { price = resolve; })) },
    }), { input: { direction: 'in', online: true, isHost: false, account: 'yx-user', signal: ring } }).start();
    const asking = callViewOf(callee.getSnapshot());
    expect(asking).toMatchObject({ phase: 'ringing', pays: true, terms: 'asking', canAccept: false, price: null, balance: null, video: false });
    price({ videoPrice: 32, listPrice: 40, callDiscount: 80, billingPeriodMs: 60_000, youPay: true, balance: 200 });
    await flush();
    const known = callViewOf(callee.getSnapshot());
    expect(known).toMatchObject({ terms: 'known', canAccept: true, price: 32, listPrice: 40, percentOff: 20, balance: 200 });
    expect(sameView(asking, known)).toBe(false);
  });

  it('a price that cannot be had says so and leaves taking the call to her; a host is asked nothing and pays nothing', async () => {
    const callee = createActor(callMachine.provide({ actors: { terms: fromPromise(() => Promise.reject(new Error('offline'))) } }), {
      input: { direction: 'in', online: true, isHost: false, account: 'yx-user', signal: ring },
    }).start();
    await flush();
    expect(callViewOf(callee.getSnapshot())).toMatchObject({ terms: 'unknown', canAccept: true, percentOff: null });
    const host = createActor(callMachine, {
      input: { direction: 'in', online: true, isHost: true, account: 'yx-host', signal: { ...ring, from: 'yx-user', to: 'yx-host' } },
    }).start();
    expect(callViewOf(host.getSnapshot())).toMatchObject({ pays: false, terms: null, canAccept: true });
  });

  it('[§8 1080] the payer is offered a recharge; the host who called a user who cannot pay is told so, with no recharge', () => {
    const serverText = 'Not enough diamonds to continue: the call has ended.';
    expect(offersRecharge({ text: CallText.balance }, false, serverText)).toBe(true);
    expect(offersRecharge({ text: serverText }, false, serverText)).toBe(true);
    expect(offersRecharge({ text: serverText }, true, serverText)).toBe(false);
    expect(offersRecharge({ text: peerShortOfDiamonds('Finn') }, true, serverText)).toBe(false);
    expect(offersRecharge({ text: null }, false, serverText)).toBe(false);
    expect(peerShortOfDiamonds('Finn')).toBe('Finn does not have enough diamonds for this call.');
    expect(peerShortOfDiamonds(' ')).toBe('The user does not have enough diamonds for this call.');
    expect(CallText.balance).not.toContain('.not.');
  });
});

describe('[§4 -3 type 3] the server\'s warning of the call', () => {
  it('is in the call screen\'s view once it comes for this call\'s channel, and a new view is rendered for it', async () => {
    const caller = createActor(callMachine.provide({
      actors: {
        setup: callSetupMachine.provide({ actors: { createCall: fromPromise(async (): Promise<CallInfo> => ({ channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 48, nickname: 'Sofia' })) } }),
        signal: fromPromise(() => new Promise<void>(() => {})),
      },
    }), { input: { direction: 'out', online: true, isHost: false, account: 'yx-user', peer: { account: 'yx-host', userId: 1 }, callType: 0 } }).start();
    await flush();
    const before = callViewOf(caller.getSnapshot());
    expect(before.warning).toBeNull();
    caller.send({ type: 'system.callWarning', channelId: 'ch9', text: 'Another call' });
    expect(callViewOf(caller.getSnapshot()).warning).toBeNull();
    caller.send({ type: 'system.callWarning', channelId: 'ch1', text: 'Weak network' });
    const after = callViewOf(caller.getSnapshot());
    expect(after.warning).toBe('Weak network');
    expect(sameView(before, after)).toBe(false);
  });
});
