/**
 * Generated-path tests of the signed-in session: its children run for real over fake
 * ports; what they would report is fed to the session directly, and its outputs checked.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import type { ImMessage } from '../ports/im.port';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import type { FakeSignallingPort } from '../ports/signalling.fake';
import type { FakeChatroomPort } from '../ports/chatroom.fake';
import type { FakeLiveApi, FakeLiveMedia } from '../ports/live.fake';
import { manualRealtime } from '../testing/realtime';
import { callMachine } from '../call/call.machine';
import { talkMachine } from '../talk/talk.machine';
import * as perUse from './per-use.actors';
import { composeSession } from './session.actors';
import { CallText } from '../call/call.texts';
import { TEXT_CALL_NOT_LOADED, TEXT_TALK_NOT_LOADED, bannerItemFor, sessionMachine } from './session.machine';
import type { SessionInput } from './session.machine';

const incoming = (over: Partial<ImMessage> = {}): ImMessage => ({
  idClient: 'c1', idServer: 's1', from: 'yx-peer', to: 'me', fromNick: 'Peer', sessionId: 'yx-peer', scene: 'p2p',
  flow: 'in', type: 'text', text: 'hello', time: 1, status: 'sent', ...over,
});

const samples: AnyEventObject[] = [
  { type: 'session.leave' }, { type: 'app.hidden' }, { type: 'app.visible' }, { type: 'user.input' },
  { type: 'im.message', message: incoming() },
  { type: 'im.message', message: incoming({ flow: 'out', idServer: 's2' }) },
  // From the peer of a call: the call's chat shows it.
  { type: 'im.message', message: incoming({ from: 'yx-caller', sessionId: 'yx-caller', idServer: 's4' }) },
  { type: 'im.notification', from: 'sys', content: { attachType: 58 } },
  { type: 'im.notification', from: 'sys', content: { attachType: -4 } },
  { type: 'im.notification', from: 'sys', content: '{"attachType":44}' },
  { type: 'im.notification', from: 'sys', content: { attachType: 777 } },
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
  // Calls: one out (started offline, so it ends by itself), one in; a ring during a call is turned down.
  { type: 'call.start', peer: { account: 'yx-host', userId: 100001 }, callType: 0, online: false },
  { type: 'call.ringing', signal: { id: 'r1', action: 0, channelId: 'ch9', from: 'yx-caller', to: 'me', time: 1 } },
  { type: 'xstate.done.actor.call' },
  { type: 'call.dismiss' },
  // The talk's and the call's code loads on their first use (or cannot be fetched).
  { type: 'xstate.done.actor.loadTalk', output: talkMachine },
  { type: 'xstate.error.actor.loadTalk', error: new TypeError('Failed to fetch dynamically imported module') },
  { type: 'xstate.done.actor.loadCall', output: { call: callMachine, chat: talkMachine } },
  { type: 'xstate.error.actor.loadCall', error: new TypeError('Failed to fetch dynamically imported module') },
  // The call says it is connected (its snapshots come with syncSnapshot): its chat's code is asked for, and comes (or not).
  { type: 'xstate.snapshot.call', snapshot: { status: 'active', matches: (value: unknown) => value === 'connected' } },
  { type: 'xstate.done.actor.loadCallChat', output: talkMachine },
  { type: 'xstate.error.actor.loadCallChat', error: new TypeError('Failed to fetch dynamically imported module') },
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
  /** Ends the running call: turns a ring down, and answers what it waits for (signal, media, server). */
  async function finishCall() {
    const call = actor.getSnapshot().children.call as AnyActorRef | undefined;
    if (call?.getSnapshot().matches({ incoming: 'ringing' })) call.send({ type: 'call.reject' });
    for (let round = 0; round < 4; round++) {
      await flush();
      for (const c of signalling.pending.open().filter((p) => p.method === 'send')) c.resolve({ id: 'x', action: 3, channelId: 'ch9', from: 'me', to: 'yx-caller', time: 1 });
      for (const c of pending.open().filter((p) => p.method === 'leave' || p.method === 'endCall')) c.resolve(undefined);
    }
  }
  /** The load of the call's chat's code (the talk's code, like the talk screen's), told apart from a talk screen's. */
  let callChatLoad: ReturnType<typeof pending.latest> | null = null;
  const talkLoad = () => pending.open().filter((c) => c.method === 'load.talk' && c !== callChatLoad).at(-1)!;
  const actor = createActor(logic, { input, clock, inspect });
  const out: AnyEventObject[] = [];
  actor.on('*', (e) => out.push(e));
  actor.start();
  await flush();

  for (const { event, state } of steps) {
    const inCallBefore = actor.getSnapshot().context.inCall;
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
    else if (event.type === 'xstate.done.actor.call') await finishCall();
    else if (event.type === 'xstate.done.actor.loadTalk') talkLoad().resolve(perUse);
    else if (event.type === 'xstate.error.actor.loadTalk') talkLoad().reject((event as AnyEventObject).error);
    else if (event.type === 'xstate.done.actor.loadCallChat') callChatLoad!.resolve(perUse);
    else if (event.type === 'xstate.error.actor.loadCallChat') callChatLoad!.reject((event as AnyEventObject).error);
    else if (event.type === 'xstate.done.actor.loadCall') pending.latest('load.call').resolve(perUse);
    else if (event.type === 'xstate.error.actor.loadCall') pending.latest('load.call').reject((event as AnyEventObject).error);
    else actor.send(event as never);
    await flush();
    if (event.type === 'xstate.snapshot.call' && pending.count('load.talk') > talkLoadsBefore) {
      callChatLoad = pending.open().filter((c) => c.method === 'load.talk').at(-1)!;
    }
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    const e = event as AnyEventObject;
    if (event.type === 'im.unreadChanged') expect(out.at(-1)).toEqual({ type: 'session.unread', count: 7 });
    if (event.type === 'banner.navigate') expect(out.at(-1)).toEqual({ type: 'session.navigate', to: e.to });
    if (event.type === 'child.toast') expect(out.at(-1)).toEqual({ type: 'session.toast', text: e.text });
    // One call at a time: the call child runs exactly while the session says so and its code is there.
    const { pendingTalk, pendingCall } = snapshot.context;
    if (snapshot.status === 'active') {
      expect(Boolean(snapshot.children.call)).toBe(snapshot.context.inCall && pendingCall === null);
      expect(pendingCall === null || snapshot.context.inCall).toBe(true);
      // A call's code is asked for when it starts or rings, and the call waits for it.
      if ((event.type === 'call.start' || event.type === 'call.ringing') && !inCallBefore) {
        expect(pending.count('load.call')).toBe(callLoadsBefore + 1);
        // Beside it, what the call uses outside the machines (its ports, its media) starts loading.
        expect(warms.count).toBe(warmsBefore + 1);
      }
    }
    if (event.type === 'xstate.error.actor.loadTalk') expect(out.at(-1)).toEqual({ type: 'session.toast', text: TEXT_TALK_NOT_LOADED });
    if (event.type === 'xstate.error.actor.loadCall') {
      // A ring whose call cannot be loaded is turned down as busy; a tap is told why.
      const dropped = steps[steps.findIndex((s) => s.event === event) - 1]?.state.context.pendingCall as { direction: string; online: boolean } | null;
      if (dropped?.direction === 'in') {
        expect(signalling.pending.argsOf('send').at(-1)).toEqual(['yx-caller', { action: 3, channelId: 'ch9', payload: { busy: true } }]);
      } else {
        // Asked for offline: the §8 text of a call started offline; otherwise why it could not start.
        expect(out.at(-1)).toEqual({ type: 'session.toast', text: dropped?.online === false ? CallText.offline : TEXT_CALL_NOT_LOADED });
      }
    }
    if (event.type === 'call.ringing' && inCallBefore) {
      // A ring during a call is turned down as busy; the running call goes on.
      expect(signalling.pending.argsOf('send').at(-1)).toEqual(['yx-caller', { action: 3, channelId: 'ch9', payload: { busy: true } }]);
    }
    if (event.type === 'xstate.done.actor.call') expect(snapshot.context.lastCall).not.toBeNull();
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
    // The call's chat starts once the call is connected (its code is asked for then) and lives as long as the call;
    // its peer's messages go there, not to the banner.
    const callChat = snapshot.children.callChat as AnyActorRef | undefined;
    const { pendingCallChat, callState } = snapshot.context;
    if (snapshot.status === 'active') {
      expect(Boolean(callChat)).toBe(snapshot.context.inCall && pendingCall === null && pendingCallChat === null);
      expect(snapshot.context.callPeer !== null).toBe(snapshot.context.inCall);
      expect(pendingCallChat === null || snapshot.context.inCall).toBe(true);
      if (event.type === 'xstate.done.actor.loadCall' && snapshot.context.inCall) {
        const started = (snapshot.children.call as AnyActorRef).getSnapshot().context as { peer: { account: string } };
        expect(pendingCallChat).toEqual({ peer: started.peer.account, account: 'me' });
        expect(['yx-host', 'yx-caller']).toContain(started.peer.account);
      }
      if (event.type === 'xstate.snapshot.call') {
        expect(callState).toBe('connected');
        expect(pending.count('load.talk')).toBe(talkLoadsBefore + (pendingCallChat !== null ? 1 : 0));
      }
    }
    if (callChat && snapshot.status === 'active') {
      const peer = (callChat.getSnapshot().context as { peer: string }).peer;
      expect(peer).toBe(snapshot.context.callPeer);
      if (event.type === 'im.message' && (e.message as ImMessage).sessionId === peer) {
        expect((callChat.getSnapshot().context.messages as { idServer: string }[]).map((m) => m.idServer))
          .toContain((e.message as ImMessage).idServer);
        expect((snapshot.children.banner as AnyActorRef).getSnapshot().value).toBe('hidden');
      }
    }
    // The conversation list loads on every IM (re)connection and hears every change.
    const conversations = snapshot.children.conversations as AnyActorRef | undefined;
    if (event.type === 'im.connected' && conversations) expect(['loading', 'failed']).toContain(conversations.getSnapshot().value);
    if (event.type === 'im.conversationChanged' && conversations) {
      expect(conversations.getSnapshot().context.pending).toContainEqual(e.conversation);
    }
    if (event.type === 'im.notification') {
      const attachType = typeof e.content === 'string' ? (JSON.parse(e.content) as { attachType: number }).attachType : (e.content as { attachType: number }).attachType;
      const expected = { 58: 'session.becameHost', [-4]: 'session.followerAdded' }[attachType];
      // 44 goes to the live rooms (which hand it to a live being hosted); nothing is reported.
      if (attachType === 44) expect(out.slice(outBefore)).toEqual([]);
      else expect(out.at(-1)?.type).toBe(expected ?? 'session.log');
    }
    if (event.type === 'child.navigate') expect(out.at(-1)).toEqual({ type: 'session.navigate', to: '/liveEnds' });
    // The live rooms live with the session: a host goes live, anyone watches, one at a time, each with their chat-room entry.
    const live = snapshot.children.live as AnyActorRef | undefined;
    if (snapshot.status === 'active') {
      const liveNow = liveOf(live);
      if (event.type === 'live.begin') expect(liveNow).toBe(liveBefore === 'idle' ? (input.isHost ? 'hosting' : 'idle') : liveBefore);
      if (event.type === 'live.watch') expect(liveNow).toBe(liveBefore === 'idle' ? 'viewing' : liveBefore);
      if (liveNow === 'hosting' && liveBefore === 'idle') {
        expect(liveApi.pending.count('checkPermission')).toBe(1);
        expect(live!.getSnapshot().context.entry).toEqual({
          account: 'me', token: 't', nick: 'Sofia', ext: { isVip: false, isNewUser: false, userLevel: 3 },
        });
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
    const ctx = s.context as { inCall: boolean; pendingTalk: unknown; pendingCall: unknown; pendingCallChat: unknown; callState: string };
    if (e.type === 'xstate.done.actor.presence') return s.matches('leaving');
    // A call ends only when one runs; code arrives only while it is being loaded.
    if (e.type === 'xstate.done.actor.call') return ctx.inCall && ctx.pendingCall === null;
    if (e.type.endsWith('.actor.loadTalk')) return ctx.pendingTalk !== null;
    if (e.type.endsWith('.actor.loadCall')) return ctx.pendingCall !== null;
    // A running call reports how it goes; its chat's code comes once it was asked for (the call connected).
    if (e.type === 'xstate.snapshot.call') return ctx.inCall && ctx.pendingCall === null && ctx.callState !== 'connected';
    if (e.type.endsWith('.actor.loadCallChat')) return ctx.pendingCallChat !== null && ctx.callState === 'connected';
    return true;
  },
  // Whether a talk is open matters (its messages and send answers go there).
  serializeContext: (c) => {
    const ctx = c as {
      talkPeer: string | null; pendingTalk: unknown; inCall: boolean; callPeer: string | null; pendingCall: unknown; lastCall: unknown;
      callState: string; pendingCallChat: unknown;
    };
    return [
      ctx.talkPeer, ctx.pendingTalk !== null, ctx.inCall, ctx.callPeer, ctx.pendingCall !== null, ctx.lastCall !== null, ctx.callState,
      ctx.pendingCallChat !== null,
    ];
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
