/**
 * Generated-path tests of a live room's chat (SPEC §3 Live chat record, §4 member enter, the
 * anchor's exit, gag and ungag, gift queue; §6 highlights; §9 history 5, audience 500), for a
 * viewer, a muted viewer and the host: every path is replayed on the chat composed over a
 * manual chat-room fake (nothing answers until the path says so), with invariants at each step.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyActorRef, AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { FakeChatroomError, FakeChatroomNetwork, FakeChatroomPort } from '../ports/chatroom.fake';
import type { ChatroomMember, ChatroomMessage } from '../ports/chatroom.port';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeLiveChat } from './live-chat.actors';
import { liveChatMachine } from './live-chat.machine';
import type { LiveChatContext, LiveChatInput } from './live-chat.machine';
import {
  AUDIENCE_LIMIT, HISTORY_LIMIT, TEXT_GAG_FAILED, TEXT_MUTED, TEXT_SEND_FAILED, WHO_BLOCK_AFTER_GAG, WHO_BLOCK_AFTER_UNGAG, WhoBlock, isMuted,
} from './live-chat.types';

const ROOM = 'room-1';
const msg = (over: Partial<ChatroomMessage> & { idServer: string }): ChatroomMessage =>
  ({ roomId: ROOM, from: 'bob', fromNick: 'Bob', time: 10, ...over });
const text = msg({ idServer: 'm1', text: ' hello ', attach: { isVip: true, userLevel: '4' } });
const gift = msg({ idServer: 'g1', time: 11, fromServer: true, attach: { giftId: 7, giftName: 'Rose', giftImg: 'http://cdn.example/rose.png', giftNum: 2, sendId: 1 } });
/** A member's own message dressed as a 99× gift: the service did not post it, so it is no gift (and no line). */
const forgedGift = msg({ idServer: 'f1', time: 13, attach: { giftId: 7, giftName: 'Castle', giftImg: '/gifts/castle.svg', giftNum: 99, sendId: 2 } });
const malformed = { idServer: 'x1', roomId: ROOM, from: 'bob', fromNick: 'Bob', time: 12, text: 42, attach: '{not json' } as unknown as ChatroomMessage;
const own = (from: string) => msg({ idServer: 'own1', from, fromNick: 'Me', text: 'hi', time: 20 });
const bob: ChatroomMember = { account: 'bob', nick: 'Bob', gagged: false, ext: { userLevel: 2 } };
const carl: ChatroomMember = { account: 'carl', nick: 'Carl', gagged: false };

const done = (id: string, output?: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const fail = (id: string, error: unknown): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error });

const samples: AnyEventObject[] = [
  done('enter'), fail('enter', new Error('no such room')),
  done('load', { history: [gift, text], members: [carl] }), fail('load', new Error('gone')),
  done('send', own('me')), fail('send', new FakeChatroomError(13004, 'gagged')), fail('send', new Error('link down')),
  done('setGagged', { account: 'bob', gagged: true }), fail('setGagged', new Error('not allowed')),
  { type: 'chat.send', text: ' hi ' }, { type: 'chat.send', text: '   ' },
  { type: 'chat.gag', account: 'bob', gagged: true }, { type: 'chat.retry' },
  { type: 'room.message', message: text }, { type: 'room.message', message: gift }, { type: 'room.message', message: malformed },
  { type: 'room.message', message: forgedGift },
  { type: 'room.memberEntered', member: bob }, { type: 'room.memberEntered', member: carl },
  { type: 'room.memberEntered', member: { account: 'host', nick: 'Host', gagged: false, ext: { userLevel: 9 } } },
  { type: 'room.memberExited', account: 'carl' }, { type: 'room.memberExited', account: 'host' },
  { type: 'room.gagChanged', account: 'me', gagged: true }, { type: 'room.gagChanged', account: 'me', gagged: false },
  { type: 'room.gagChanged', account: 'bob', gagged: true },
  { type: 'room.closed', reason: 'roomClosed' },
];

const wishlist = [{ giftId: 7, giftNum: 3, compelteGiftNum: 0, ratio: 0, completed: false }];
const entry = (account: string) => ({ account, token: `im-${account}`, nick: account, ext: { isVip: false, isNewUser: true, userLevel: 1 } });
const inputs: Record<string, LiveChatInput> = {
  viewer: { roomId: ROOM, entry: entry('me'), hostAccount: 'host', whoBlock: WhoBlock.none, joinNum: 4, wishlist },
  'viewer muted by the service': { roomId: ROOM, entry: entry('me'), hostAccount: 'host', whoBlock: WhoBlock.service, joinNum: 4, wishlist },
  host: { roomId: ROOM, entry: entry('host'), hostAccount: 'host', whoBlock: WhoBlock.none, joinNum: 0, wishlist },
};

const childContext = (actor: AnyActorRef, id: string) =>
  (actor.getSnapshot().children[id] as AnyActorRef | undefined)?.getSnapshot().context as Record<string, unknown> | undefined;

async function replay(input: LiveChatInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const port = new FakeChatroomPort(new FakeChatroomNetwork(), 'manual');
  const actor = createActor(composeLiveChat(port), { input, clock: new SimulatedClock(), inspect });
  actor.start();
  await flush();
  const me = input.entry.account;
  const isHost = me === input.hostAccount;

  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    const before: LiveChatContext = actor.getSnapshot().context;
    const giftsBefore = (childContext(actor, 'giftQueue')?.received as number | undefined) ?? 0;
    const highlightsBefore = (childContext(actor, 'highlights')?.received as number | undefined) ?? 0;
    const sendsBefore = port.pending.count('send');
    if (e.type.startsWith('xstate.done.actor.') || e.type.startsWith('xstate.error.actor.')) {
      const id = e.type.split('.').slice(3).join('.');
      const ok = e.type.startsWith('xstate.done');
      if (id === 'load') {
        const history = port.pending.next('history');
        expect(history.args).toEqual([ROOM, HISTORY_LIMIT]);
        expect(port.pending.next('members').args).toEqual([ROOM, AUDIENCE_LIMIT]);
        if (ok) {
          history.resolve((e.output as { history: unknown }).history);
          port.pending.next('members').resolve((e.output as { members: unknown }).members);
        } else history.reject(e.error);
      } else {
        const call = port.pending.next(id);
        if (ok) call.resolve(id === 'send' ? own(me) : e.output);
        else call.reject(e.error);
      }
    } else if (e.type.startsWith('room.')) {
      const { type, ...rest } = e;
      const portType = { 'room.message': 'message', 'room.memberEntered': 'memberEnter', 'room.memberExited': 'memberExit', 'room.gagChanged': 'gag', 'room.closed': 'closed' }[type]!;
      port.emit(ROOM, { type: portType, ...rest } as never);
    } else {
      actor.send(e as never);
    }
    await flush();

    const snapshot = actor.getSnapshot();
    const ctx: LiveChatContext = snapshot.context;
    expect(snapshot.value).toEqual(state.value);
    // The room is heard exactly while the chat runs (after it closes, no listener is left).
    expect(port.listenerCount(ROOM)).toBe(snapshot.status === 'active' ? 1 : 0);
    // Every record once, well-formed, oldest first.
    const keys = ctx.records.map((r) => r.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(ctx.records.every((r) => (r.text !== '') !== (r.giftImg !== null || r.giftId !== null))).toBe(true);
    expect(keys).not.toContain('x1');
    // Only the service's posts are gifts: a member's forged gift neither plays, nor counts, nor shows (the else below).
    expect(keys).not.toContain('f1');
    if (e.type === 'room.message' || (e.type === 'xstate.done.actor.load' && before.records.length === 0)) {
      const m = e.type === 'room.message' ? e.message as ChatroomMessage : null;
      if (m?.idServer === 'm1') expect(ctx.records.find((r) => r.key === 'm1')).toMatchObject({ text: 'hello', isVip: true, userLevel: 4 });
    }
    // A new gift line plays once and counts toward the wishlist (history gifts do neither).
    const giftsNow = (childContext(actor, 'giftQueue')?.received as number | undefined) ?? giftsBefore;
    if (e.type === 'room.message' && (e.message as ChatroomMessage).idServer === 'g1' && !before.records.some((r) => r.key === 'g1')) {
      expect(giftsNow).toBe(giftsBefore + 1);
      expect(ctx.records.find((r) => r.key === 'g1')).toMatchObject({ giftImg: 'https://cdn.example/rose.png', giftNum: 2, giftId: 7 });
      expect(ctx.wishlist[0]!.compelteGiftNum).toBe(Math.min(3, before.wishlist[0]!.compelteGiftNum + 2));
    } else if (snapshot.status === 'active') {
      expect(giftsNow).toBe(giftsBefore);
      expect(ctx.wishlist).toEqual(before.wishlist);
    }
    if (e.type === 'room.memberEntered') {
      // The audience is the viewers: the host coming back (a dropped link) counts nothing.
      const viewer = (e.member as ChatroomMember).account !== 'host';
      expect(ctx.joinNum).toBe(before.joinNum + (viewer ? 1 : 0));
      expect(ctx.audience.map((m) => m.account).includes((e.member as ChatroomMember).account)).toBe(viewer);
      // SPEC §6: only a member above level 0 gets a highlight.
      const highlightsNow = (childContext(actor, 'highlights')?.received as number | undefined) ?? 0;
      expect(highlightsNow).toBe(highlightsBefore + ((e.member as ChatroomMember).account === 'bob' ? 1 : 0));
    }
    expect(ctx.audience.map((m) => m.account)).not.toContain('host');
    if (e.type === 'room.memberExited' && snapshot.status === 'active') expect(ctx.audience.map((m) => m.account)).not.toContain(e.account);
    // SPEC §4: the anchor's exit ends a viewer's room.
    if (e.type === 'room.memberExited' && e.account === 'host' && !isHost) expect(snapshot.output).toEqual({ reason: 'hostLeft' });
    if (e.type === 'room.closed') expect(snapshot.output).toEqual({ reason: 'roomClosed' });
    // SPEC §4 whoBlock: a gag of this member moves it by the table; anyone else's leaves it.
    if (e.type === 'room.gagChanged') {
      const expected = e.account === me ? (e.gagged ? WHO_BLOCK_AFTER_GAG : WHO_BLOCK_AFTER_UNGAG)[before.whoBlock] : before.whoBlock;
      expect(ctx.whoBlock).toBe(expected);
    }
    // A muted member's line is refused here, with the reason, and never sent.
    if (e.type === 'chat.send' && before.whoBlock !== WhoBlock.none && snapshot.matches('ready')) {
      expect(ctx.notice).toBe(TEXT_MUTED);
      expect(port.pending.count('send')).toBe(sendsBefore);
    }
    if (e.type === 'chat.send' && e.text.trim() === '') expect(port.pending.count('send')).toBe(sendsBefore);
    if (port.pending.count('send') > sendsBefore) {
      expect(port.pending.argsOf('send').at(-1)).toEqual([ROOM, { text: 'hi', attach: input.entry.ext }]);
      expect(isMuted(ctx.whoBlock)).toBe(false);
    }
    if (e.type === 'xstate.done.actor.send') expect(ctx.records.find((r) => r.key === 'own1')).toMatchObject({ from: me, text: 'hi' });
    if (e.type === 'xstate.error.actor.send') expect(ctx.notice).toBe(e.error instanceof FakeChatroomError ? TEXT_MUTED : TEXT_SEND_FAILED);
    // Only the host gags; the audience shows it.
    if (e.type === 'chat.gag') expect(snapshot.matches({ ready: { gagging: 'gagging' } })).toBe(isHost);
    if (e.type === 'xstate.done.actor.setGagged') expect(ctx.audience.find((m) => m.account === 'bob')?.gagged ?? true).toBe(true);
    if (e.type === 'xstate.error.actor.setGagged') expect(ctx.notice).toBe(TEXT_GAG_FAILED);
    if (snapshot.matches('ready')) expect(ctx.audience.length).toBeLessThanOrEqual(AUDIENCE_LIMIT);
  }
  actor.stop();
  expect(port.listenerCount()).toBe(0);
}

/** Resting: entering, or ready with nothing under way (the room's events need covering only once). */
const resting = (s: AnyMachineSnapshot) => s.matches('entering') || s.matches({ ready: { sending: 'idle', gagging: 'idle' } });

describeGeneratedPaths('liveChat', liveChatMachine, {
  events: samples,
  inputs,
  possible: (s, e) => {
    if (e.type.startsWith('room.')) return resting(s);
    if (e.type === 'chat.send') return s.matches({ ready: { gagging: 'idle' } });
    if (e.type === 'chat.gag') return s.matches({ ready: { sending: 'idle' } });
    return true;
  },
  serializeContext: (c) => [isMuted((c as LiveChatContext).whoBlock)],
  minPaths: 10,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});
