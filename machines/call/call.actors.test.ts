/**
 * The call's composition over fake ports: SPEC §9 joinCall 3 s, room preparation retried once,
 * cleanup always, and the intents' idempotency keys carried to createCall, joinCall and gifts.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { CallApiError, MediaError, MediaErrorText } from '../ports/call.port';
import type { CallApiPort, CallInfo, RtcEvent, RtcPort } from '../ports/call.port';
import type { GiftApiPort } from '../ports/gift.port';
import type { SignallingPort } from '../ports/signalling.port';
import { SignalAction } from '../ports/signalling.port';
import { seenIntentKeys } from '../testing/intent-keys';
import { flush } from '../testing/paths';
import { composeCall, retryOnce } from './call.actors';
import { CallStatus, CallText, JOIN_TIMEOUT_MS } from './call.machine';

function fakes(over: {
  joinCall?: CallApiPort['joinCall']; join?: () => Promise<void>; prepare?: () => Promise<void>; createCall?: CallApiPort['createCall'];
  terms?: CallApiPort['terms'];
  /** Camera and microphone allowed already (RtcPort `mediaAllowed`); default not. */
  mediaAllowed?: boolean;
} = {}) {
  const log: string[] = [];
  const rtcListeners = new Set<(e: RtcEvent) => void>();
  const api: CallApiPort = {
    createCall: over.createCall ?? (async () => ({
      channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 48, nickname: 'Sofia', listPrice: 60, billingPeriodMs: 60_000, balance: 1000,
    } satisfies CallInfo)),
    joinCall: over.joinCall ?? (async () => { log.push('joinCall'); }),
    endCall: async (channelId, reason) => { log.push(`endCall ${channelId} ${reason}`); },
    rate: async () => {},
    peerCard: async (account) => { log.push(`peerCard ${account}`); return { nickname: 'Alex', age: 30, countryCode: 'PH' }; },
    terms: over.terms ?? (async (channelId) => {
      log.push(`terms ${channelId}`);
      return { videoPrice: 32, listPrice: 40, callDiscount: 80, billingPeriodMs: 60_000, youPay: true, balance: 200 };
    }),
  };
  const rtc: RtcPort = {
    prepare: over.prepare ?? (async () => { log.push('prepare'); }),
    join: over.join ?? (async () => { log.push('join'); }),
    leave: async () => { log.push('leave'); },
    mediaAllowed: () => over.mediaAllowed ?? false,
    subscribe: (l) => { rtcListeners.add(l); return () => rtcListeners.delete(l); },
  };
  const signalling: SignallingPort = {
    login: async () => {},
    logout: async () => {},
    send: async (to, s) => {
      log.push(`signal ${to} ${s.action}${s.payload ? ` ${JSON.stringify(s.payload)}` : ''}`);
      return { id: 'x', from: 'me', to, time: 1, ...s };
    },
    subscribe: () => () => {},
  };
  const gifts: GiftApiPort = {
    list: async (filter) => { log.push(`giftList ${JSON.stringify(filter)}`); return [{ id: 1, name: 'Popular', gifts: [] }]; },
    send: async (r) => { log.push(`sendGift ${r.channelId} ${r.toUserId} ${r.giftId} ${r.giftNum}`); return { balance: 990, value: 10 }; },
    askFor: async (r) => { log.push(`askFor ${r.beAskYxAccid} ${r.giftId}`); return { askId: 7 }; },
    refuseAsk: async (askId) => { log.push(`refuseAsk ${askId}`); },
  };
  const clock = new SimulatedClock();
  const logic = composeCall({
    api, rtc, signalling, gifts,
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (id) => clock.clearTimeout(id as number),
  });
  return { logic, log, clock, emitRtc: (e: RtcEvent) => rtcListeners.forEach((l) => l(e)) };
}

const outgoing = {
  direction: 'out' as const, online: true, isHost: false, account: 'yx-user', peer: { account: 'yx-host', userId: 100001 }, callType: 0,
};

const incoming = {
  direction: 'in' as const, online: true, isHost: true, account: 'yx-host',
  signal: { id: 'r1', action: SignalAction.videoCall, channelId: 'ch1', from: 'yx-user', to: 'yx-host', time: 1 },
};

describe('call composition: idempotency keys', () => {
  it('places the call with the key made as it was placed, and answers one with the key made as it was taken', async () => {
    const keys = seenIntentKeys();
    try {
      const placed: unknown[] = [];
      const caller = fakes({
        createCall: async (request) => {
          placed.push(request);
          return { channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 48, nickname: 'Sofia' };
        },
      });
      createActor(caller.logic, { input: outgoing }).start();
      await flush();
      expect(placed).toEqual([{ beCallUserId: 100001, callType: 0, idempotencyKey: keys.made[0] }]);

      const taken: unknown[] = [];
      const callee = fakes({ joinCall: async (channelId, idempotencyKey) => { taken.push([channelId, idempotencyKey]); } });
      const actor = createActor(callee.logic, { input: incoming }).start();
      await flush();
      expect(keys.made).toHaveLength(1);
      actor.send({ type: 'call.accept' });
      actor.send({ type: 'call.accept' });
      await flush();
      expect(keys.made).toHaveLength(2);
      expect(taken).toEqual([['ch1', keys.made[1]]]);
    } finally {
      keys.restore();
    }
  });
});

describe('call composition', () => {
  it('takes a call: the channel at once, the camera before joinCall, then the accept signal; hangs up and cleans up both sides', async () => {
    const { logic, log, emitRtc } = fakes();
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    await flush();
    // The preview's prepare as it rings, then the accept's (the adapter's one preparation answers both).
    expect(log).toEqual(['peerCard yx-user', 'prepare', 'join', 'prepare', 'joinCall', `signal yx-user ${SignalAction.accept}`]);
    emitRtc({ type: 'firstRemoteFrame' });
    expect(actor.getSnapshot().matches('connected')).toBe(true);
    actor.send({ type: 'call.hangup' });
    await flush();
    await flush();
    expect(log.slice(6)).toEqual(['giftList {}', `signal yx-user ${SignalAction.hangup}`, 'leave', 'endCall ch1 1']);
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toMatchObject({ status: CallStatus.hungUp, reason: 1, text: null, channelId: 'ch1', direction: 'in' });
  });

  it('connected: the host asks through the gift API; the gift list loads for the popup', async () => {
    const { logic, log, emitRtc } = fakes();
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    await flush();
    emitRtc({ type: 'firstRemoteFrame' });
    await flush();
    expect(log).toContain('giftList {}');
    const room = actor.getSnapshot().children.inCall as unknown as { getSnapshot(): { children: Record<string, unknown> } };
    const children = room.getSnapshot().children as Record<string, { send(e: unknown): void; getSnapshot(): { value: unknown } } | undefined>;
    expect(children.gifting).toBeUndefined();
    children.askGift!.send({ type: 'gift.ask', giftId: 3 });
    await flush();
    expect(log.at(-1)).toBe('askFor yx-user 3');
    expect(children.askGift!.getSnapshot().value).toBe('coolingDown');
  });

  it('connected: the user sends gifts and refuses asks through the gift API, starting from the balance createCall said', async () => {
    const { logic, log, emitRtc } = fakes();
    const actor = createActor(logic, {
      input: { direction: 'out', online: true, isHost: false, account: 'yx-user', peer: { account: 'yx-host', userId: 100001 }, callType: 0 },
    }).start();
    await flush();
    actor.send({ type: 'signal.event', event: { type: 'signal', signal: { id: 'a', action: SignalAction.accept, channelId: 'ch1', from: 'yx-host', to: 'yx-user', time: 1 } } });
    emitRtc({ type: 'firstRemoteFrame' });
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ listPrice: 60, billingPeriodMs: 60_000, balance: 1000 });
    const room = actor.getSnapshot().children.inCall as unknown as { getSnapshot(): { children: Record<string, unknown> } };
    const gifting = room.getSnapshot().children.gifting as { send(e: unknown): void; getSnapshot(): { context: { known: unknown; ask: unknown } } };
    expect(gifting.getSnapshot().context.known).toEqual({ amount: 1000, at: 0 });
    gifting.send({ type: 'gift.send', giftId: 1, giftNum: 10 });
    await flush();
    expect(log.at(-1)).toBe('sendGift ch1 100001 1 10');
    expect(gifting.getSnapshot().context.known).toMatchObject({ amount: 990 });
    actor.send({
      type: 'system.giftAsked',
      ask: { askId: 7, channelId: 'ch1', giftId: 11, giftName: 'Ring', giftImg: '/g.svg', giftPrice: 520, fromNick: 'Sofia' },
    });
    gifting.send({ type: 'gift.refuseAsk' });
    await flush();
    expect(log.at(-1)).toBe('refuseAsk 7');
    expect(gifting.getSnapshot().context.ask).toBeNull();
  });

  it('gives up taking the call when joinCall has not answered in 3 s', async () => {
    const { logic, clock } = fakes({ joinCall: () => new Promise(() => {}) });
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    await flush();
    clock.increment(JOIN_TIMEOUT_MS - 1);
    await flush();
    expect(actor.getSnapshot().matches({ incoming: 'accepting' })).toBe(true);
    clock.increment(1);
    await flush();
    expect(actor.getSnapshot().context.outcome?.text).toBe(CallText.callError);
  });

  it('Scenario: a refused camera takes nothing — no joinCall (no period charged), the caller is told she cannot take it', async () => {
    const { logic, log } = fakes({ prepare: () => Promise.reject(new MediaError('permissionDenied')) });
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    await flush();
    await flush();
    expect(log).not.toContain('joinCall');
    expect(log).toContain(`signal yx-user ${SignalAction.reject} {"unavailable":true}`);
    expect(log).toContain('endCall ch1 1');
    expect(actor.getSnapshot().output).toMatchObject({ status: CallStatus.cancel, text: MediaErrorText.permissionDenied });
  });

  it('Scenario: the camera opens while it rings, so taking the call waits only for the server and the channel', async () => {
    let opened = 0;
    let open: () => void = () => {};
    // As the adapters do: one preparation per call, a second prepare answers when the first does.
    const camera = new Promise<void>((resolve) => { open = () => { opened++; resolve(); }; });
    const { logic, log } = fakes({ prepare: () => camera });
    const actor = createActor(logic, { input: incoming }).start();
    await flush();
    open();
    await flush();
    expect(actor.getSnapshot().matches({ incoming: 'ringing' })).toBe(true);
    actor.send({ type: 'call.accept' });
    await flush();
    expect(opened).toBe(1);
    expect(log.slice(1)).toEqual(['join', 'joinCall', `signal yx-user ${SignalAction.accept}`]);
    expect(actor.getSnapshot().matches('connecting')).toBe(true);
  });

  it('Scenario: a call taken before the camera is open: the channel is joined meanwhile, the server takes the call once it opens', async () => {
    let open: () => void = () => {};
    const camera = new Promise<void>((resolve) => { open = resolve; });
    const { logic, log } = fakes({ prepare: () => camera });
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    await flush();
    expect(log).toEqual(['peerCard yx-user', 'join']);
    expect(actor.getSnapshot().matches({ incoming: 'accepting' })).toBe(true);
    open();
    await flush();
    expect(log.slice(2)).toEqual(['joinCall', `signal yx-user ${SignalAction.accept}`]);
    expect(actor.getSnapshot().matches('connecting')).toBe(true);
  });

  it('Scenario: the caller\'s first frame comes while the call is still being taken: taken, it is connected at once', async () => {
    let open: () => void = () => {};
    const camera = new Promise<void>((resolve) => { open = resolve; });
    const { logic, log, emitRtc } = fakes({ prepare: () => camera });
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    await flush();
    emitRtc({ type: 'firstRemoteFrame' });
    expect(actor.getSnapshot().matches({ incoming: { accepting: 'framed' } })).toBe(true);
    open();
    await flush();
    expect(log.at(-1)).toBe('giftList {}');
    expect(actor.getSnapshot().matches('connected')).toBe(true);
    expect(actor.getSnapshot().context.status).toBe(CallStatus.inProgress);
  });

  it('Scenario: a camera refused while it rings leaves the ring as it is; taken, it is refused again and takes nothing', async () => {
    let asked = 0;
    const { logic, log } = fakes({ prepare: () => { asked++; return Promise.reject(new MediaError('permissionDenied')); } });
    const actor = createActor(logic, { input: incoming }).start();
    await flush();
    expect(asked).toBe(1);
    expect(actor.getSnapshot().matches({ incoming: 'ringing' })).toBe(true);
    expect(actor.getSnapshot().context.outcome).toBeNull();
    actor.send({ type: 'call.accept' });
    await flush();
    await flush();
    expect(asked).toBe(2);
    expect(log).not.toContain('joinCall');
    // The channel joined meanwhile is left before the caller is told.
    expect(log.indexOf('leave')).toBeGreaterThan(log.indexOf('join'));
    expect(log.indexOf('leave')).toBeLessThan(log.indexOf(`signal yx-user ${SignalAction.reject} {"unavailable":true}`));
    expect(actor.getSnapshot().output).toMatchObject({ status: CallStatus.cancel, text: MediaErrorText.permissionDenied });
  });

  it('Scenario: the caller\'s camera opens while the call is created; the channel is joined and rung once both are done', async () => {
    let create: () => void = () => {};
    const { logic, log } = fakes({
      createCall: () => new Promise<CallInfo>((resolve) => {
        create = () => { log.push('created'); resolve({ channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 48, nickname: 'Sofia' }); };
      }),
    });
    const actor = createActor(logic, { input: outgoing }).start();
    await flush();
    expect(log).toEqual(['prepare']);
    expect(actor.getSnapshot().matches({ outgoing: 'starting' })).toBe(true);
    create();
    await flush();
    expect(log).toEqual(['prepare', 'created', 'join', `signal yx-host ${SignalAction.videoCall} {"ringTimeoutMs":30000}`]);
    expect(actor.getSnapshot().matches({ outgoing: 'ringing' })).toBe(true);
  });

  it('Scenario: the caller\'s camera refused while the call is created: the call created is ended on the server, nothing rings', async () => {
    let create: () => void = () => {};
    const { logic, log } = fakes({
      prepare: () => Promise.reject(new MediaError('permissionDenied')),
      createCall: () => new Promise<CallInfo>((resolve) => {
        create = () => resolve({ channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 48, nickname: 'Sofia' });
      }),
    });
    const actor = createActor(logic, { input: outgoing }).start();
    await flush();
    expect(actor.getSnapshot().status).toBe('active');
    create();
    await flush();
    await flush();
    expect(log).toEqual(['leave', 'endCall ch1 1']);
    expect(actor.getSnapshot().output).toMatchObject({ status: CallStatus.cancel, text: MediaErrorText.permissionDenied, channelId: 'ch1' });
  });

  it('Scenario: camera and microphone allowed already: the peer is rung once the call exists and its channel is joined, before they open', async () => {
    let openCamera: () => void = () => {};
    const { logic, log } = fakes({
      mediaAllowed: true,
      prepare: () => new Promise<void>((resolve) => { openCamera = () => { log.push('camera open'); resolve(); }; }),
    });
    const actor = createActor(logic, { input: outgoing }).start();
    await flush();
    await flush();
    expect(log).toEqual(['join', `signal yx-host ${SignalAction.videoCall} {"ringTimeoutMs":30000}`]);
    expect(actor.getSnapshot().matches({ outgoing: 'ringing' })).toBe(true);
    openCamera();
    await flush();
    expect(actor.getSnapshot().matches({ outgoing: 'ringing' })).toBe(true);
  });

  it('Scenario: a camera allowed already that fails after the ring ends the call with its text, and the callee is told it was cancelled', async () => {
    let failCamera: () => void = () => {};
    const { logic, log, emitRtc } = fakes({
      mediaAllowed: true,
      prepare: () => new Promise<void>((_, reject) => {
        // As the adapters do: the failure is said as an event too, which a call that did not wait hears.
        failCamera = () => {
          const error = new MediaError('deviceNotFound');
          emitRtc({ type: 'mediaFailed', error });
          reject(error);
        };
      }),
    });
    const actor = createActor(logic, { input: outgoing }).start();
    await flush();
    await flush();
    expect(actor.getSnapshot().matches({ outgoing: 'ringing' })).toBe(true);
    failCamera();
    await flush();
    await flush();
    expect(log).toContain(`signal yx-host ${SignalAction.cancel}`);
    expect(log).toContain('leave');
    expect(log).toContain('endCall ch1 1');
    expect(actor.getSnapshot().output).toMatchObject({ status: CallStatus.cancel, text: MediaErrorText.deviceNotFound, channelId: 'ch1' });
  });

  it('Scenario: camera and microphone not allowed yet (the person may be asked): the ring waits for them', async () => {
    let openCamera: () => void = () => {};
    const { logic, log } = fakes({ prepare: () => new Promise<void>((resolve) => { openCamera = () => { log.push('camera open'); resolve(); }; }) });
    const actor = createActor(logic, { input: outgoing }).start();
    await flush();
    await flush();
    expect(log).toEqual(['join']);
    expect(actor.getSnapshot().matches({ outgoing: 'starting' })).toBe(true);
    openCamera();
    await flush();
    expect(log).toEqual(['join', 'camera open', `signal yx-host ${SignalAction.videoCall} {"ringTimeoutMs":30000}`]);
  });

  it('Scenario: createCall refused (no diamonds): the call ends with §8\'s text, its camera is closed, no channel is joined or told', async () => {
    const { logic, log } = fakes({ createCall: () => Promise.reject(new CallApiError('balance', 'diamond.not.enough')) });
    const actor = createActor(logic, { input: outgoing }).start();
    await flush();
    await flush();
    expect(log).toEqual(['prepare', 'leave']);
    expect(actor.getSnapshot().output).toMatchObject({ status: CallStatus.cancel, text: CallText.balance, channelId: null });
  });

  it('Scenario: a hang-up while the call is being taken turns it down, and the camera opened meanwhile is closed', async () => {
    let openCamera: () => void = () => {};
    // (The camera is slow: neither the preview nor the accept has it when the hang-up comes.)
    const { logic, log } = fakes({ prepare: () => new Promise<void>((resolve) => { openCamera = () => { log.push('prepare'); resolve(); }; }) });
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    await flush();
    expect(actor.getSnapshot().matches({ incoming: 'accepting' })).toBe(true);
    actor.send({ type: 'call.hangup' });
    await flush();
    expect(log).toContain(`signal yx-user ${SignalAction.reject}`);
    openCamera();
    await flush();
    await flush();
    expect(log).not.toContain('joinCall');
    expect(log.filter((l) => l === 'leave')).toHaveLength(2);
    expect(log.indexOf('leave', log.indexOf('prepare'))).toBeGreaterThan(log.indexOf('prepare'));
    expect(log).not.toContain(`signal yx-user ${SignalAction.accept}`);
    expect(actor.getSnapshot().output).toMatchObject({ status: CallStatus.cancel, reason: 1 });
  });

  it('Scenario: the ring shows who calls as the server says, and rings as long as the caller was told to', async () => {
    const { logic } = fakes();
    const actor = createActor(logic, {
      input: { ...incoming, signal: { ...incoming.signal, payload: { ringTimeoutMs: 45_000, nickname: 'Someone else' } } },
    }).start();
    await flush();
    expect(actor.getSnapshot().context.peer).toMatchObject({ account: 'yx-user', nickname: 'Alex', age: 30, countryCode: 'PH' });
    expect(actor.getSnapshot().context.ringTimeoutMs).toBe(45_000);
  });

  it('Scenario: the caller rings as long as the server says (callTimeOutNum) and tells the callee', async () => {
    const { logic, log } = fakes({
      createCall: async () => ({ channelId: 'ch1', yxAccid: 'yx-host', videoPrice: 48, nickname: 'Sofia', ringTimeoutMs: 20_000 }),
    });
    const actor = createActor(logic, { input: { direction: 'out', online: true, isHost: false, account: 'yx-user', peer: { account: 'yx-host', userId: 100001 }, callType: 0 } }).start();
    await flush();
    expect(actor.getSnapshot().context.ringTimeoutMs).toBe(20_000);
    expect(log).toContain(`signal yx-host ${SignalAction.videoCall} {"ringTimeoutMs":20000}`);
  });

  it('Scenario: a user a host calls is told the price and her balance as it rings, and cannot take the call before; the room starts from that balance', async () => {
    let price: () => void = () => {};
    const { logic, log, emitRtc } = fakes({
      terms: (channelId) => new Promise((resolve) => {
        price = () => resolve({ videoPrice: 32, listPrice: 40, callDiscount: 80, billingPeriodMs: 60_000, youPay: true, balance: 200 });
        log.push(`terms ${channelId}`);
      }),
    });
    const actor = createActor(logic, { input: { ...incoming, isHost: false, account: 'yx-user', signal: { ...incoming.signal, from: 'yx-host', to: 'yx-user' } } }).start();
    await flush();
    expect(log).toContain('terms ch1');
    expect(actor.getSnapshot().can({ type: 'call.accept' })).toBe(false);
    actor.send({ type: 'call.accept' });
    await flush();
    expect(log).not.toContain('joinCall');
    price();
    await flush();
    expect(actor.getSnapshot().context).toMatchObject({ peer: { videoPrice: 32 }, listPrice: 40, callDiscount: 80, balance: 200, billingPeriodMs: 60_000 });
    actor.send({ type: 'call.accept' });
    await flush();
    expect(log).toContain('joinCall');
    emitRtc({ type: 'firstRemoteFrame' });
    await flush();
    const room = actor.getSnapshot().children.inCall as unknown as { getSnapshot(): { children: Record<string, { getSnapshot(): { context: { known: unknown } } }> } };
    expect(room.getSnapshot().children.gifting!.getSnapshot().context.known).toEqual({ amount: 200, at: 0 });
  });

  it('Scenario: a host is not asked to pay: no price is looked up, and she takes the call at once', async () => {
    const { logic, log } = fakes();
    const actor = createActor(logic, { input: incoming }).start();
    await flush();
    expect(actor.getSnapshot().can({ type: 'call.accept' })).toBe(true);
    expect(log.some((l) => l.startsWith('terms'))).toBe(false);
  });

  it('Scenario: the first period\'s income, told while the call is still being taken, counts once it is connected (SPEC §4 15)', async () => {
    const { logic, emitRtc } = fakes();
    const actor = createActor(logic, { input: incoming }).start();
    actor.send({ type: 'call.accept' });
    actor.send({ type: 'system.callIncome', amount: 30 });
    await flush();
    actor.send({ type: 'system.giftIncome', amount: 5 });
    emitRtc({ type: 'firstRemoteFrame' });
    actor.send({ type: 'system.callIncome', amount: 30 });
    await flush();
    const room = actor.getSnapshot().children.inCall as unknown as { getSnapshot(): { context: { callIncome: number; giftIncome: number } } };
    expect(room.getSnapshot().context).toMatchObject({ callIncome: 60, giftIncome: 5 });
  });

  it('Scenario: joinCall refused for want of diamonds: the payer is told so in words', async () => {
    const { logic } = fakes({ joinCall: () => Promise.reject(new CallApiError('balance', 'diamond.not.enough')) });
    const actor = createActor(logic, { input: { ...incoming, isHost: false, account: 'yx-user', signal: { ...incoming.signal, from: 'yx-host', to: 'yx-user' } } }).start();
    await flush();
    actor.send({ type: 'call.accept' });
    await flush();
    await flush();
    expect(actor.getSnapshot().output).toMatchObject({ status: CallStatus.cancel, text: CallText.balance });
  });

  it('retries room preparation once, not more', async () => {
    let tries = 0;
    await expect(retryOnce(async () => { tries++; if (tries < 2) throw new Error('busy'); return 'ok'; })).resolves.toBe('ok');
    tries = 0;
    await expect(retryOnce(async () => { tries++; throw new Error(`try ${tries}`); })).rejects.toThrow('try 2');
    expect(tries).toBe(2);
  });
});
