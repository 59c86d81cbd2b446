/** Timings and pure rules of the conversation list (SPEC §9 chat limits), on a simulated clock. */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import { FakeImPort } from '../ports/im.fake';
import type { ImConversation } from '../ports/im.port';
import { flush } from '../testing/paths';
import { composeConversations } from './conversations.actors';
import {
  LOOKUP_DEBOUNCE_MS, MAX_SESSIONS, UPDATE_BATCH_MS, groupsOf, mergeSessions, orderSessions,
} from './conversations.machine';
import type { ChatProfile } from './conversations.machine';

const conv = (id: string, updateTime: number, unread = 0): ImConversation => ({ id, to: id, lastMsg: null, updateTime, unread });

function start(initial: ImConversation[] = [], lookups: string[][] = []) {
  const im = new FakeImPort();
  im.conversations = async () => initial;
  const clock = new SimulatedClock();
  const actor = createActor(composeConversations({
    im,
    lookupProfiles: async (accounts) => {
      lookups.push([...accounts]);
      return Object.fromEntries(accounts.map((a): [string, ChatProfile] => [a, { nickname: a.toUpperCase(), icon: '', onlineStatus: 1 }]));
    },
    loadPins: () => [],
    savePins: () => {},
  }), { input: { account: 'me', isVip: true }, clock });
  actor.start();
  actor.send({ type: 'conversations.reload' });
  return { actor, clock, lookups };
}

describe('[§9] conversation updates are batched every 2 s', () => {
  it('applies the updates of a batch together, 2 s after the first, however many follow', async () => {
    const { actor, clock } = start();
    await flush();
    actor.send({ type: 'conversations.changed', conversation: conv('a', 1) });
    clock.increment(1500);
    actor.send({ type: 'conversations.changed', conversation: conv('b', 2) });
    clock.increment(499);
    expect(Object.keys(actor.getSnapshot().context.sessions)).toEqual([]);
    clock.increment(1);
    expect(Object.keys(actor.getSnapshot().context.sessions).sort()).toEqual(['a', 'b']);
    // The next update starts a new batch.
    actor.send({ type: 'conversations.changed', conversation: conv('c', 3) });
    clock.increment(UPDATE_BATCH_MS - 1);
    expect(actor.getSnapshot().context.sessions.c).toBeUndefined();
    clock.increment(1);
    expect(actor.getSnapshot().context.sessions.c).toBeDefined();
  });
});

describe('[§9] online-status lookups are debounced 1 s and go in groups of 100', () => {
  it('looks up 1 s after the last change, each account once, in groups of 100', async () => {
    // 250 sessions come in; the list keeps 200 (SPEC §9), looked up as 2 groups of 100.
    const initial = Array.from({ length: 250 }, (_, i) => conv(`u${i}`, i)).reverse(); // newest first, as the IM gives them
    const { actor, clock, lookups } = start(initial);
    await flush();
    clock.increment(LOOKUP_DEBOUNCE_MS - 1);
    await flush();
    expect(lookups).toEqual([]);
    clock.increment(1);
    await flush();
    expect(lookups.map((g) => g.length)).toEqual([100, 100]);
    expect(new Set(lookups.flat()).size).toBe(200);
    expect(actor.getSnapshot().context.profiles.u249?.nickname).toBe('U249');
  });

  it('moves the lookup on while changes keep coming', async () => {
    const { actor, clock, lookups } = start([conv('a', 1), conv('b', 2)]);
    await flush();
    clock.increment(LOOKUP_DEBOUNCE_MS);
    await flush();
    expect(lookups).toEqual([['a', 'b']]);
    for (let i = 0; i < 3; i++) {
      actor.send({ type: 'conversations.viewed' });
      clock.increment(LOOKUP_DEBOUNCE_MS - 100);
      await flush();
    }
    expect(lookups).toHaveLength(1);
    clock.increment(100);
    await flush();
    expect(lookups).toEqual([['a', 'b'], ['a', 'b']]);
  });
});

describe('session list rules', () => {
  it('keeps the newer of two versions of a session', () => {
    const merged = mergeSessions({ a: conv('a', 5, 3) }, [conv('a', 4, 9), conv('b', 1)], []);
    expect(merged.a).toEqual(conv('a', 5, 3));
    expect(Object.keys(merged).sort()).toEqual(['a', 'b']);
  });

  it('holds at most 200 sessions, dropping the oldest but never a pinned one', () => {
    const many = Array.from({ length: 250 }, (_, i) => conv(`s${i}`, i + 10));
    const merged = mergeSessions({}, [...many, conv('old', 0)], ['old']);
    expect(Object.keys(merged)).toHaveLength(MAX_SESSIONS);
    expect(merged.old).toBeDefined();
    expect(merged.s0).toBeUndefined();
    expect(merged.s249).toBeDefined();
  });

  it('puts pinned sessions first, the latest pin on top, then the newest', () => {
    const sessions = { a: conv('a', 1), b: conv('b', 3), c: conv('c', 2), d: conv('d', 4) };
    expect(orderSessions(sessions, ['a', 'c']).map((s) => s.id)).toEqual(['c', 'a', 'd', 'b']);
  });

  it('splits lookups into groups of 100', () => {
    expect(groupsOf(Array.from({ length: 201 }, (_, i) => i)).map((g) => g.length)).toEqual([100, 100, 1]);
    expect(groupsOf([])).toEqual([]);
  });
});
