/**
 * Generated-path tests of the signed-in session: its children run for real over fake
 * ports; what they would report is fed to the session directly, and its outputs checked.
 * The calls child has its own (calls.paths.test.ts); here, what the session hands it and
 * does for it, and a call through the session as a scenario.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject, InspectionEvent } from 'xstate';
import type { ImMessage } from '../ports/im.port';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import type { FakeSignallingPort } from '../ports/signalling.fake';
import { SignalAction } from '../ports/signalling.port';
import type { CallSignal } from '../ports/signalling.port';
import type { FakeChatroomPort } from '../ports/chatroom.fake';
import type { FakeLiveApi, FakeLiveMedia } from '../ports/live.fake';
import { manualRealtime } from '../testing/realtime';
import { talkMachine } from '../talk/talk.machine';
import { CallText } from '../call/call.texts';
import { SYSTEM_SENDER_ACCID } from '../system-messages/system-messages';
import * as perUse from './per-use.actors';
import { composeSession } from './session.actors';
import { TEXT_TALK_NOT_LOADED, bannerItemFor, sessionMachine } from './session.machine';
import type { SessionInput } from './session.machine';
import { selectCall, selectCallChat, selectCalls, selectLastCall } from './session.selectors';

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

const samples: AnyEventObject[] = [
  { type: 'session.leave' }, { type: 'app.hidden' }, { type: 'app.visible' }, { type: 'user.input' },
  { type: 'im.message', message: incoming() },
  { type: 'im.message', message: incoming({ flow: 'out', idServer: 's2' }) },
  // From the peer of a call: the call's chat shows it.
  { type: 'im.message', message: incoming({ from: 'yx-caller', sessionId: 'yx-caller', idServer: 's4' }) },
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
  { type: 'banner.navigate', to: '/talk?to=yx-peer&taPath=banner' },
  { type: 'xstate.done.actor.presence' },
  { type: 'im.connected' },
  { type: 'im.conversationChanged', conversation: { id: 'yx-peer', to: 'yx-peer', lastMsg: null, updateTime: 1, unread: 1 } },
  { type: 'child.toast', text: 'Only VIP members can pin chats.' },
  { type: 'talk.open', peer: 'yx-peer' },
  { type: 'talk.close' },
  { type: 'talk.sendFailed', idClient: 'c1', reason: 'notConnected', text: 'Connection not established. Please kill the app and try again.' },
  { type: 'talk.sent', idClient: 'c1', message: incoming({ flow: 'out', idServer: 's3' }) },
  // Calls are the calls child's: a tap, a ring, the end screen closed; what the calls ask for.
  { type: 'call.start', peer: { account: 'yx-host', userId: 100001 }, callType: 0, online: false },
  { type: 'call.ringing', signal: ring },
  { type: 'call.dismiss' },
  { type: 'child.busy', signal: ring },
  { type: 'child.log', text: 'The call\'s chat could not be loaded' },
  // The talk's code loads when a talk opens (or cannot be fetched).
  { type: 'xstate.done.actor.loadTalk', output: talkMachine },
  { type: 'xstate.error.actor.loadTalk', error: new TypeError('Failed to fetch dynamically imported module') },
  // Live rooms are the `live` child's; a child asks for navigation.
  { type: 'live.begin', setting: { title: 'Evening', privateCallOpen: true } },
  { type: 'live.watch', hostUserId: 100001 },
  { type: 'live.dismiss' },
  { type: 'beauty.failed' },
  { type: 'child.navigate', to: '/liveEnds' },
];

const inputs: Record<string, SessionInput> = {
  host: { isHost: true, isVip: false, account: 'me', token: 't', profile: { nick: 'Sofia', userLevel: 3, isNewUser: false } },
  user: { isHost: false, isVip: true, account: 'me', token: 't' },
};

/** The session composed over manual fakes: nothing answers until the test says so. */
function manualSession() {
  const realtime = manualRealtime();
  const warms = { count: 0 };
  const logic = composeSession(
    { ...realtime.ports, refreshImToken: () => realtime.pending.add('refreshImToken', []), warmCall: () => { warms.count += 1; } },
    // A live's code is there at once (the live rooms' own tests load it by hand).
    (use) => (use === 'live' ? Promise.resolve(perUse) : realtime.pending.add(`load.${use}`, [])),
  );
  return { ...realtime, logic, warms };
}

async function replay(input: SessionInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { im, presence, clock, logic, pending, ports, warms } = manualSession();
  const signalling = ports.signalling as FakeSignallingPort;
  const liveApi = ports.liveApi as FakeLiveApi;
  const liveMedia = ports.liveMedia as FakeLiveMedia;
  const chatroom = ports.chatroom as FakeChatroomPort;
  const talkLoad = () => pending.latest('load.talk');
  const actor = createActor(logic, { input, clock, inspect });
  const out: AnyEventObject[] = [];
  actor.on('*', (e) => out.push(e));
  actor.start();
  await flush();

  for (const { event, state } of steps) {
    const talkLoadsBefore = pending.count('load.talk');
    const callLoadsBefore = pending.count('load.call');
    const warmsBefore = warms.count;
    // Which live runs ('idle', 'hosting' or 'viewing'; each loads its code first).
    const liveOf = (ref: AnyActorRef | undefined) => {
      const value = ref?.getSnapshot().value as string | Record<string, string> | undefined;
      return typeof value === 'object' ? Object.keys(value)[0] : value;
    };
    const liveBefore = liveOf(actor.getSnapshot().children.live as AnyActorRef | undefined);
    const outBefore = out.length;
    if (event.type === 'xstate.done.actor.presence') presence.pending.latest('send').resolve(undefined);
    else if (event.type === 'xstate.done.actor.loadTalk') talkLoad().resolve(perUse);
    else if (event.type === 'xstate.error.actor.loadTalk') talkLoad().reject((event as AnyEventObject).error);
    else actor.send(event as never);
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    const e = event as AnyEventObject;
    if (event.type === 'im.unreadChanged') expect(out.at(-1)).toEqual({ type: 'session.unread', count: 7 });
    if (event.type === 'banner.navigate') expect(out.at(-1)).toEqual({ type: 'session.navigate', to: e.to });
    if (event.type === 'child.toast') expect(out.at(-1)).toEqual({ type: 'session.toast', text: e.text });
    const { pendingTalk } = snapshot.context;
    // The calls live with the session; it hands them the call intents and does what they ask.
    const calls = snapshot.children.calls as AnyActorRef | undefined;
    if (snapshot.status === 'active') {
      expect(calls?.getSnapshot().status).toBe('active');
      if (event.type === 'call.start' || event.type === 'call.ringing') {
        // A call's code is asked for when it starts or rings; beside it, what the call uses outside the machines starts loading.
        expect(calls!.getSnapshot().value).toBe('loading');
        expect(pending.count('load.call')).toBe(callLoadsBefore + 1);
        expect(warms.count).toBe(warmsBefore + 1);
      }
      if (event.type === 'call.dismiss') expect(calls!.getSnapshot().value).toBe('idle');
    } else if (calls) expect(calls.getSnapshot().status).toBe('stopped');
    // A ring the calls turn down: signalling says busy.
    if (event.type === 'child.busy') expect(signalling.pending.argsOf('send').at(-1)).toEqual(busy);
    if (event.type === 'child.log') expect(out.at(-1)).toEqual({ type: 'session.log', text: e.text });
    if (event.type === 'xstate.error.actor.loadTalk') expect(out.at(-1)).toEqual({ type: 'session.toast', text: TEXT_TALK_NOT_LOADED });
    // A talk's code is asked for each time a talk opens, and the talk waits for it.
    if (event.type === 'talk.open') expect(pending.count('load.talk')).toBe(talkLoadsBefore + 1);
    // The talk screen's chat lives exactly while it is open; its peer's messages go there, not to the banner.
    const talk = snapshot.children.talk as AnyActorRef | undefined;
    if (snapshot.status === 'active') {
      expect(Boolean(talk)).toBe(snapshot.context.talkPeer !== null && pendingTalk === null);
      expect(pendingTalk === null || pendingTalk.peer === snapshot.context.talkPeer).toBe(true);
    }
    else if (talk) expect(talk.getSnapshot().status).toBe('stopped');
    if (event.type === 'im.message' && talk && (e.message as ImMessage).sessionId === snapshot.context.talkPeer) {
      expect((talk.getSnapshot().context.messages as { idServer: string }[]).map((m) => m.idServer))
        .toContain((e.message as ImMessage).idServer);
      expect((snapshot.children.banner as AnyActorRef).getSnapshot().value).toBe('hidden');
    }
    // The conversation list loads on every IM (re)connection and hears every change.
    const conversations = snapshot.children.conversations as AnyActorRef | undefined;
    if (event.type === 'im.connected' && conversations) expect(['loading', 'failed']).toContain(conversations.getSnapshot().value);
    if (event.type === 'im.conversationChanged' && conversations) {
      expect(conversations.getSnapshot().context.pending).toContainEqual(e.conversation);
    }
    if (event.type === 'im.notification' && e.from !== SYSTEM_SENDER_ACCID) expect(out.slice(outBefore)).toEqual([forgedLog]);
    else if (event.type === 'im.notification') {
      const attachType = typeof e.content === 'string' ? (JSON.parse(e.content) as { attachType: number }).attachType : (e.content as { attachType: number }).attachType;
      const expected = { 58: 'session.becameHost', [-4]: 'session.followerAdded' }[attachType];
      // 44 goes to the live rooms (which hand it to a live being hosted); nothing is reported.
      if (attachType === 44) expect(out.slice(outBefore)).toEqual([]);
      // No call runs here: the calls say so.
      else if (attachType === 15) expect(out.slice(outBefore)).toEqual([{ type: 'session.log', text: 'System message for call, which is not running: system.callIncome' }]);
      else expect(out.at(-1)?.type).toBe(expected ?? 'session.log');
    }
    if (event.type === 'child.navigate') expect(out.at(-1)).toEqual({ type: 'session.navigate', to: '/liveEnds' });
    // The live rooms live with the session: a host goes live, anyone watches, one at a time, each with their chat-room entry.
    const live = snapshot.children.live as AnyActorRef | undefined;
    if (snapshot.status === 'active') {
      const liveNow = liveOf(live);
      // Anyone's begin reaches the live's permission check: the server says who may go live.
      if (event.type === 'live.begin') expect(liveNow).toBe(liveBefore === 'idle' ? 'hosting' : liveBefore);
      if (event.type === 'live.watch') expect(liveNow).toBe(liveBefore === 'idle' ? 'viewing' : liveBefore);
      if (liveNow === 'hosting' && liveBefore === 'idle') {
        expect(liveApi.pending.count('checkPermission')).toBe(1);
        expect(live!.getSnapshot().context.entry).toEqual(input.isHost
          ? { account: 'me', token: 't', nick: 'Sofia', ext: { isVip: false, isNewUser: false, userLevel: 3 } }
          : { account: 'me', token: 't', nick: 'me', ext: { isVip: true, isNewUser: false, userLevel: 0 } });
      }
      if (liveNow === 'viewing' && liveBefore === 'idle') expect(liveApi.pending.argsOf('join').at(-1)).toEqual([100001]);
    }
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
  possible: (s, e) => {
    if (e.type === 'xstate.done.actor.presence') return s.matches('leaving');
    // The talk's code arrives only while it is being loaded.
    if (e.type.endsWith('.actor.loadTalk')) return (s.context as { pendingTalk: unknown }).pendingTalk !== null;
    return true;
  },
  // Whether a talk is open matters (its messages and send answers go there).
  serializeContext: (c) => {
    const ctx = c as { talkPeer: string | null; pendingTalk: unknown };
    return [ctx.talkPeer, ctx.pendingTalk !== null];
  },
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

describe('[§2 banner] banner items', () => {
  it('uses the sender nick, or System information for system and recharge notices', () => {
    expect(bannerItemFor(incoming())).toMatchObject({ from: 'yx-peer', nick: 'Peer', preview: 'hello', recharge: false });
    expect(bannerItemFor(incoming({ type: 'custom', attach: { type: 'recharge' } })))
      .toMatchObject({ nick: 'System information', preview: '[recharge successful!]', recharge: true });
    expect(bannerItemFor(incoming({ fromNick: '  ' })).nick).toBe('yx-peer');
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
    const bannerShown = () => (actor.getSnapshot().children.banner as AnyActorRef).getSnapshot().value !== 'hidden';
    return { ...session, actor, out, calls, bannerShown, seenBy: (id: string) => seen.get(id) ?? [] };
  }
  const callIncome = { type: 'im.notification', from: SYSTEM_SENDER_ACCID, content: { attachType: 15, num: 5 } } as const;
  const fromCaller = (idServer: string): ImMessage => incoming({ from: 'yx-caller', sessionId: 'yx-caller', fromNick: 'Caller', idServer });

  it('[§2 in-call chat, §4 System messages] hands a ring, its peer\'s messages, its system messages and what its chat hears to the calls; a second ring is busy', async () => {
    const { actor, out, calls, bannerShown, seenBy, pending, ports } = started(inputs.host!);
    const signalling = ports.signalling as FakeSignallingPort;
    actor.send({ type: 'call.ringing', signal: ring });
    expect(calls().value).toBe('loading');
    // While the call's code loads: its peer's messages are no banners, its system messages have no call to go to.
    actor.send({ type: 'im.message', message: fromCaller('s1') });
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
    actor.send({ type: 'call.ringing', signal: { ...ring, id: 'r2', from: 'yx-other', channelId: 'ch10' } });
    expect(signalling.pending.argsOf('send').at(-1)).toEqual(['yx-other', { action: 3, channelId: 'ch10', payload: { busy: true } }]);
    expect(selectCall(calls())).toBe(call);
    // Connected: the call's chat starts (its code is the talk's) and hears its peer, the IM connection and the send answers.
    selectCalls(actor.getSnapshot())!.send({ type: 'xstate.snapshot.call', snapshot: { status: 'active', matches: (v: unknown) => v === 'connected' } as never });
    pending.latest('load.talk').resolve(perUse);
    await flush();
    const chat = selectCallChat(calls())!;
    expect(chat.getSnapshot().context.peer).toBe('yx-caller');
    actor.send({ type: 'im.message', message: fromCaller('s2') });
    expect(chat.getSnapshot().context.messages.map((m) => m.idServer)).toContain('s2');
    expect(bannerShown()).toBe(false);
    // Someone else's message is a banner still.
    actor.send({ type: 'im.message', message: incoming({ idServer: 's3' }) });
    expect(bannerShown()).toBe(true);
    actor.send({ type: 'im.connected' });
    actor.send({ type: 'talk.sent', idClient: 'c9', message: incoming({ flow: 'out', idServer: 's4' }) });
    actor.send({ type: 'talk.sendFailed', idClient: 'c8', reason: 'refused', text: 'Refused' });
    expect(seenBy('callChat').filter((t) => t.startsWith('talk.'))).toEqual(['talk.incoming', 'talk.connected', 'talk.sent', 'talk.sendFailed']);
  });

  it('[§4 System messages] a call\'s system messages forged by a user never reach it and are logged; the server\'s do', async () => {
    const { actor, out, seenBy, pending } = started(inputs.host!);
    actor.send({ type: 'call.ringing', signal: ring });
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
    const { actor, calls, bannerShown, pending } = started(inputs.host!);
    actor.send({ type: 'call.ringing', signal: ring });
    pending.latest('load.call').resolve(perUse);
    await flush();
    selectCalls(actor.getSnapshot())!.send({ type: 'xstate.snapshot.call', snapshot: { status: 'active', matches: (v: unknown) => v === 'connected' } as never });
    pending.latest('load.talk').resolve(perUse);
    await flush();
    actor.send({ type: 'talk.open', peer: 'yx-caller' });
    pending.latest('load.talk').resolve(perUse);
    await flush();
    const talk = actor.getSnapshot().children.talk as AnyActorRef;
    const chat = selectCallChat(calls())!;
    expect(talk).not.toBe(chat);
    actor.send({ type: 'im.message', message: fromCaller('s5') });
    expect(talk.getSnapshot().context.messages.map((m: ImMessage) => m.idServer)).toContain('s5');
    expect(chat.getSnapshot().context.messages.map((m) => m.idServer)).toContain('s5');
    expect(bannerShown()).toBe(false);
  });

  it('[§4 App call state] a finished call tells the live rooms, leaves its end screen until dismissed, and its system messages are logged again', async () => {
    const { actor, out, calls, seenBy, pending, ports } = started(inputs.user!);
    const signalling = ports.signalling as FakeSignallingPort;
    actor.send({ type: 'call.ringing', signal: ring });
    pending.latest('load.call').resolve(perUse);
    await flush();
    selectCall(calls())!.send({ type: 'call.reject' });
    for (let round = 0; round < 4; round++) {
      await flush();
      for (const c of signalling.pending.open().filter((p) => p.method === 'send')) c.resolve({ ...ring, action: 3, from: 'me' });
      for (const c of pending.open().filter((p) => p.method === 'leave' || p.method === 'endCall')) c.resolve(undefined);
    }
    expect(calls().value).toBe('idle');
    expect(selectCall(calls())).toBeUndefined();
    expect(selectLastCall(calls())).toMatchObject({ peer: { account: 'yx-caller' } });
    expect(seenBy('live')).toContain('call.changed');
    expect(seenBy('live').at(-1)).toBe('call.ended');
    actor.send(callIncome);
    expect(out.at(-1)).toEqual({ type: 'session.log', text: 'System message for call, which is not running: system.callIncome' });
    actor.send({ type: 'call.dismiss' });
    expect(selectLastCall(calls())).toBeNull();
  });

  it('[§5, §8] a call whose code cannot come: a tap asked offline is told so, a ring is turned down as busy', async () => {
    const { actor, out, calls, pending, ports } = started(inputs.user!);
    actor.send({ type: 'call.start', peer: { account: 'yx-host', userId: 100001 }, callType: 0, online: false });
    pending.latest('load.call').reject(new TypeError('Failed to fetch dynamically imported module'));
    await flush();
    expect(out.at(-1)).toEqual({ type: 'session.toast', text: CallText.offline });
    actor.send({ type: 'call.ringing', signal: ring });
    pending.latest('load.call').reject(new TypeError('Failed to fetch dynamically imported module'));
    await flush();
    expect((ports.signalling as FakeSignallingPort).pending.argsOf('send').at(-1)).toEqual(busy);
    expect(calls().value).toBe('idle');
  });
});
