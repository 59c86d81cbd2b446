/**
 * Scenarios of the talks (SPEC §2 /talk) where the talk's code could not be fetched: the
 * screen says so, Retry asks again, and each return of the IM connection asks again once.
 */
import { describe, expect, it } from 'vitest';
import { createActor, emit, setup } from 'xstate';
import { flush } from '../testing/paths';
import { manualRealtime } from '../testing/realtime';
import * as perUse from '../session/per-use.actors';
import { perUseLoaders } from '../session/session.actors';
import { composeTalks } from './talks.actors';
import { openChatPeers } from '../shared/chat-peers';
import { selectTalkNotLoaded } from './talks.selectors';

const offline = () => new TypeError('Failed to fetch dynamically imported module');

function started() {
  const { ports, pending } = manualRealtime();
  const loaders = perUseLoaders({ ...ports, tokens: { ...ports.tokens, refreshIm: () => pending.add('refreshImToken', []) } }, (use) => pending.add(`load.${use}`, []));
  const imConnection = setup({ types: { events: {} as { type: 'im.connected' }, emitted: {} as { type: 'im.connected' } } }).createMachine({
    on: { 'im.connected': { actions: emit({ type: 'im.connected' }) } },
  });
  const session = setup({
    types: { children: {} as { talks: 'talks'; imConnection: 'imConnection' } },
    actors: { talks: composeTalks(loaders), imConnection },
  }).createMachine({
    invoke: [
      { id: 'imConnection', systemId: 'imConnection', src: 'imConnection' },
      { id: 'talks', systemId: 'talks', src: 'talks', input: { account: 'me' } },
    ],
  });
  const actor = createActor(session).start();
  const talks = actor.getSnapshot().children.talks!;
  const im = actor.getSnapshot().children.imConnection!;
  const loads = () => pending.count('load.talk');
  return { actor, talks, im, pending, loads };
}

describe('[§2 /talk] a chat whose code could not be fetched', () => {
  it('Scenario: the screen is told, for its peer only, and the banner does not count the chat as open', async () => {
    const { actor, talks, pending } = started();
    talks.send({ type: 'talk.open', peer: 'yx-peer' });
    pending.latest('load.talk').reject(offline());
    await flush();
    expect(talks.getSnapshot().value).toBe('notLoaded');
    expect(selectTalkNotLoaded(talks.getSnapshot(), 'yx-peer')).toBe(true);
    expect(selectTalkNotLoaded(talks.getSnapshot(), 'yx-other')).toBe(false);
    expect(openChatPeers(actor.system)).toEqual([]);
    actor.stop();
  });

  it('Scenario: Retry asks for the code again and opens the talk', async () => {
    const { actor, talks, pending, loads } = started();
    talks.send({ type: 'talk.open', peer: 'yx-peer' });
    pending.latest('load.talk').reject(offline());
    await flush();
    talks.send({ type: 'talk.retry' });
    expect(loads()).toBe(2);
    pending.latest('load.talk').resolve(perUse);
    await flush();
    expect(talks.getSnapshot().value).toBe('open');
    expect(talks.getSnapshot().children.talk).toBeDefined();
    expect(openChatPeers(actor.system)).toEqual(['yx-peer']);
    actor.stop();
  });

  it('Scenario: each return of the connection asks once; a try that fails again waits for the next return', async () => {
    const { actor, talks, im, pending, loads } = started();
    talks.send({ type: 'talk.open', peer: 'yx-peer' });
    pending.latest('load.talk').reject(offline());
    await flush();
    expect(loads()).toBe(1);
    im.send({ type: 'im.connected' });
    expect(loads()).toBe(2);
    pending.latest('load.talk').reject(offline());
    await flush();
    expect(talks.getSnapshot().value).toBe('notLoaded');
    // Nothing more until the connection comes back again: no loop while the network is away.
    await flush();
    expect(loads()).toBe(2);
    im.send({ type: 'im.connected' });
    expect(loads()).toBe(3);
    pending.latest('load.talk').resolve(perUse);
    await flush();
    expect(talks.getSnapshot().value).toBe('open');
    actor.stop();
  });

  it('Scenario: a closed screen is not reopened by a return of the connection', async () => {
    const { actor, talks, im, pending, loads } = started();
    talks.send({ type: 'talk.open', peer: 'yx-peer' });
    pending.latest('load.talk').reject(offline());
    await flush();
    talks.send({ type: 'talk.close' });
    im.send({ type: 'im.connected' });
    await flush();
    expect(loads()).toBe(1);
    expect(talks.getSnapshot().value).toBe('closed');
    expect(talks.getSnapshot().context.peer).toBeNull();
    actor.stop();
  });
});
