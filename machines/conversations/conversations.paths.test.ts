/**
 * Generated-path tests of the conversation list (SPEC §3 Chat session, §5 pinning): every
 * path is replayed on the real actor with manual ports. The batch and lookup timers are
 * stand-ins here (sent as their events); their timings have their own tests in
 * conversations.machine.test.ts.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import type { ImConversation } from '../ports/im.port';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import {
  MAX_PINNED, TEXT_PIN_LIMIT, TEXT_PIN_VIP_ONLY, conversationsMachine, orderSessions,
} from './conversations.machine';
import type { ChatProfile, ConversationsContext, ConversationsInput, LoadedConversations } from './conversations.machine';

const conv = (id: string, updateTime: number, unread = 1): ImConversation => ({
  id, to: id, lastMsg: null, updateTime, unread,
});

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.0.conversations.loading', output: { conversations: [conv('a', 10), conv('b', 20)], pinned: ['p1', 'p2', 'p3'] } },
  { type: 'xstate.error.actor.0.conversations.loading', error: new Error('IM is not logged in') },
  { type: 'conversations.changed', conversation: conv('c', 30) },
  { type: 'conversations.flush' },
  { type: 'conversations.lookup' },
  { type: 'xstate.done.actor.0.conversations.ready.lookingUp', output: { a: { nickname: 'Ann', icon: '/a.svg', onlineStatus: 1 } } },
  { type: 'xstate.error.actor.0.conversations.ready.lookingUp', error: new Error('offline') },
  // Three saved pins come with the load: a and b fill the five, p4 is then a sixth.
  { type: 'conversations.pin', id: 'a' },
  { type: 'conversations.pin', id: 'b' },
  { type: 'conversations.pin', id: 'p4' },
  { type: 'conversations.unpin', id: 'a' },
  { type: 'conversations.read', id: 'a' },
  { type: 'conversations.viewed' },
  { type: 'conversations.retry' },
  { type: 'conversations.reload' },
  // A VIP membership that ran out: pins stay, new pins are refused.
  { type: 'vip.changed', isVip: false },
];

const inputs: Record<string, ConversationsInput> = {
  vip: { account: 'me', isVip: true },
  'not VIP': { account: 'me', isVip: false },
};

/** What tells model states apart: enough for every guard, small enough to keep the tour short. */
const coarse = (ctx: ConversationsContext) => [
  ctx.isVip, ctx.pinned.length, ctx.pinned.includes('a'), ctx.pending.length > 0,
  ctx.wanted.length > 0, Object.keys(ctx.sessions).length > 0,
];

async function replay(input: ConversationsInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const saved: string[][] = [];
  const toasts: string[] = [];
  const actor = createActor(conversationsMachine.provide({
    actors: {
      load: fromPromise(() => pending.add<LoadedConversations>('load', [])),
      lookup: fromPromise(({ input: { accounts } }) => pending.add<Record<string, ChatProfile>>('lookup', [accounts])),
      markRead: fromPromise(({ input: { id } }) => pending.add<void>('markRead', [id])),
    },
    actions: { savePins: ({ context }) => { saved.push([...context.pinned]); } },
  }), { input, inspect, clock: new SimulatedClock() });
  actor.on('toast', (e) => toasts.push(e.text));
  actor.start();

  for (const { event, state } of steps) {
    const before = actor.getSnapshot();
    const toastsBefore = toasts.length;
    const markReadsBefore = pending.count('markRead');
    const payload = event as AnyEventObject;
    if (event.type.startsWith('xstate.done.actor') || event.type.startsWith('xstate.error.actor')) {
      const call = pending.next(event.type.includes('loading') ? 'load' : 'lookup');
      if (event.type.startsWith('xstate.done')) call.resolve(payload.output);
      else call.reject(payload.error);
    } else {
      actor.send(event as never);
    }
    await flush();

    const snapshot = actor.getSnapshot();
    const ctx: ConversationsContext = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    expect(coarse(ctx)).toEqual(coarse(state.context as ConversationsContext));
    // Pinning rules (SPEC §5): VIP only, at most 5, no duplicates.
    expect(ctx.pinned.length).toBeLessThanOrEqual(MAX_PINNED);
    expect(new Set(ctx.pinned).size).toBe(ctx.pinned.length);
    if (event.type === 'conversations.pin') {
      const id = payload.id as string;
      if (before.context.pinned.includes(id)) expect(ctx.pinned).toEqual(before.context.pinned);
      if (!before.context.isVip) expect(ctx.pinned).toEqual(before.context.pinned);
      if (before.context.pinned.includes(id)) expect(toasts).toHaveLength(toastsBefore);
      else if (!before.context.isVip) expect(toasts.at(-1)).toBe(TEXT_PIN_VIP_ONLY);
      else if (before.context.pinned.length >= MAX_PINNED) expect(toasts.at(-1)).toBe(TEXT_PIN_LIMIT);
      else expect(saved.at(-1)).toEqual([...before.context.pinned, id]);
    }
    // Pinned sessions come first.
    const order = orderSessions(ctx.sessions, ctx.pinned).map((c) => c.id);
    const firstUnpinned = order.findIndex((id) => !ctx.pinned.includes(id));
    if (firstUnpinned !== -1) expect(order.slice(firstUnpinned).every((id) => !ctx.pinned.includes(id))).toBe(true);
    // Reading clears the session's unread count and tells the IM, each time.
    if (event.type === 'conversations.read') {
      if (before.context.sessions.a) expect(ctx.sessions.a?.unread).toBe(0);
      expect(pending.argsOf('markRead').at(-1)).toEqual(['a']);
      expect(pending.count('markRead')).toBe(markReadsBefore + 1);
    }
    // A lookup asks for each wanted account once, and for nothing else.
    if (event.type === 'conversations.lookup' && snapshot.matches({ ready: 'lookingUp' })) {
      expect(pending.argsOf('lookup').at(-1)).toEqual([before.context.wanted]);
      expect(ctx.wanted).toEqual([]);
    }
  }
  actor.stop();
}

describeGeneratedPaths('conversations', conversationsMachine, {
  events: samples,
  inputs,
  serializeContext: (c) => coarse(c as ConversationsContext),
  // The root's pin, read and VIP transitions are the same in every state: the tour takes
  // them in `ready`. Updates are also taken while loading (they merge with the load).
  possible: (s, e) =>
    // A VIP whose membership runs out once the pins are full: enough to show that pins stay and new ones are refused.
    (e.type !== 'vip.changed' || (s.context as ConversationsContext).pinned.length === MAX_PINNED)
    && (s.matches('ready') || e.type.startsWith('xstate.') || e.type === 'conversations.retry' || e.type === 'conversations.reload'
    || (s.matches('loading') && (e.type === 'conversations.changed' || e.type === 'conversations.flush'))),
  minPaths: 20,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});
