/**
 * Generated-path tests of the signed-in session: its children run for real over fake
 * ports; the IM connection's facts the session subscribes to are said by the fake IM port,
 * what its children ask for is fed to the session directly, and its outputs checked.
 * The calls child has its own (calls.paths.test.ts); here, what the session hands it and
 * does for it, and a call through the session as a scenario.
 */
import { describe, expect, it } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject, InspectionEvent } from 'xstate';
import type { ImMessage } from '../ports/im.port';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import type { FakeSignallingPort } from '../ports/signalling.fake';
import { SignalAction } from '../ports/signalling.port';
import type { CallSignal } from '../ports/signalling.port';
import type { FakeChatroomPort } from '../ports/chatroom.fake';
import type { FakeLiveMedia } from '../ports/live.fake';
import { manualRealtime } from '../testing/realtime';
import { CallText } from '../call/call.texts';
import { SYSTEM_SENDER_ACCID } from '../system-messages/system-messages';
import * as perUse from './per-use.actors';
import { composeSession } from './session.actors';
import { sessionMachine } from './session.machine';
import type { SessionInput } from './session.machine';
import { selectCall, selectCallChat, selectCalls, selectLastCall, selectTalk, selectTalks } from './session.selectors';
import type { FakeImPort } from '../ports/im.fake';
import type { ImEvent, ImNotification } from '../ports/im.port';

const incoming = (over: Partial<ImMessage> = {}): ImMessage => ({
  idClient: 'c1', idServer: 's1', from: 'yx-peer', to: 'me', fromNick: 'Peer', sessionId: 'yx-peer', scene: 'p2p',
  flow: 'in', type: 'text', text: 'hello', time: 1, status: 'sent', ...over,
});

/** System messages a user could forge: a live's forced end, a ringing call refused, call income, a crypto payment. */
const FORGED = [
  { attachType: 44, code: 3 }, { attachType: -3, type: 1, channelId: 'ch9' }, { attachType: 15, num: 500 },
  { attachType: 99, usdtPayStatus: true, usdtOrderNo: 'o1' },
];
const forgedLog = { type: 'session.log', text: 'System message from yx-peer ignored: not from the server' };

const ring: CallSignal = { id: 'r1', action: SignalAction.videoCall, channelId: 'ch9', from: 'yx-caller', to: 'me', time: 1 };
const busy = ['yx-caller', { action: 3, channelId: 'ch9', payload: { busy: true } }];

/** The wallet's place: it keeps what it hears (the session hands it 99 and the app's return). */
const walletStandIn = setup({ types: { context: {} as { heard: string[] } } }).createMachine({
  context: { heard: [] },
  on: { '*': { actions: assign({ heard: ({ context, event }) => [...context.heard, event.type] }) } },
});

const samples: AnyEventObject[] = [
  { type: 'session.leave' }, { type: 'app.hidden' }, { type: 'app.visible' }, { type: 'user.input' },
  // The IM connection's facts the session subscribes to (the replay has the fake IM port say them).
  { type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 58 } },
  { type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: -4 } },
  { type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: '{"attachType":44}' },
  { type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 777 } },
  // The call's (15, call income): the calls know whether one runs.
  { type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 15, num: 5 } },
  // Forged by a user (anyone can send a custom notification): logged, nothing else.
  ...FORGED.map((content) => ({ type: 'im.notification', from: 'yx-peer', content })),
  { type: 'im.unreadChanged', count: 7 },
  { type: 'im.sessionEnded', text: 'This account has been logged in on other devices.' },
  { type: 'xstate.done.actor.presence' },
  { type: 'child.toast', text: 'Only VIP members can pin chats.' },
  // Calls are the calls child's (the screens ask it themselves): the live room's private call comes through the
  // session; what the calls ask for (rings are signalling's, heard by the calls).
  { type: 'call.start', peer: { account: 'yx-host', userId: 100001 }, callType: 0, online: false },
  { type: 'child.log', text: 'The call\'s chat could not be loaded' },
  // A child asks for navigation (the banner's tap, a live's end); the live rooms hear the screens themselves.
  { type: 'child.navigate', to: '/liveEnds' },
  { type: 'child.openPage', url: '/sandbox/pay/R1' },
  { type: 'wallet.vip', isVip: true },
  // The wallet's code, loaded as the session starts; 99 is the wallet's once it is there.
  { type: 'xstate.done.actor.loadWallet', output: walletStandIn },
  { type: 'xstate.error.actor.loadWallet', error: new TypeError('Failed to fetch dynamically imported module') },
  { type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 99, usdtPayStatus: true, usdtOrderNo: 'R1' } },
];

/** The IM port's event behind each fact of the connection the session subscribes to. */
const PORT_EVENTS: Record<string, ((e: AnyEventObject) => ImEvent) | undefined> = {
  'im.notification': (e) => ({ type: 'notification', notification: { idServer: 'n1', from: e.from as string, to: 'me', time: 1, content: e.content } as ImNotification }),
  'im.unreadChanged': (e) => ({ type: 'unread', total: e.count as number }),
  'im.sessionEnded': () => ({ type: 'kicked' }),
};

const inputs: Record<string, SessionInput> = {
  host: { isHost: true, isVip: false, account: 'me', token: 't', profile: { nick: 'Sofia', userLevel: 3, isNewUser: false } },
  user: { isHost: false, isVip: true, account: 'me', token: 't' },
};

/** The session composed over manual fakes: nothing answers until the test says so. */
function manualSession() {
  const realtime = manualRealtime();
  const warms = { count: 0 };
  const logic = composeSession(
    { ...realtime.ports, tokens: { ...realtime.ports.tokens, refreshIm: () => realtime.pending.add('refreshImToken', []) }, warmCall: () => { warms.count += 1; } },
    // A live's code is there at once (the live rooms' own tests load it by hand).
    (use) => (use === 'live' ? Promise.resolve(perUse) : realtime.pending.add(`load.${use}`, [])),
    () => realtime.pending.add('load.wallet', []),
  );
  return { ...realtime, logic, warms };
}

async function replay(input: SessionInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { presence, clock, logic, pending, ports, warms } = manualSession();
  const im = ports.im as FakeImPort;
  const liveMedia = ports.liveMedia as FakeLiveMedia;
  const chatroom = ports.chatroom as FakeChatroomPort;
  const actor = createActor(logic, { input, clock, inspect });
  const out: AnyEventObject[] = [];
  actor.on('*', (e) => out.push(e));
  actor.start();
  await flush();

  let walletReady = false;
  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const callLoadsBefore = pending.count('load.call');
    const warmsBefore = warms.count;
    const outBefore = out.length;
    const walletLoad = pending.open().find((c) => c.method === 'load.wallet');
    if (event.type === 'xstate.done.actor.presence') presence.pending.latest('send').resolve(undefined);
    // The wallet's code is asked for once; a second answer has nothing to answer.
    else if (event.type === 'xstate.done.actor.loadWallet') {
      walletReady ||= walletLoad !== undefined;
      walletLoad?.resolve({ composeWallet: () => walletStandIn });
    }
    else if (event.type === 'xstate.error.actor.loadWallet') walletLoad?.reject((event as AnyEventObject).error);
    else if (PORT_EVENTS[event.type]) im.emit(PORT_EVENTS[event.type]!(event as AnyEventObject));
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    const e = event as AnyEventObject;
    if (event.type === 'im.unreadChanged') expect(out.at(-1)).toEqual({ type: 'session.unread', count: 7 });
    if (event.type === 'child.toast') expect(out.at(-1)).toEqual({ type: 'session.toast', text: e.text });
    // The calls live with the session; it hands them the call intents and does what they ask.
    const calls = snapshot.children.calls;
    if (snapshot.status === 'active') {
      expect(calls?.getSnapshot().status).toBe('active');
      if (event.type === 'call.start') {
        // A call's code is asked for when it starts or rings; beside it, what the call uses outside the machines starts loading.
        expect(calls!.getSnapshot().value).toBe('loading');
        expect(pending.count('load.call')).toBe(callLoadsBefore + 1);
        expect(warms.count).toBe(warmsBefore + 1);
      }
    } else if (calls) expect(calls.getSnapshot().status).toBe('stopped');
    if (event.type === 'child.log') expect(out.at(-1)).toEqual({ type: 'session.log', text: e.text });
    // Kicked elsewhere: the connection ends, and the session with it (while active; leaving goes on to its end).
    if (event.type === 'im.sessionEnded' && before.matches('active')) expect(snapshot.matches('ended')).toBe(true);
    if (event.type === 'im.notification' && e.from !== SYSTEM_SENDER_ACCID) expect(out.slice(outBefore)).toEqual([forgedLog]);
    else if (event.type === 'im.notification') {
      const attachType = typeof e.content === 'string' ? (JSON.parse(e.content) as { attachType: number }).attachType : (e.content as { attachType: number }).attachType;
      const expected = { 58: 'session.becameHost', [-4]: 'session.followerAdded' }[attachType];
      // 44 goes to the live rooms (which hand it to a live being hosted); nothing is reported.
      if (attachType === 44) expect(out.slice(outBefore)).toEqual([]);
      // 99 goes to the wallet once its code is there; before, it is logged.
      else if (attachType === 99 && before.children.wallet) {
        expect(out.slice(outBefore)).toEqual([]);
        expect((before.children.wallet.getSnapshot().context as unknown as { heard: string[] }).heard.at(-1)).toBe('system.cryptoPayment');
      } else if (attachType === 99) {
        expect(out.slice(outBefore)).toEqual([{ type: 'session.log', text: 'System message for wallet, which is not loaded yet: system.cryptoPayment' }]);
      }
      // No call runs here: the calls say so.
      else if (attachType === 15) expect(out.slice(outBefore)).toEqual([{ type: 'session.log', text: 'System message for call, which is not running: system.callIncome' }]);
      else expect(out.at(-1)?.type).toBe(expected ?? 'session.log');
    }
    if (event.type === 'child.navigate') expect(out.at(-1)).toEqual({ type: 'session.navigate', to: '/liveEnds' });
    if (event.type === 'child.openPage') expect(out.at(-1)).toEqual({ type: 'session.openPage', url: '/sandbox/pay/R1' });
    // A VIP bought: the owner hears it, and pinning follows (the conversations are told).
    if (event.type === 'wallet.vip' && before.matches('active')) {
      expect(out.at(-1)).toEqual({ type: 'session.vip', isVip: true });
      expect(snapshot.children.conversations!.getSnapshot().context.isVip).toBe(true);
    }
    // The wallet lives with the session once its code is there (and only then).
    if (snapshot.status === 'active') expect(Boolean(snapshot.children.wallet)).toBe(walletReady);
    // The live rooms live with the session (the screens ask them themselves), with the person's chat-room entry.
    const live = snapshot.children.liveRooms;
    if (snapshot.status === 'active') {
      expect(live!.getSnapshot().context.entry).toEqual(input.isHost
        ? { account: 'me', token: 't', nick: 'Sofia', ext: { isVip: false, isNewUser: false, userLevel: 3 } }
        : { account: 'me', token: 't', nick: 'me', ext: { isVip: true, isNewUser: false, userLevel: 0 } });
    } else if (live) expect(live.getSnapshot().status).toBe('stopped');
    if (event.type === 'session.leave') expect(presence.pending.latest('send').args).toEqual([2]);
    if (snapshot.status === 'active') {
      expect(Boolean(snapshot.children.idleHost)).toBe(input.isHost && snapshot.matches({ active: 'hosting' }));
    } else {
      expect(im.listenerCount).toBe(0);
    }
  }
  actor.stop();
  expect(liveMedia.listenerCount + chatroom.listenerCount()).toBe(0);
}

describeGeneratedPaths('session', sessionMachine, {
  events: samples,
  inputs,
  // Presence finishes only after it was told to go offline.
  possible: (s, e) => e.type !== 'xstate.done.actor.presence' || s.matches('leaving'),
  minPaths: 5,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('[§4 Presence] leaving', () => {
  it('says offline and finishes within presence timeout even when the server never answers', async () => {
    const { presence, clock, logic } = manualSession();
    const actor = createActor(logic, { input: inputs.host!, clock }).start();
    actor.send({ type: 'session.leave' });
    expect(presence.pending.argsOf('send')).toEqual([[2]]);
    clock.increment(5000);
    await flush();
    expect(actor.getSnapshot().status).toBe('done');
    expect(presence.closeCount).toBe(1);
  });
});

describe('Scenario: a call through the session', () => {
  /** The session over manual fakes, with what reached each actor (by id) recorded. */
  function started(input: SessionInput) {
    const session = manualSession();
    const seen = new Map<string, string[]>();
    const inspect = (e: InspectionEvent) => {
      if (e.type !== '@xstate.event') return;
      const id = (e.actorRef as AnyActorRef).id;
      seen.set(id, [...(seen.get(id) ?? []), e.event.type]);
    };
    const actor = createActor(session.logic, { input, clock: session.clock, inspect });
    const out: AnyEventObject[] = [];
    actor.on('*', (e) => out.push(e));
    actor.start();
    const calls = () => selectCalls(actor.getSnapshot())!.getSnapshot();
    const bannerShown = () => actor.getSnapshot().children.banner!.getSnapshot().value !== 'hidden';
    const im = session.ports.im as FakeImPort;
    /** The IM port says a message: the connection emits it, and whoever subscribes hears it. */
    const say = (message: ImMessage) => im.emit({ type: 'message', message });
    const signalling = session.ports.signalling as FakeSignallingPort;
    return { ...session, actor, out, calls, bannerShown, im, say, signalling, seenBy: (id: string) => seen.get(id) ?? [] };
  }
  const callIncome = { type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 15, num: 5 } } as const;
  const fromCaller = (idServer: string): ImMessage => incoming({ from: 'yx-caller', sessionId: 'yx-caller', fromNick: 'Caller', idServer });

  it('[§2 in-call chat, §4 System messages] hands a ring and its system messages to the calls, whose chat hears its peer, the IM connection and its send answers itself; a second ring is busy', async () => {
    const { actor, out, calls, bannerShown, seenBy, pending, ports, im, say } = started(inputs.host!);
    const signalling = ports.signalling as FakeSignallingPort;
    signalling.emit({ type: 'signal', signal: ring });
    expect(calls().value).toBe('loading');
    // While the call's code loads: its peer's messages are no banners, its system messages have no call to go to.
    say(fromCaller('s1'));
    expect(bannerShown()).toBe(false);
    actor.send(callIncome);
    expect(out.at(-1)).toEqual({ type: 'session.log', text: 'System message for call, which is not running: system.callIncome' });
    pending.latest('load.call').resolve(perUse);
    await flush();
    const call = selectCall(calls())!;
    expect(call.getSnapshot().context.peer.account).toBe('yx-caller');
    const outBefore = out.length;
    actor.send(callIncome);
    expect(seenBy('call')).toContain('system.callIncome');
    expect(out.length).toBe(outBefore);
    // One call at a time.
    signalling.emit({ type: 'signal', signal: { ...ring, id: 'r2', from: 'yx-other', channelId: 'ch10' } });
    expect(signalling.pending.argsOf('send').at(-1)).toEqual(['yx-other', { action: 3, channelId: 'ch10', payload: { busy: true } }]);
    expect(selectCall(calls())).toBe(call);
    // Connected: the call's chat starts (its code is the talk's) and hears its peer, the IM connection and the send answers.
    selectCalls(actor.getSnapshot())!.send({ type: 'xstate.snapshot.call', snapshot: { status: 'active', matches: (v: unknown) => v === 'connected' } as never });
    pending.latest('load.talk').resolve(perUse);
    await flush();
    const chat = selectCallChat(calls())!;
    expect(chat.getSnapshot().context.peer).toBe('yx-caller');
    say(fromCaller('s2'));
    expect(chat.getSnapshot().context.messages.map((m) => m.idServer)).toContain('s2');
    expect(bannerShown()).toBe(false);
    // Someone else's message is a banner still.
    say(incoming({ idServer: 's3' }));
    expect(bannerShown()).toBe(true);
    im.pending.next('login').resolve(undefined);
    await flush();
    // A send of the chat goes to the connection (logged in now) and its answer comes back under one name.
    chat.send({ type: 'talk.send', text: 'hi', idClient: 'c9', time: 9 });
    im.pending.latest('sendText').resolve(fromCaller('s4'));
    await flush();
    expect(chat.getSnapshot().context.messages.find((m) => m.idClient === 'c9')?.status).toBe('sent');
    expect(seenBy('callChat').filter((t) => t.startsWith('im.'))).toEqual(['im.message', 'im.message', 'im.connected', 'im.sent']);
    // Nothing of the chat's passes through the session.
    expect(seenBy('session').filter((t) => t.startsWith('im.message') || t.startsWith('talk.') || t === 'im.sent')).toEqual([]);
  });

  it('[§4 System messages] a call\'s system messages forged by a user never reach it and are logged; the server\'s do', async () => {
    const { actor, out, seenBy, pending , signalling } = started(inputs.host!);
    signalling.emit({ type: 'signal', signal: ring });
    pending.latest('load.call').resolve(perUse);
    await flush();
    for (const content of [{ attachType: -3, type: 1, channelId: ring.channelId }, { attachType: 15, num: 500 }]) {
      actor.send({ type: 'im.notification', from: ring.from, content });
      expect(out.at(-1)).toEqual({ type: 'session.log', text: `System message from ${ring.from} ignored: not from the server` });
    }
    expect(seenBy('call').filter((t) => t.startsWith('system.'))).toEqual([]);
    actor.send({ type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 15, num: 5 } });
    actor.send({ type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: -3, type: 1, channelId: ring.channelId } });
    expect(seenBy('call').filter((t) => t.startsWith('system.'))).toEqual(['system.callIncome', 'system.callRefused']);
  });

  it('[§2 in-call chat] the talk screen open with the call\'s own peer: her message reaches both chats, and is no banner', async () => {
    const { actor, calls, bannerShown, pending, say , signalling } = started(inputs.host!);
    signalling.emit({ type: 'signal', signal: ring });
    pending.latest('load.call').resolve(perUse);
    await flush();
    selectCalls(actor.getSnapshot())!.send({ type: 'xstate.snapshot.call', snapshot: { status: 'active', matches: (v: unknown) => v === 'connected' } as never });
    pending.latest('load.talk').resolve(perUse);
    await flush();
    selectTalks(actor.getSnapshot())!.send({ type: 'talk.open', peer: 'yx-caller' });
    pending.latest('load.talk').resolve(perUse);
    await flush();
    const talk = selectTalk(selectTalks(actor.getSnapshot())!.getSnapshot())!;
    const chat = selectCallChat(calls())!;
    expect(talk).not.toBe(chat);
    say(fromCaller('s5'));
    expect(talk.getSnapshot().context.messages.map((m) => m.idServer)).toContain('s5');
    expect(chat.getSnapshot().context.messages.map((m) => m.idServer)).toContain('s5');
    expect(bannerShown()).toBe(false);
  });

  it('[§4 App call state] a finished call tells the live rooms, leaves its end screen until dismissed, and its system messages are logged again', async () => {
    const { actor, out, calls, seenBy, pending, ports } = started(inputs.user!);
    const signalling = ports.signalling as FakeSignallingPort;
    signalling.emit({ type: 'signal', signal: ring });
    pending.latest('load.call').resolve(perUse);
    await flush();
    selectCall(calls())!.send({ type: 'call.reject' });
    for (let round = 0; round < 4; round++) {
      await flush();
      for (const c of signalling.pending.open().filter((p) => p.method === 'send')) c.resolve({ ...ring, action: 3, from: 'me' });
      for (const c of pending.open().filter((p) => p.method === 'leave' || p.method === 'endCall')) c.resolve(undefined);
    }
    expect(calls().matches({ idle: 'ended' })).toBe(true);
    expect(selectCall(calls())).toBeUndefined();
    expect(selectLastCall(calls())).toMatchObject({ peer: { account: 'yx-caller' } });
    expect(seenBy('liveRooms')).toContain('call.changed');
    expect(seenBy('liveRooms').at(-1)).toBe('call.ended');
    actor.send(callIncome);
    expect(out.at(-1)).toEqual({ type: 'session.log', text: 'System message for call, which is not running: system.callIncome' });
    selectCalls(actor.getSnapshot())!.send({ type: 'call.dismiss' });
    expect(selectLastCall(calls())).toBeNull();
  });

  it('[§5, §8] a call whose code cannot come: a tap asked offline is told so, a ring is turned down as busy', async () => {
    const { actor, out, calls, pending, ports , signalling } = started(inputs.user!);
    actor.send({ type: 'call.start', peer: { account: 'yx-host', userId: 100001 }, callType: 0, online: false });
    pending.latest('load.call').reject(new TypeError('Failed to fetch dynamically imported module'));
    await flush();
    expect(out.at(-1)).toEqual({ type: 'session.toast', text: CallText.offline });
    signalling.emit({ type: 'signal', signal: ring });
    pending.latest('load.call').reject(new TypeError('Failed to fetch dynamically imported module'));
    await flush();
    expect((ports.signalling as FakeSignallingPort).pending.argsOf('send').at(-1)).toEqual(busy);
    expect(calls().matches({ idle: 'none' })).toBe(true);
  });
});

describe('Scenario: the talk screen\'s chat through the session', () => {
  it('[§2 /talk, banner] the open talk hears its peer\'s messages itself (no banner); anyone else\'s is a banner; a closed talk leaves them to the banner', async () => {
    const { logic, pending, ports, clock } = manualSession();
    const im = ports.im as FakeImPort;
    const actor = createActor(logic, { input: inputs.user!, clock }).start();
    const talks = selectTalks(actor.getSnapshot())!;
    const bannerOf = () => actor.getSnapshot().children.banner!.getSnapshot();
    talks.send({ type: 'talk.open', peer: 'yx-peer' });
    // While its code loads, the peer's message is the chat's (it reads it with its history): no banner.
    im.emit({ type: 'message', message: incoming({ idServer: 's0' }) });
    expect(bannerOf().value).toBe('hidden');
    pending.latest('load.talk').resolve(perUse);
    await flush();
    const talk = selectTalk(talks.getSnapshot())!;
    im.emit({ type: 'message', message: incoming({ idServer: 's1' }) });
    expect(talk.getSnapshot().context.messages.map((m) => m.idServer)).toContain('s1');
    expect(bannerOf().value).toBe('hidden');
    im.emit({ type: 'message', message: incoming({ idServer: 's2', from: 'yx-other', sessionId: 'yx-other', fromNick: 'Other' }) });
    expect(bannerOf().context.current?.from).toBe('yx-other');
    talks.send({ type: 'talk.close' });
    expect(talk.getSnapshot().status).toBe('stopped');
    clock.increment(5000);
    im.emit({ type: 'message', message: incoming({ idServer: 's3' }) });
    expect(bannerOf().context.current?.from).toBe('yx-peer');
  });

  it('[§5] a send of the talk goes to the IM connection and its failure comes back to the talk alone', async () => {
    const { logic, pending, ports } = manualSession();
    const im = ports.im as FakeImPort;
    const actor = createActor(logic, { input: inputs.user!, inspect: undefined }).start();
    const talks = selectTalks(actor.getSnapshot())!;
    talks.send({ type: 'talk.open', peer: 'yx-peer' });
    pending.latest('load.talk').resolve(perUse);
    im.pending.next('login').resolve(undefined);
    await flush();
    const talk = selectTalk(talks.getSnapshot())!;
    talk.send({ type: 'talk.send', text: 'hello', idClient: 'c1', time: 5 });
    im.pending.latest('sendText').reject(Object.assign(new Error('Refused'), { code: 7101 }));
    await flush();
    expect(talk.getSnapshot().context.messages.find((m) => m.idClient === 'c1')).toMatchObject({ status: 'refused' });
  });
});
