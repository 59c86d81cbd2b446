/**
 * The live room chat's rules (SPEC §3 Live chat record, §4 gag table, §6 highlights for
 * userLevel above 0, §9 highlight 2 s / shift 1.2 s): the pure readers with malformed input,
 * the whoBlock table, the highlight timing on a simulated clock, and scenarios over the
 * in-memory chat-room service.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { FakeChatroomNetwork, FakeChatroomPort } from '../ports/chatroom.fake';
import type { ChatroomMessage } from '../ports/chatroom.port';
import { GIFT_NUM_MAX } from '../ports/gift.port';
import { flush } from '../testing/paths';
import { enterHighlightsMachine, highlightsOnShow } from './enter-highlights.machine';
import { composeLiveChat } from './live-chat.actors';
import type { LiveChatInput } from './live-chat.machine';
import {
  HIGHLIGHT_SHIFT_MS, HIGHLIGHT_SHOW_MS, MAX_CHAT_TEXT, MAX_WAITING_HIGHLIGHTS, TEXT_MUTED, WHO_BLOCK_AFTER_GAG, WHO_BLOCK_AFTER_UNGAG,
  WhoBlock, highlightOf, isMuted, privateCallNoticeOf, progressWishlist, recordOf, secureImage, whoBlockOf, wishlistOf,
} from './live-chat.types';
import type { Highlight } from './live-chat.types';

const message = (over: Record<string, unknown>): ChatroomMessage =>
  ({ idServer: 's1', roomId: 'r', from: 'bob', fromNick: 'Bob', time: 5, ...over }) as unknown as ChatroomMessage;

describe('[§4 Live state] whoBlock after a gag and an ungag', () => {
  it('gag sets 2 (3 over the service\'s 1); ungag: 3 gives 1 and still blocked, 2 gives 0, 1 gives 1 and still blocked', () => {
    expect(WHO_BLOCK_AFTER_GAG).toEqual({ 0: 2, 1: 3, 2: 2, 3: 3 });
    expect(WHO_BLOCK_AFTER_UNGAG).toEqual({ 0: 0, 1: 1, 2: 0, 3: 1 });
    expect([0, 1, 2, 3].map((w) => isMuted(WHO_BLOCK_AFTER_UNGAG[w as WhoBlock]))).toEqual([false, true, false, true]);
  });

  it('reads whoBlock as the server said it, falling back on isBlockUser for an unknown code', () => {
    expect(whoBlockOf(3, false)).toBe(3);
    expect(whoBlockOf(7, true)).toBe(WhoBlock.host);
    expect(whoBlockOf('2', false)).toBe(WhoBlock.none);
    expect(whoBlockOf(undefined, undefined)).toBe(WhoBlock.none);
  });
});

describe('[§3 Live chat record] reading untrusted room messages', () => {
  it('keeps the record fields of a text line, with the sender\'s profile from attach', () => {
    expect(recordOf(message({ text: '  hi there ', attach: { isVip: 'true', isNewUser: 1, userLevel: '12' } }))).toEqual({
      key: 's1', from: 'bob', fromNick: 'Bob', text: 'hi there', isVip: true, isNewUser: true, userLevel: 12,
      giftImg: null, giftNum: 0, giftId: null, giftName: '', time: 5,
    });
  });

  it('reads attach given as a JSON string, and ignores attach that is not an object', () => {
    expect(recordOf(message({ text: 'a', attach: '{"isVip":true,"userLevel":3}' }))).toMatchObject({ isVip: true, userLevel: 3 });
    for (const attach of ['{broken', '[1,2]', 42, null, ['x'], true]) {
      expect(recordOf(message({ text: 'a', attach }))).toMatchObject({ text: 'a', isVip: false, isNewUser: false, userLevel: 0, giftImg: null });
    }
  });

  it('reads a gift line the service posted: https picture (http rewritten), a quantity within 1–99, the gift id and name', () => {
    const posted = (over: Record<string, unknown>) => message({ fromServer: true, ...over });
    expect(recordOf(posted({ text: 'ignored', attach: { giftId: '7', giftImg: 'http://cdn.example/r.png', giftNum: 3, giftName: 'Rose' } })))
      .toMatchObject({ text: '', giftId: 7, giftImg: 'https://cdn.example/r.png', giftNum: 3, giftName: 'Rose' });
    expect(recordOf(posted({ attach: { giftId: 7, giftNum: 0 } }))?.giftNum).toBe(1);
    expect(recordOf(posted({ attach: { giftId: 7, giftNum: 5000 } }))?.giftNum).toBe(GIFT_NUM_MAX);
    expect(recordOf(posted({ attach: { giftId: 7, giftNum: 'many' } }))?.giftNum).toBe(1);
    expect(recordOf(posted({ attach: { giftImg: 'javascript:alert(1)', giftNum: 2 } }))).toBeNull();
  });

  it('[§3] a gift a member sent itself (not posted by the service) is no gift: its text shows as a line, a bare one not at all', () => {
    const attach = { giftId: 14, giftImg: '/gifts/castle.svg', giftNum: 99, giftName: 'Castle' };
    for (const fromServer of [undefined, false, 'true', 1]) {
      expect(recordOf(message({ fromServer, attach }))).toBeNull();
      expect(recordOf(message({ fromServer, text: 'look', attach }))).toMatchObject({ text: 'look', giftId: null, giftImg: null, giftNum: 0 });
    }
    expect(recordOf(message({ fromServer: true, attach }))).toMatchObject({ giftId: 14, giftNum: 99 });
  });

  it('[§2] the private-call switch counts only as the service posts it about the host', () => {
    const notice = (over: Record<string, unknown>) => message({ from: 'host', fromNick: '', attach: { privateCallOpen: false }, ...over });
    expect(privateCallNoticeOf(notice({ fromServer: true }), 'host')).toBe(false);
    expect(privateCallNoticeOf(notice({ fromServer: true, attach: { privateCallOpen: true } }), 'host')).toBe(true);
    // Sent by the host's own client, by a viewer, or about someone else: no switch.
    expect(privateCallNoticeOf(notice({}), 'host')).toBeNull();
    expect(privateCallNoticeOf(notice({ from: 'bob' }), 'host')).toBeNull();
    expect(privateCallNoticeOf(notice({ fromServer: true, from: 'bob' }), 'host')).toBeNull();
    expect(privateCallNoticeOf(notice({ fromServer: true, text: 'closed!' }), 'host')).toBeNull();
  });

  it('drops what carries nothing to show or no id, and bounds the rest', () => {
    expect(recordOf(message({ text: '   ' }))).toBeNull();
    expect(recordOf(message({ text: 42 }))).toBeNull();
    expect(recordOf(message({ idServer: '', text: 'a' }))).toBeNull();
    expect(recordOf(null as unknown as ChatroomMessage)).toBeNull();
    expect(recordOf(message({ text: 'x'.repeat(500) }))?.text).toHaveLength(MAX_CHAT_TEXT);
    expect(recordOf(message({ text: 'a', attach: { userLevel: -4 } }))?.userLevel).toBe(0);
    expect(recordOf(message({ text: 'a', attach: { userLevel: 1e12 } }))?.userLevel).toBe(999);
    expect(recordOf(message({ text: 'a', fromNick: 7 }))?.fromNick).toBe('7');
    expect(recordOf(message({ text: 'a', fromNick: ' ' }))?.fromNick).toBe('bob');
  });

  it('uses only https or same-origin pictures', () => {
    expect(secureImage('https://a/b.png')).toBe('https://a/b.png');
    expect(secureImage('HTTP://a/b.png')).toBe('https://a/b.png');
    expect(secureImage('/gifts/rose.svg')).toBe('/gifts/rose.svg');
    expect(secureImage('//evil/x.png')).toBeNull();
    expect(secureImage('data:image/png;base64,xx')).toBeNull();
    expect(secureImage(3)).toBeNull();
  });
});

describe('[§6] entering-room highlights only above level 0', () => {
  it('reads the level from the member\'s ext (object or JSON string)', () => {
    expect(highlightOf({ account: 'a', nick: 'A', gagged: false, ext: { userLevel: 2, isVip: true } })).toEqual({
      account: 'a', nick: 'A', avatar: null, userLevel: 2, isVip: true,
    });
    expect(highlightOf({ account: 'a', nick: 'A', gagged: false, ext: '{"userLevel":"5"}' as never })?.userLevel).toBe(5);
    expect(highlightOf({ account: 'a', nick: 'A', gagged: false, ext: { userLevel: 0 } })).toBeNull();
    expect(highlightOf({ account: 'a', nick: 'A', gagged: false })).toBeNull();
    expect(highlightOf({ account: '', nick: 'A', gagged: false, ext: { userLevel: 3 } })).toBeNull();
  });
});

describe('[§9 Timers] highlights show 2 s each and come in 1.2 s apart', () => {
  const h = (account: string, userLevel = 3): Highlight => ({ account, nick: account, avatar: null, userLevel, isVip: false });
  const start = () => {
    const clock = new SimulatedClock();
    const actor = createActor(enterHighlightsMachine, { clock }).start();
    const onShow = () => highlightsOnShow(actor.getSnapshot().context).map((x) => x.account);
    return { clock, actor, onShow };
  };

  it('a burst of three: one at 0, 1.2 and 2.4 s, each on show for 2 s', () => {
    const { clock, actor, onShow } = start();
    for (const name of ['a', 'b', 'c']) actor.send({ type: 'highlight.add', highlight: h(name) });
    const at = (t: number) => { clock.set(t); return onShow(); };
    expect(at(0)).toEqual(['a']);
    expect(at(HIGHLIGHT_SHIFT_MS - 1)).toEqual(['a']);
    expect(at(HIGHLIGHT_SHIFT_MS)).toEqual(['a', 'b']);
    expect(at(HIGHLIGHT_SHOW_MS - 1)).toEqual(['a', 'b']);
    expect(at(HIGHLIGHT_SHOW_MS)).toEqual(['b']);
    expect(at(2 * HIGHLIGHT_SHIFT_MS)).toEqual(['b', 'c']);
    expect(at(HIGHLIGHT_SHIFT_MS + HIGHLIGHT_SHOW_MS)).toEqual(['c']);
    expect(at(2 * HIGHLIGHT_SHIFT_MS + HIGHLIGHT_SHOW_MS - 1)).toEqual(['c']);
    expect(at(2 * HIGHLIGHT_SHIFT_MS + HIGHLIGHT_SHOW_MS)).toEqual([]);
    expect(actor.getSnapshot().value).toEqual({ cadence: 'ready', slotA: 'empty', slotB: 'empty' });
  });

  it('one arriving after a quiet spell shows at once', () => {
    const { clock, actor, onShow } = start();
    actor.send({ type: 'highlight.add', highlight: h('a') });
    clock.set(1500);
    actor.send({ type: 'highlight.add', highlight: h('b') });
    expect(onShow()).toEqual(['a', 'b']);
    clock.set(2000);
    expect(onShow()).toEqual(['b']);
    clock.set(3499);
    expect(onShow()).toEqual(['b']);
    clock.set(3500);
    expect(onShow()).toEqual([]);
  });

  it('never highlights level 0, and keeps the newest when a crowd enters', () => {
    const { actor, onShow } = start();
    actor.send({ type: 'highlight.add', highlight: h('zero', 0) });
    expect(onShow()).toEqual([]);
    for (let i = 0; i < MAX_WAITING_HIGHLIGHTS + 10; i++) actor.send({ type: 'highlight.add', highlight: h(`m${i}`) });
    const { waiting } = actor.getSnapshot().context;
    expect(waiting).toHaveLength(MAX_WAITING_HIGHLIGHTS);
    expect(waiting.at(-1)?.account).toBe(`m${MAX_WAITING_HIGHLIGHTS + 9}`);
  });
});

describe('[§3 wishlist] progress from the room\'s gifts', () => {
  const wish = { giftId: 7, giftNum: 3, compelteGiftNum: 1, ratio: 1 / 3, completed: false };
  it('counts a gift of the wished kind, at most giftNum, and completes it', () => {
    expect(progressWishlist([wish], 7, 1)[0]).toMatchObject({ compelteGiftNum: 2, completed: false });
    expect(progressWishlist([wish], 7, 5)[0]).toMatchObject({ compelteGiftNum: 3, ratio: 1, completed: true });
    expect(progressWishlist([wish], 8, 5)[0]).toBe(wish);
    expect(progressWishlist([wish], null, 5)[0]).toBe(wish);
  });
  it('reads an untrusted wishlist', () => {
    expect(wishlistOf('x')).toEqual([]);
    expect(wishlistOf([{ giftId: 7, giftNum: 4, compelteGiftNum: 9 }, { giftId: 'a', giftNum: 1 }, null, { giftId: 2, giftNum: 0 }]))
      .toEqual([{ giftId: 7, giftNum: 4, compelteGiftNum: 4, ratio: 1, completed: true }]);
  });
});

describe('Scenario: a live room\'s chat over the in-memory service', () => {
  const ROOM = 'room-1';
  function setUp() {
    const network = new FakeChatroomNetwork();
    for (const a of ['host', 'alice', 'bob']) network.register(a, `im-${a}`);
    network.open(ROOM, 'host');
    const chat = (account: string, ext: Record<string, unknown> = { userLevel: 0 }, whoBlock: WhoBlock = WhoBlock.none) => {
      const port = new FakeChatroomPort(network);
      const input: LiveChatInput = {
        roomId: ROOM, entry: { account, token: `im-${account}`, nick: account.toUpperCase(), ext }, hostAccount: 'host',
        whoBlock, joinNum: 0, wishlist: [{ giftId: 7, giftNum: 2, compelteGiftNum: 0, ratio: 0, completed: false }],
      };
      const actor = createActor(composeLiveChat(port), { input, clock: new SimulatedClock() }).start();
      return { port, actor };
    };
    return { network, chat };
  }
  const gifts = (actor: AnyActorRef) => (actor.getSnapshot().children.giftQueue as AnyActorRef).getSnapshot().context.received as number;

  it('a gift the server posts plays once for everyone, the sender too, and counts toward the wishlist', async () => {
    const { network, chat } = setUp();
    const host = chat('host');
    const alice = chat('alice');
    await flush();
    network.post(ROOM, { from: 'alice', fromNick: 'ALICE', attach: { giftId: 7, giftImg: '/gifts/rose.svg', giftNum: 1, giftName: 'Rose', sendId: 1 } });
    await flush();
    for (const { actor } of [host, alice]) {
      expect(gifts(actor)).toBe(1);
      expect(actor.getSnapshot().context.wishlist[0]).toMatchObject({ compelteGiftNum: 1, completed: false });
      expect(actor.getSnapshot().context.records.map((r: { giftName: string }) => r.giftName)).toEqual(['Rose']);
    }
  });

  it('the host gags a viewer: the viewer is muted with the reason and sends nothing; ungag frees them', async () => {
    const { chat } = setUp();
    const host = chat('host');
    const alice = chat('alice');
    await flush();
    host.actor.send({ type: 'chat.gag', account: 'alice', gagged: true });
    await flush();
    expect(alice.actor.getSnapshot().context.whoBlock).toBe(WhoBlock.host);
    expect(host.actor.getSnapshot().context.audience.find((m: { account: string }) => m.account === 'alice')?.gagged).toBe(true);
    alice.actor.send({ type: 'chat.send', text: 'hello?' });
    await flush();
    expect(alice.actor.getSnapshot().context.notice).toBe(TEXT_MUTED);
    expect(host.actor.getSnapshot().context.records).toEqual([]);
    host.actor.send({ type: 'chat.gag', account: 'alice', gagged: false });
    await flush();
    expect(alice.actor.getSnapshot().context.whoBlock).toBe(WhoBlock.none);
    alice.actor.send({ type: 'chat.send', text: 'hello' });
    await flush();
    expect(host.actor.getSnapshot().context.records.map((r: { text: string }) => r.text)).toEqual(['hello']);
    expect(alice.actor.getSnapshot().context.records.map((r: { text: string }) => r.text)).toEqual(['hello']);
  });

  it('a viewer muted by the service stays muted after the host\'s ungag', async () => {
    const { chat } = setUp();
    const host = chat('host');
    const alice = chat('alice', {}, WhoBlock.service);
    await flush();
    host.actor.send({ type: 'chat.gag', account: 'alice', gagged: true });
    await flush();
    expect(alice.actor.getSnapshot().context.whoBlock).toBe(WhoBlock.both);
    host.actor.send({ type: 'chat.gag', account: 'alice', gagged: false });
    await flush();
    expect(alice.actor.getSnapshot().context.whoBlock).toBe(WhoBlock.service);
  });

  it('member enter counts joinNum and the audience, highlights level > 0, and the host\'s exit ends a viewer\'s room', async () => {
    const { chat } = setUp();
    const host = chat('host');
    const alice = chat('alice');
    await flush();
    const bob = chat('bob', { userLevel: 3 });
    await flush();
    for (const { actor } of [host, alice]) {
      expect(actor.getSnapshot().context.joinNum).toBeGreaterThanOrEqual(1);
      expect(actor.getSnapshot().context.audience.map((m: { account: string }) => m.account)).toContain('bob');
      const highlights = (actor.getSnapshot().children.highlights as AnyActorRef).getSnapshot().context;
      expect(highlightsOnShow(highlights).map((x) => x.account)).toEqual(['bob']);
    }
    await host.port.leave(ROOM);
    await flush();
    expect(alice.actor.getSnapshot().status).toBe('done');
    expect(alice.actor.getSnapshot().output).toEqual({ reason: 'hostLeft' });
    expect(alice.port.listenerCount()).toBe(0);
    expect(bob.actor.getSnapshot().output).toEqual({ reason: 'hostLeft' });
  });

  it('history shows the last messages oldest first, without replaying their gifts', async () => {
    const { network, chat } = setUp();
    const host = chat('host');
    await flush();
    for (let i = 1; i <= 7; i++) network.post(ROOM, { from: 'host', fromNick: 'HOST', text: `m${i}` });
    network.post(ROOM, { from: 'host', fromNick: 'HOST', attach: { giftId: 7, giftImg: '/g.svg', giftNum: 1 } });
    const late = chat('alice');
    await flush();
    const { records } = late.actor.getSnapshot().context;
    expect(records.map((r) => r.text || `gift ${r.giftId}`)).toEqual(['m4', 'm5', 'm6', 'm7', 'gift 7']);
    expect(gifts(late.actor)).toBe(0);
    expect(gifts(host.actor)).toBe(1);
  });
});
