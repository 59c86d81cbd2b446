/**
 * Generated-path tests of the talk screen's chats (SPEC §2 /talk): the talks composed as the
 * session composes them, under a stand-in session that hears what they ask for. The talk runs
 * for real over manual fakes; the loads of its code are settled by hand, and a stand-in IM
 * connection emits its logins (`im.connected`). Checked at each step: one talk at a time, for
 * the peer last opened, living exactly while `open`; a code that could not be loaded is tried
 * again once per Retry or login, and the logins are listened to only while it waits.
 */
import { expect } from 'vitest';
import { createActor, emit, setup } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { manualRealtime } from '../testing/realtime';
import { talkMachine } from '../talk/talk.machine';
import * as perUse from '../session/per-use.actors';
import { perUseLoaders } from '../session/session.actors';
import { composeTalks } from './talks.actors';
import { TEXT_TALK_NOT_LOADED, talksMachine } from './talks.machine';
import type { TalksContext, TalksInput } from './talks.machine';

const samples: AnyEventObject[] = [
  { type: 'talk.open', peer: 'yx-peer' },
  // The talk screen opens its chat with the day's limit of the app settings (SPEC §4 non-paid user quota).
  { type: 'talk.open', peer: 'yx-other', chatLimit: 3 },
  { type: 'talk.close' },
  { type: 'xstate.done.actor.loadTalk', output: talkMachine },
  { type: 'xstate.error.actor.loadTalk', error: new TypeError('Failed to fetch dynamically imported module') },
  { type: 'child.toast', text: 'The translation failed.' },
  { type: 'talk.retry' },
  { type: 'im.connected' },
];

/** The IM connection's place: it emits a login when told to. */
const imConnectionStandIn = setup({ types: { events: {} as { type: 'im.connected' }, emitted: {} as { type: 'im.connected' } } }).createMachine({
  on: { 'im.connected': { actions: emit({ type: 'im.connected' }) } },
});

async function replay(input: TalksInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { ports, pending } = manualRealtime();
  const loaders = perUseLoaders({ ...ports, tokens: { ...ports.tokens, refreshIm: () => pending.add('refreshImToken', []) } }, (use) => pending.add(`load.${use}`, []));
  const asked: AnyEventObject[] = [];
  // The session's place: it invokes the talks and hears what they ask for.
  const session = setup({
    types: { children: {} as { talks: 'talks'; imConnection: 'imConnection' } },
    actors: { talks: composeTalks(loaders), imConnection: imConnectionStandIn },
  }).createMachine({
    invoke: [
      { id: 'imConnection', systemId: 'imConnection', src: 'imConnection' },
      { id: 'talks', systemId: 'talks', src: 'talks', input },
    ],
    on: { '*': { actions: ({ event }) => { if (event.type.startsWith('child.')) asked.push(event); } } },
  });
  const actor = createActor(session, { inspect }).start();
  // Any of the sampled events goes to the talks as it is.
  const talks: AnyActorRef = actor.getSnapshot().children.talks!;
  const imConnection = actor.getSnapshot().children.imConnection!;
  let lastTalk: AnyActorRef | undefined;

  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before = talks.getSnapshot();
    const loadsBefore = pending.count('load.talk');
    const askedBefore = asked.length;
    if (e.type === 'xstate.done.actor.loadTalk') pending.latest('load.talk').resolve(perUse);
    else if (e.type === 'xstate.error.actor.loadTalk') pending.latest('load.talk').reject(e.error);
    else if (e.type === 'im.connected') imConnection.send({ type: 'im.connected' });
    else talks.send(e);
    await flush();
    const snapshot = talks.getSnapshot();
    const context = snapshot.context as TalksContext;
    expect(snapshot.value).toEqual(state.value);
    expect(context.peer).toBe((state.context as TalksContext).peer);
    // One talk at a time, for the peer last opened, exactly while open; the one before is stopped.
    const talk = snapshot.children.talk;
    expect(Boolean(talk)).toBe(snapshot.matches('open'));
    if (talk) expect(talk.getSnapshot().context.peer).toBe(context.peer);
    // The talk has the quota the screen opened it with, and the session's word on hosts.
    if (talk) expect(talk.getSnapshot().context.quota).toMatchObject({ limit: context.chatLimit, isHost: input.isHost ?? false });
    if (lastTalk && lastTalk !== talk) expect(lastTalk.getSnapshot().status).toBe('stopped');
    lastTalk = talk;
    // Each opening asks for the talk's code; a closed talk has no peer.
    if (e.type === 'talk.open') expect(pending.count('load.talk')).toBe(loadsBefore + 1);
    if (snapshot.matches('closed')) expect(context.peer).toBeNull();
    // A code that could not be loaded keeps its peer (the screen says so) and is asked for once more on Retry or on a login.
    if (snapshot.matches('notLoaded')) expect(context.peer).not.toBeNull();
    if (e.type === 'talk.retry' || e.type === 'im.connected') {
      expect(before.matches('notLoaded')).toBe(true);
      expect(pending.count('load.talk')).toBe(loadsBefore + 1);
    }
    // The talks hear the logins only while notLoaded: elsewhere a login asks for nothing (an open talk hears them itself).
    if (!snapshot.matches('notLoaded') && !snapshot.matches('open')) {
      const loadsNow = pending.count('load.talk');
      imConnection.send({ type: 'im.connected' });
      await flush();
      expect(pending.count('load.talk')).toBe(loadsNow);
      expect(talks.getSnapshot().value).toEqual(snapshot.value);
    }
    if (e.type === 'xstate.error.actor.loadTalk') expect(asked.slice(askedBefore)).toEqual([{ type: 'child.toast', text: TEXT_TALK_NOT_LOADED }]);
    if (e.type === 'child.toast') expect(asked.slice(askedBefore)).toEqual([e]);
    if (before.matches('open') && e.type === 'talk.close') expect(snapshot.matches('closed')).toBe(true);
  }
  actor.stop();
}

describeGeneratedPaths('talks', talksMachine, {
  events: samples,
  inputs: { signedIn: { account: 'me' }, 'a host': { account: 'me', isHost: true } },
  // The code arrives only while it is being loaded.
  possible: (s, e) => !e.type.endsWith('.actor.loadTalk') || s.matches('loading'),
  serializeContext: (c) => [(c as TalksContext).peer, (c as TalksContext).chatLimit],
  minPaths: 4,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});
