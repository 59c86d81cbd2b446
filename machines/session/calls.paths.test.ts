/**
 * Generated-path tests of the session's calls (SPEC §2 the call screens and the in-call chat,
 * §4 App call state): the calls composed as the session composes them, under a stand-in session
 * that hears what they ask for, beside stand-ins for the live rooms and the IM children the
 * call's chat talks to. The call and its chat run for real over manual fakes; the loads of their
 * code are settled by hand. Checked at each step: which children run (one call at a time, its
 * chat only once it was connected), what the call's chat hears, what the live rooms are told
 * and what the session is asked for.
 */
import { expect } from 'vitest';
import { createActor, fromCallback, setup } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject, InspectionEvent } from 'xstate';
import { appCallStateOf } from '../call/app-call-state';
import { CallText } from '../call/call.texts';
import { callMachine } from '../call/call.machine';
import type { ImMessage } from '../ports/im.port';
import type { FakeSignallingPort } from '../ports/signalling.fake';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { manualRealtime } from '../testing/realtime';
import { talkMachine } from '../talk/talk.machine';
import * as perUse from './per-use.actors';
import { composeCalls, perUseLoaders } from './session.actors';
import { TEXT_CALL_CHAT_NOT_LOADED, TEXT_CALL_NOT_LOADED, callPeerOf, callsMachine } from './calls.machine';
import type { CallsContext, CallsInput } from './calls.machine';

const ring = { id: 'r1', action: 0, channelId: 'ch9', from: 'yx-caller', to: 'me', time: 1 };
const fromCaller = (over: Partial<ImMessage> = {}): ImMessage => ({
  idClient: 'c1', idServer: 's1', from: 'yx-caller', to: 'me', fromNick: 'Caller', sessionId: 'yx-caller', scene: 'p2p',
  flow: 'in', type: 'text', text: 'hello', time: 1, status: 'sent', ...over,
});
/** A call snapshot as syncSnapshot sends it, in the given state of the call. */
const callIn = (value: string) => ({ status: 'active', matches: (v: unknown) => v === value });
const fetchFailed = () => new TypeError('Failed to fetch dynamically imported module');
const summary = { status: 2, reason: null, text: null, channelId: 'ch9', callType: 0, direction: 'in', peer: { account: 'yx-caller' }, answerTime: 0 };

const samples: AnyEventObject[] = [
  // Taps: one asked offline (the call ends by itself), one online; a ring.
  { type: 'call.start', peer: { account: 'yx-host', userId: 100001 }, callType: 0, online: false },
  { type: 'call.start', peer: { account: 'yx-host', userId: 100001 }, callType: 0, online: true },
  { type: 'call.ringing', signal: ring },
  { type: 'call.dismiss' },
  // The call's code loads when it starts or rings (or cannot be fetched).
  { type: 'xstate.done.actor.loadCall', output: { call: callMachine, chat: talkMachine } },
  { type: 'xstate.error.actor.loadCall', error: fetchFailed() },
  // How the call goes (its snapshots come with syncSnapshot); once connected, its chat's code is asked for, and comes (or not).
  { type: 'xstate.snapshot.call', snapshot: callIn('connecting') },
  { type: 'xstate.snapshot.call', snapshot: callIn('connected') },
  { type: 'xstate.done.actor.loadCallChat', output: talkMachine },
  { type: 'xstate.error.actor.loadCallChat', error: fetchFailed() },
  { type: 'xstate.done.actor.call', output: summary },
  // A system message the session's table gives the call (SPEC §4: 15, call income).
  { type: 'call.systemMessage', event: { type: 'system.callIncome', amount: 5 } },
  // SPEC §4 -3 type 0: the server names the channel of a call ringing for this person; -3 type 3 of it (the server ended it).
  { type: 'call.systemMessage', event: { type: 'system.callTargetChannel', channelId: 'ch9' } },
  { type: 'call.systemMessage', event: { type: 'system.callWarning', channelId: 'ch9', text: 'You missed a call from Alex.' } },
  // What the session passes on for the call's chat (a message of the call's peer: the replay sends it from the peer of the call under way).
  { type: 'talk.incoming', message: fromCaller() },
  { type: 'talk.connected' },
  { type: 'talk.sent', idClient: 'c2', message: fromCaller({ flow: 'out', from: 'me', idClient: 'c2', idServer: 's2' }) },
  { type: 'talk.sendFailed', idClient: 'c3', reason: 'notConnected', text: 'Connection not established. Please kill the app and try again.' },
];

const inputs: Record<string, CallsInput> = {
  host: { isHost: true, account: 'me' },
  user: { isHost: false, account: 'me' },
};

/** Records what reaches it (the live rooms, the IM connection, the conversations). */
const recorder = fromCallback<AnyEventObject, { seen: AnyEventObject[] }>(({ input, receive }) => {
  receive((event) => input.seen.push(event));
});

async function replay(input: CallsInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], coverage: InspectFn) {
  const { ports, pending } = manualRealtime();
  const signalling = ports.signalling as FakeSignallingPort;
  const warms = { count: 0 };
  const loaders = perUseLoaders(
    { ...ports, refreshImToken: () => pending.add('refreshImToken', []), warmCall: () => { warms.count += 1; } },
    (use) => pending.add(`load.${use}`, []),
  );
  const atLive: AnyEventObject[] = [];
  const asked: AnyEventObject[] = [];
  /** The events from outside that reached the call's chat and the call. */
  const atChat: string[] = [];
  const atCall: string[] = [];
  const inspect = (e: InspectionEvent) => {
    coverage(e);
    if (e.type !== '@xstate.event') return;
    const id = (e.actorRef as AnyActorRef).id;
    if (id === 'callChat' && e.event.type.startsWith('talk.')) atChat.push(e.event.type);
    if (id === 'call' && e.event.type.startsWith('system.')) atCall.push(e.event.type);
  };
  // The session's place: it invokes the calls beside the children they reach through the system.
  const session = setup({ actors: { calls: composeCalls(loaders), recorder } }).createMachine({
    invoke: [
      { id: 'live', systemId: 'live', src: 'recorder', input: { seen: atLive } },
      { id: 'imConnection', systemId: 'imConnection', src: 'recorder', input: { seen: [] } },
      { id: 'conversations', systemId: 'conversations', src: 'recorder', input: { seen: [] } },
      { id: 'calls', systemId: 'calls', src: 'calls', input },
    ],
    on: { '*': { actions: ({ event }) => { if (event.type.startsWith('child.')) asked.push(event); } } },
  });
  const actor = createActor(session, { inspect }).start();
  const calls = actor.getSnapshot().children.calls as AnyActorRef;

  /** Ends the running call: turns a ring down, fails a call's creation, and answers what it waits for (signal, media, server). */
  async function finishCall() {
    const call = calls.getSnapshot().children.call as AnyActorRef;
    if (call.getSnapshot().matches({ incoming: 'ringing' })) call.send({ type: 'call.reject' });
    for (let round = 0; round < 4; round++) {
      await flush();
      for (const c of pending.open().filter((p) => p.method === 'createCall')) c.reject(new Error('The server is away'));
      for (const c of signalling.pending.open().filter((p) => p.method === 'send')) c.resolve({ ...ring, action: 3, from: 'me', to: 'yx-caller' });
      for (const c of pending.open().filter((p) => p.method === 'leave' || p.method === 'endCall')) c.resolve(undefined);
    }
  }
  /** The load of the call's chat's code (the talk's code). */
  const chatLoad = () => pending.latest('load.talk');

  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = calls.getSnapshot();
    const callLoadsBefore = pending.count('load.call');
    const chatLoadsBefore = pending.count('load.talk');
    const warmsBefore = warms.count;
    const askedBefore = asked.length;
    const liveBefore = atLive.length;
    const chatBefore = atChat.length;
    const callBefore = atCall.length;
    if (e.type === 'xstate.done.actor.call') await finishCall();
    else if (e.type === 'xstate.done.actor.loadCall') pending.latest('load.call').resolve(perUse);
    else if (e.type === 'xstate.error.actor.loadCall') pending.latest('load.call').reject(e.error);
    else if (e.type === 'xstate.done.actor.loadCallChat') chatLoad().resolve(perUse);
    else if (e.type === 'xstate.error.actor.loadCallChat') chatLoad().reject(e.error);
    else if (e.type === 'talk.incoming') {
      const peer = callPeerOf(before.context as CallsContext) ?? 'yx-caller';
      calls.send({ ...e, message: fromCaller({ from: peer, sessionId: peer }) });
    } else calls.send(e);
    await flush();

    const snapshot = calls.getSnapshot();
    const context = snapshot.context as CallsContext;
    expect(snapshot.value).toEqual(state.value);
    // One call at a time: the call runs exactly while `running`, and the call's peer is known from its loading on.
    const call = snapshot.children.call as AnyActorRef | undefined;
    expect(Boolean(call)).toBe(snapshot.matches('running'));
    expect(callPeerOf(context) !== null).toBe(!snapshot.matches('idle'));
    // A call listens to signalling while it runs, and no longer.
    if (snapshot.matches('idle')) expect(signalling.listenerCount).toBe(0);
    if (call) {
      const started = call.getSnapshot().context as { peer: { account: string }; direction: string };
      expect(started.peer.account).toBe(callPeerOf(context));
      expect(started.direction).toBe(context.callInput?.direction);
    }
    // The call's chat runs once the call was connected and its code came, with the call's peer.
    const chat = snapshot.children.callChat as AnyActorRef | undefined;
    expect(Boolean(chat)).toBe(snapshot.matches({ running: 'chatRunning' }));
    if (chat) expect((chat.getSnapshot().context as { peer: string; account: string })).toMatchObject({ peer: callPeerOf(context), account: 'me' });

    if ((e.type === 'call.start' || e.type === 'call.ringing') && before.matches('idle')) {
      // A call's code is asked for when it starts or rings; beside it, what the call uses outside the machines starts loading.
      expect(pending.count('load.call')).toBe(callLoadsBefore + 1);
      expect(warms.count).toBe(warmsBefore + 1);
      expect(context.lastCall).toBeNull();
      expect(callPeerOf(context)).toBe(e.type === 'call.start' ? 'yx-host' : 'yx-caller');
    }
    if (e.type === 'call.ringing' && !before.matches('idle')) {
      // A ring during a call is turned down as busy; the call under way goes on.
      expect(asked.slice(askedBefore)).toEqual([{ type: 'child.busy', signal: ring }]);
      expect(snapshot.value).toEqual(before.value);
      expect(pending.count('load.call')).toBe(callLoadsBefore);
    }
    if (e.type === 'call.start' && !before.matches('idle')) expect(pending.count('load.call')).toBe(callLoadsBefore);
    if (e.type === 'xstate.error.actor.loadCall') {
      // A ring whose call cannot be loaded is turned down as busy; a tap is told why.
      const dropped = before.context.callInput as CallsContext['callInput'];
      if (dropped?.direction === 'in') expect(asked.slice(askedBefore)).toEqual([{ type: 'child.busy', signal: ring }]);
      // Asked for offline: the §8 text of a call started offline; otherwise why it could not start.
      else expect(asked.slice(askedBefore)).toEqual([{ type: 'child.toast', text: dropped?.online === false ? CallText.offline : TEXT_CALL_NOT_LOADED }]);
    }
    if (e.type === 'xstate.snapshot.call') {
      // [§4 App call state] The live rooms hear how the call goes on every snapshot.
      const expected = appCallStateOf(e.snapshot as Parameters<typeof appCallStateOf>[0]);
      expect(atLive.slice(liveBefore)).toEqual([{ type: 'call.changed', state: expected }]);
      // Connected, the call's chat's code is asked for, once.
      const asks = expected === 'connected' && before.matches({ running: 'chatWaiting' }) ? 1 : 0;
      expect(pending.count('load.talk')).toBe(chatLoadsBefore + asks);
    }
    if (e.type === 'xstate.error.actor.loadCallChat') {
      // The call goes on without its chat.
      expect(asked.slice(askedBefore)).toEqual([{ type: 'child.log', text: TEXT_CALL_CHAT_NOT_LOADED }]);
      expect(snapshot.matches({ running: 'chatFailed' })).toBe(true);
    }
    if (e.type === 'xstate.done.actor.call') {
      // The end screen shows how it went; the live rooms heard how it went (its snapshots are synced), then that it is over.
      expect(context.lastCall?.peer.account).toBe(callPeerOf(before.context as CallsContext));
      expect(atLive.at(-1)).toEqual({ type: 'call.ended' });
      expect(atLive.slice(liveBefore, -1).every((l) => l.type === 'call.changed')).toBe(true);
      // (A ring turned down goes through `ending` on its way out, a snapshot the live rooms hear.)
      if ((before.context as CallsContext).callInput?.direction === 'in') expect(atLive.slice(liveBefore, -1)).toContainEqual({ type: 'call.changed', state: 'empty' });
    }
    if (e.type === 'call.dismiss') expect(context.lastCall).toBeNull();
    const targetBefore = (before.context as CallsContext).targetChannel;
    if (e.type === 'call.systemMessage' && e.event.type === 'system.callTargetChannel') {
      // [§4 -3 type 0] The target channel is kept, whatever runs; the call is not bothered with it.
      expect(context.targetChannel).toBe('ch9');
      expect(atCall.slice(callBefore)).toEqual([]);
      expect(asked.slice(askedBefore)).toEqual([]);
    } else if (e.type === 'call.systemMessage' && e.event.type === 'system.callWarning' && !call) {
      // [§4 -3 type 3] A warning of the target channel while no call runs: that call never rang here, and the person is told.
      expect(asked.slice(askedBefore)).toEqual(targetBefore === 'ch9'
        ? [{ type: 'child.toast', text: 'You missed a call from Alex.' }]
        : [{ type: 'child.log', text: 'System message for call, which is not running: system.callWarning' }]);
      expect(context.targetChannel).toBeNull();
    } else if (e.type === 'call.systemMessage') {
      // [§4 System messages] The running call takes the call's; with none running, they are logged.
      const type = (e.event as { type: string }).type;
      expect(atCall.slice(callBefore)).toEqual(call ? [type] : []);
      expect(asked.slice(askedBefore)).toEqual(call ? [] : [{ type: 'child.log', text: `System message for call, which is not running: ${type}` }]);
    }
    // The target channel is forgotten once its ring came, or its call ended here.
    if ((e.type === 'call.ringing' && before.matches('idle')) || (e.type === 'xstate.done.actor.call' && context.lastCall?.channelId === targetBefore)) {
      expect(context.targetChannel).toBeNull();
    }
    if (e.type.startsWith('talk.')) {
      // The call's chat hears the session's talk.* events only while it runs.
      expect(atChat.slice(chatBefore)).toEqual(chat ? [e.type] : []);
      if (chat && e.type === 'talk.incoming') {
        expect((chat.getSnapshot().context.messages as { idServer: string }[]).map((m) => m.idServer)).toContain('s1');
      }
    }
    // The live rooms hear nothing but how the call goes.
    expect(atLive.every((l) => l.type === 'call.changed' || l.type === 'call.ended')).toBe(true);
  }
  actor.stop();
  expect(signalling.listenerCount).toBe(0);
}

describeGeneratedPaths('calls', callsMachine, {
  events: samples,
  inputs,
  // What the call started with matters: a ring turned down is answered busy, a tap told why.
  serializeContext: (c) => {
    const ctx = c as CallsContext;
    return [ctx.callInput?.direction ?? null, ctx.callInput?.online ?? null, ctx.lastCall !== null, ctx.targetChannel !== null];
  },
  minPaths: 20,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});
