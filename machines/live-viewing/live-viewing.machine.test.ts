/**
 * Watching a live room (SPEC §3 Live info read defensively, §4 viewing front status, §2 the
 * gift panel in the room's scene): the join's answer made safe, and a visit over the
 * in-memory live service, media channels and chat rooms.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { FakeChatroomNetwork, FakeChatroomPort } from '../ports/chatroom.fake';
import type { GiftApiPort } from '../ports/gift.port';
import { FakeLiveApi, FakeLiveMedia, FakeLiveMediaNetwork, FakeLiveNetwork } from '../ports/live.fake';
import type { LiveRoom } from '../ports/live.port';
import { seenIntentKeys } from '../testing/intent-keys';
import { flush } from '../testing/paths';
import { composeLiveViewing } from './live-viewing.actors';
import { LiveFrontStatus, roomOf } from './live-viewing.machine';
import { frontStatusOf, liveViewingViewOf, videoStateOf } from './live-viewing.selectors';

describe('[§3 Live info] the join\'s answer is read defensively', () => {
  it('keeps known codes and well-formed values, and falls back otherwise', () => {
    const raw = {
      userId: 5, yxAccid: 'h', nickname: 7, title: null, agoraChannelId: 'c', yxRoomId: 'r', joinNum: -3.5, privateCallOpen: 'yes',
      wishlist: [{ giftId: 1, giftNum: 2, compelteGiftNum: 1 }, 'junk'], userStatus: 9, liveRoomState: '1', isBlockUser: true, whoBlock: 8,
    } as unknown as LiveRoom;
    expect(roomOf(raw)).toMatchObject({
      userId: 5, nickname: '', title: '', joinNum: 0, privateCallOpen: false, userStatus: 0, liveRoomState: 0, whoBlock: 2,
      wishlist: [{ giftId: 1, giftNum: 2, compelteGiftNum: 1, ratio: 0.5, completed: false }],
    });
    expect(roomOf({ ...raw, liveRoomState: 1, userStatus: 1, whoBlock: 3 } as LiveRoom)).toMatchObject({ liveRoomState: 1, userStatus: 1, whoBlock: 3 });
  });
});

describe('Scenario: a viewer\'s visit over the in-memory live service', () => {
  function setUp() {
    const chatrooms = new FakeChatroomNetwork();
    const lives = new FakeLiveNetwork(chatrooms);
    const channels = new FakeLiveMediaNetwork();
    lives.register({ userId: 1, account: 'yx-host', nickname: 'Sofia', isHost: true });
    lives.register({ userId: 2, account: 'yx-alice', nickname: 'Alice', isHost: false });
    for (const a of ['yx-host', 'yx-alice']) chatrooms.register(a, `im-${a}`);
    const host = { media: new FakeLiveMedia(channels), chat: new FakeChatroomPort(chatrooms) };
    const sent: unknown[] = [];
    const gifts: GiftApiPort = {
      list: async () => [],
      send: async (request) => {
        sent.push(request);
        lives.gift(1, request.giftId, request.giftNum, 10 * request.giftNum);
        chatrooms.post(request.yxRoomId!, { from: 'yx-alice', fromNick: 'Alice', attach: { giftId: request.giftId, giftImg: '/g.svg', giftNum: request.giftNum, sendId: sent.length } });
        return { balance: 90, value: 10 };
      },
      askFor: async () => ({ askId: 1 }),
      refuseAsk: async () => undefined,
    };
    const viewer = { api: new FakeLiveApi(lives, 2), media: new FakeLiveMedia(channels), chatroom: new FakeChatroomPort(chatrooms), gifts };
    const start = () => createActor(composeLiveViewing(viewer), {
      input: { hostUserId: 1, entry: { account: 'yx-alice', token: 'im-yx-alice', nick: 'Alice', ext: { userLevel: 1 } } },
      clock: new SimulatedClock(),
    }).start();
    return { lives, host, viewer, sent, start };
  }

  it('joins live, sees the picture, sees calling while the host is away, sends a gift in the room, and leaves clean', async () => {
    const { lives, host, viewer, sent, start } = setUp();
    const room = lives.begin(1, { title: 'Evening', privateCallOpen: true });
    await host.chat.enter(room.yxRoomId, { account: 'yx-host', token: 'im-yx-host', nick: 'Sofia' });
    await host.media.publish(room.agoraChannelId, 'yx-host');
    const actor = start();
    expect(frontStatusOf(actor.getSnapshot())).toBe(LiveFrontStatus.loading);
    await flush();
    expect(frontStatusOf(actor.getSnapshot())).toBe(LiveFrontStatus.live);
    expect(videoStateOf(actor.getSnapshot())).toBe('playing');
    expect(liveViewingViewOf(actor.getSnapshot())).toMatchObject({ canCallHost: true, hostNickname: 'Sofia', title: 'Evening' });

    await host.media.leave();
    await flush();
    expect(frontStatusOf(actor.getSnapshot())).toBe(LiveFrontStatus.calling);
    expect(liveViewingViewOf(actor.getSnapshot()).canCallHost).toBe(false);
    await host.media.publish(room.agoraChannelId, 'yx-host');
    await flush();
    expect(frontStatusOf(actor.getSnapshot())).toBe(LiveFrontStatus.live);
    expect(videoStateOf(actor.getSnapshot())).toBe('playing');

    // A gift in the room carries its send's idempotency key.
    const keys = seenIntentKeys();
    try {
      (actor.getSnapshot().children.gifting as AnyActorRef).send({ type: 'gift.send', giftId: 7, giftNum: 2 });
      await flush();
    } finally {
      keys.restore();
    }
    expect(keys.made).toHaveLength(1);
    expect(sent).toEqual([{ yxRoomId: room.yxRoomId, toUserId: 1, giftId: 7, giftNum: 2, idempotencyKey: keys.made[0] }]);
    const chat = actor.getSnapshot().children.chat as AnyActorRef;
    expect((chat.getSnapshot().children.giftQueue as AnyActorRef).getSnapshot().context.current).toMatchObject({ giftId: 7, giftNum: 2 });

    actor.send({ type: 'live.leave' });
    await flush();
    expect(actor.getSnapshot().status).toBe('done');
    expect(viewer.media.listenerCount + viewer.chatroom.listenerCount()).toBe(0);
    expect(viewer.chatroom.entered).toEqual([]);
    expect(viewer.media.channel).toBeNull();
  });

  it('[§4] a room the host ended shows live end; the room closing while watching does too', async () => {
    const { lives, start } = setUp();
    lives.begin(1, { title: 'Evening', privateCallOpen: false });
    lives.close(1);
    const ended = start();
    await flush();
    expect(ended.getSnapshot().value).toBe('over');
    expect(frontStatusOf(ended.getSnapshot())).toBe(LiveFrontStatus.liveEnd);

    lives.begin(1, { title: 'Again', privateCallOpen: false });
    const watching = start();
    await flush();
    expect(frontStatusOf(watching.getSnapshot())).toBe(LiveFrontStatus.live);
    lives.close(1);
    await flush();
    expect(watching.getSnapshot().value).toBe('over');
    expect(frontStatusOf(watching.getSnapshot())).toBe(LiveFrontStatus.liveEnd);
    watching.send({ type: 'live.leave' });
    expect(watching.getSnapshot().status).toBe('done');
  });

  it('[§4] the host in a private call when the viewer joins shows calling', async () => {
    const { lives, start } = setUp();
    lives.begin(1, { title: 'Evening', privateCallOpen: true });
    lives.setInCall(1, true);
    const actor = start();
    await flush();
    expect(frontStatusOf(actor.getSnapshot())).toBe(LiveFrontStatus.calling);
    expect(videoStateOf(actor.getSnapshot())).toBe('waiting');
  });
});
