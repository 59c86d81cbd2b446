/**
 * Live rooms (src/api/contract/live.ts) over real HTTP and the hub: the live lists, going live
 * and ending, joining, the host's call, gags, wishlists and live gifts (money, progress, chat
 * room posts, stats, send rank, gift task), the heartbeat deadline and the dev-shell hooks.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttachType } from '../../machines/system-messages/system-messages';
import { MESSAGE_DIAMOND_NOT_ENOUGH, ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { TEXT_GIFT_NOT_IN_LIVE, TEXT_GIFT_ONE_SCENE } from '../../src/api/contract/gift';
import {
  LIVE_FORCED_END_CODE, LIVE_GIFT_TASK_KEY, LIVE_HEARTBEAT_INTERVAL_MS, LIVE_HEARTBEAT_WINDOW_MS, LIVE_PAGE_SIZE, LiveEndCause,
  TEXT_LIVE_COVER_INVALID, TEXT_LIVE_HOSTS_ONLY, TEXT_LIVE_NOT_FOUND, TEXT_LIVE_NOT_LIVE, TEXT_SET_WISHLIST_FAILED, WhoBlock,
  type HostedLive,
} from '../../src/api/contract/live';
import { RealtimePath } from '../../src/api/contract/realtime';
import { SEED_PASSWORD } from '../db/seed';
import { callPeople, hubSocket, noticesOf, sleep, writeDb, type CallPeople, type HubSocket, type Person } from '../testing/calls';
import { device, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_INVALID_REQUEST } from './transport';
import { LIVE_TASK_FLOW_REASON } from './live.rooms';

const {
  queryLiveList, queryMyFollowLive, login, blockUser, checkLiveBroadcastPermission, beginLiveRoom, endLiveRoom, getMyLiveRoomV2,
  updatePrivateCall, getAnchorWishlist, setAnchorWishlist, queryLiveStat, getRoomAndJoinRoom, leaveLiveRoom, liveHeartBeatV2,
  sendRank, liveGiftTask, sendGift, createCall, joinCall, endCall, getUserDetail, followList, batchQueryYxStat,
} = endpoints;

/** Polls `check` until it holds (or fails after `ms`). */
async function until(check: () => boolean | Promise<boolean>, ms = 3_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('Timed out waiting.');
    await sleep(20);
  }
}

describe('[§7] /api/agora/live/queryLiveList and queryMyFollowLive', () => {
  let server: TestServer;
  let writer: Database.Database;
  let user1: string;
  beforeAll(async () => {
    server = await startTestServer({ build: false });
    writer = writeDb(server);
    user1 = (await server.call(login, { ...device, account: 'user1@example.com', password: SEED_PASSWORD })).data!.token;
  });
  afterAll(async () => {
    writer.close();
    await server.close();
  });

  // Rooms written here stand for hosts who went live (the tests below go live through the API).
  const room = (userId: number, startedAt: number, state: 0 | 1 = 0) =>
    writer.prepare(
      `INSERT INTO live_rooms (user_id, agora_channel_id, yx_room_id, title, state, join_num, private_call_open, started_at)
       VALUES (?, ?, ?, ?, ?, 12, 1, ?)`,
    ).run(userId, `live-${userId}-${startedAt}`, `room-${userId}-${startedAt}`, `Live with ${userId}`, state, startedAt);

  it('answer empty pages while nobody is live', async () => {
    for (const endpoint of [queryLiveList, queryMyFollowLive]) {
      expect((await server.call(endpoint, { currentPage: 1, pageSize: 10 }, { token: user1 })).data)
        .toEqual({ list: [], total: 0, currentPage: 1, pageSize: 10 });
    }
  });

  it('list live rooms newest first (ended ones left out); the follow list only hosts the caller follows', async () => {
    room(100002, 1_000);
    room(100004, 3_000);
    room(100005, 2_000);
    room(100003, 4_000, 1);
    const all = await server.call(queryLiveList, { currentPage: 1, pageSize: 10 }, { token: user1 });
    expect(all.data!.list.map((r) => r.userId)).toEqual([100004, 100005, 100002]);
    expect(all.data!.list[0]).toMatchObject({
      nickname: 'Mei', agoraChannelId: 'live-100004-3000', yxRoomId: 'room-100004-3000', title: 'Live with 100004', joinNum: 12,
      privateCallOpen: true, startTime: 3_000, isFollowed: false, userType: 2,
    });
    // user1 follows hosts 1, 2 and 3.
    const followed = await server.call(queryMyFollowLive, { currentPage: 1, pageSize: LIVE_PAGE_SIZE }, { token: user1 });
    expect(followed.data).toMatchObject({ total: 1, list: [{ userId: 100002, isFollowed: true }] });
  });

  it('pages without repeats, and leaves out blocked hosts and the caller\'s own room', async () => {
    const first = await server.call(queryLiveList, { currentPage: 1, pageSize: 2 }, { token: user1 });
    const second = await server.call(queryLiveList, { currentPage: 2, pageSize: 2 }, { token: user1 });
    expect([...first.data!.list, ...second.data!.list].map((r) => r.userId)).toEqual([100004, 100005, 100002]);
    expect(second.data!.list).toHaveLength(1);
    await server.call(blockUser, { beBlockUserId: 100005 }, { token: user1 });
    expect((await server.call(queryLiveList, { currentPage: 1, pageSize: 10 }, { token: user1 })).data!.list.map((r) => r.userId))
      .toEqual([100004, 100002]);
    const host4 = (await server.call(login, { ...device, account: 'host4@example.com', password: SEED_PASSWORD })).data!.token;
    expect((await server.call(queryLiveList, { currentPage: 1, pageSize: 10 }, { token: host4 })).data!.list.map((r) => r.userId))
      .toEqual([100005, 100002]);
  });

  it(`[§9] takes pages of up to ${LIVE_PAGE_SIZE}; [1000] refuses larger ones and page 0; [1005] needs a session`, async () => {
    for (const body of [{ currentPage: 1, pageSize: LIVE_PAGE_SIZE + 1 }, { currentPage: 0, pageSize: 10 }]) {
      expect(await server.call(queryMyFollowLive, body, { token: user1 })).toEqual({
        code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST,
      });
    }
    expect((await server.call(queryLiveList, { currentPage: 1, pageSize: 10 })).code).toBe(ResultCode.authFailed);
  });
});

describe('[§4 Live state] going live, watching, gifts, wishlist, stats', () => {
  let server: TestServer;
  let people: CallPeople;
  let db: Database.Database;
  let rw: Database.Database;
  const p: Record<string, Person> = {};
  let room: HostedLive;
  /** The live gifts that went through in host1's room, as the tests send them. */
  const sent: { sender: string; giftId: number; num: number; value: number }[] = [];

  beforeAll(async () => {
    server = await startTestServer({ build: false, seed: { hosts: 3, users: 4 } });
    people = callPeople(server);
    db = server.readDb();
    rw = writeDb(server);
    for (const name of ['host1', 'host2', 'host3', 'user1', 'user2', 'user3', 'user4']) p[name] = await people.signIn(`${name}@example.com`);
    // Calls need a reachable host.
    await people.presence(p.host1!);
  });
  afterAll(async () => {
    await people.closeAll();
    rw.close();
    await server.close();
  });

  const as = (name: string) => ({ token: p[name]!.token });
  const id = (name: string) => p[name]!.userId;
  const income = (userId: number) => db.prepare<[number], number>('SELECT income FROM wallets WHERE user_id = ?').pluck().get(userId) ?? 0;
  const diamonds = (userId: number) => db.prepare<[number], number>('SELECT diamonds FROM wallets WHERE user_id = ?').pluck().get(userId) ?? 0;
  const setDiamonds = (name: string, n: number) =>
    rw.prepare('INSERT INTO wallets (user_id, diamonds) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET diamonds = excluded.diamonds')
      .run(id(name), n);
  /** Whether host1 is live as `viewer` sees it on the live list, a profile, the follow list and a chat's lookup. */
  const livingAsSeenBy = async (viewer: string) => {
    const host = p.host1!;
    const list = (await server.call(queryLiveList, { currentPage: 1, pageSize: 10 }, as(viewer))).data!.list;
    const follows = (await server.call(followList, { type: 'follows', currentPage: 1, pageSize: 10 }, as(viewer))).data!.list;
    return {
      list: list.find((r) => r.userId === host.userId)?.living,
      profile: (await server.call(getUserDetail, { userId: host.userId }, as(viewer))).data!.living,
      follows: follows.find((f) => f.userId === host.userId)?.living,
      chat: (await server.call(batchQueryYxStat, { yxAccids: [host.yxAccid] }, as(viewer))).data![host.yxAccid]?.living,
    };
  };
  const join = async (viewer: string, host = 'host1') => {
    const res = await server.call(getRoomAndJoinRoom, { searchValue: id(host) }, as(viewer));
    expect(res.code, res.message).toBe(ResultCode.success);
    return res.data!;
  };
  async function giveInRoom(sender: string, giftId: number, giftNum: number, price: number) {
    const res = await server.call(sendGift, { idempotencyKey: randomUUID(), yxRoomId: room.yxRoomId, toUserId: id('host1'), giftId, giftNum }, as(sender));
    expect(res.code, res.message).toBe(ResultCode.success);
    sent.push({ sender, giftId, num: giftNum, value: price * giftNum });
    return res.data!;
  }
  async function enterChat(name: string): Promise<HubSocket> {
    const socket = await hubSocket(server, RealtimePath.chatroom);
    await socket.call('enter', { roomId: room.yxRoomId, account: p[name]!.yxAccid, token: p[name]!.imToken, nick: name });
    return socket;
  }
  const chatSockets: HubSocket[] = [];
  afterAll(async () => {
    await Promise.all(chatSockets.map((s) => s.close()));
  });

  it('[§6] refuses going live to anyone but a host (permission, begin, heartbeat, end)', async () => {
    for (const endpoint of [checkLiveBroadcastPermission, endLiveRoom, getMyLiveRoomV2] as const) {
      const res = await server.call(endpoint, {}, as('user1'));
      if (endpoint === getMyLiveRoomV2) expect(res).toMatchObject({ code: ResultCode.success, data: null });
      else expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_HOSTS_ONLY });
    }
    expect(await server.call(beginLiveRoom, { title: 'x', privateCallOpen: true }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_HOSTS_ONLY });
    expect(await server.call(liveHeartBeatV2, {}, as('user1'))).toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_HOSTS_ONLY });
    expect((await server.call(checkLiveBroadcastPermission, {}, as('host1'))).data).toEqual({ allowed: true, living: false });
    // Nothing to end or update yet, and no live to show the stats of; nobody sees host1 live.
    expect(await livingAsSeenBy('user1')).toEqual({ list: undefined, profile: false, follows: false, chat: false });
    expect(await server.call(queryLiveStat, {}, as('host1'))).toMatchObject({ code: ResultCode.success, data: null });
    expect(await server.call(endLiveRoom, {}, as('host1'))).toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_NOT_LIVE });
    expect(await server.call(updatePrivateCall, { privateCallOpen: false }, as('host1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_NOT_LIVE });
    expect(await server.call(getRoomAndJoinRoom, { searchValue: id('host1') }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_NOT_FOUND });
    expect(await server.call(beginLiveRoom, { title: 'x', cover: 'http://example.com/a.png', privateCallOpen: true }, as('host1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_COVER_INVALID });
    // https, but not a media host of the deployment (none configured here): every viewer would load it.
    expect(await server.call(beginLiveRoom, { title: 'x', cover: 'https://example.com/a.png', privateCallOpen: true }, as('host1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_COVER_INVALID });
  });

  it('begins a room that shows on the live list; beginning again answers the same room', async () => {
    const begun = await server.call(beginLiveRoom, { title: '  Hello  ', privateCallOpen: false }, as('host1'));
    expect(begun.code, begun.message).toBe(ResultCode.success);
    room = begun.data!;
    expect(room).toMatchObject({
      userId: id('host1'), yxAccid: p.host1!.yxAccid, nickname: 'Sofia', title: 'Hello', cover: null, joinNum: 0,
      privateCallOpen: false, liveRoomState: 0, userStatus: 0, whoBlock: 0, isBlockUser: false, wishlist: [],
      giftTask: { target: 1000, done: 0, reward: 100, completed: false },
      heartbeatIntervalMs: LIVE_HEARTBEAT_INTERVAL_MS, heartbeatWindowMs: LIVE_HEARTBEAT_WINDOW_MS,
    });
    expect(room.agoraChannelId).toMatch(/^live_[0-9a-f]{24}$/);
    expect(room.yxRoomId).toMatch(/^room_[0-9a-f]{24}$/);
    expect(server.app.realtime.chatrooms.isOpen(room.yxRoomId)).toBe(true);

    const list = await server.call(queryLiveList, { currentPage: 1, pageSize: 10 }, as('user1'));
    expect(list.data!.list).toEqual([expect.objectContaining({
      userId: id('host1'), agoraChannelId: room.agoraChannelId, yxRoomId: room.yxRoomId, title: 'Hello', joinNum: 0, privateCallOpen: false,
    })]);
    // user1 follows host1 (seed).
    expect((await server.call(queryMyFollowLive, { currentPage: 1, pageSize: 10 }, as('user1'))).data!.list.map((r) => r.userId))
      .toEqual([id('host1')]);
    expect(await livingAsSeenBy('user1')).toEqual({ list: true, profile: true, follows: true, chat: true });

    const again = await server.call(beginLiveRoom, { title: 'Hello again', cover: '/avatars/sofia.svg', privateCallOpen: true }, as('host1'));
    expect(again.data).toMatchObject({
      agoraChannelId: room.agoraChannelId, yxRoomId: room.yxRoomId, title: 'Hello again', cover: '/avatars/sofia.svg', privateCallOpen: true,
    });
    expect(db.prepare('SELECT count(*) FROM live_rooms WHERE user_id = ?').pluck().get(id('host1'))).toBe(1);
    expect((await server.call(getMyLiveRoomV2, {}, as('host1'))).data).toMatchObject({ agoraChannelId: room.agoraChannelId });
    expect((await server.call(checkLiveBroadcastPermission, {}, as('host1'))).data).toEqual({ allowed: true, living: true });
    expect((await server.call(liveHeartBeatV2, { yxRoomId: room.yxRoomId }, as('host1'))).data)
      .toEqual({ ended: false, heartbeatIntervalMs: LIVE_HEARTBEAT_INTERVAL_MS, heartbeatWindowMs: LIVE_HEARTBEAT_WINDOW_MS });
    expect((await server.call(liveHeartBeatV2, { yxRoomId: 'room_other' }, as('host1'))).data!.ended).toBe(true);
  });

  it('[§4] a join counts into joinNum once per visit and into the distinct viewers; the host does not count', async () => {
    expect((await join('user1')).joinNum).toBe(1);
    expect((await join('user1')).joinNum).toBe(1);
    expect((await join('host1')).joinNum).toBe(1);
    expect((await join('user2')).joinNum).toBe(2);
    expect((await server.call(leaveLiveRoom, { searchValue: id('host1') }, as('user1'))).data).toEqual({ left: true });
    expect((await server.call(leaveLiveRoom, { searchValue: String(id('host1')) }, as('user1'))).data).toEqual({ left: false });
    const back = await join('user1');
    expect(back).toMatchObject({ joinNum: 3, liveRoomState: 0, userId: id('host1'), agoraChannelId: room.agoraChannelId });
    expect((await server.call(queryLiveList, { currentPage: 1, pageSize: 10 }, as('user3'))).data!.list[0]!.joinNum).toBe(3);
    expect((await server.call(queryLiveStat, {}, as('host1'))).data).toMatchObject({ viewers: 2, gifts: 0, income: 0, liveRoomState: 0 });
  });

  it('[§4] userStatus is 1 while the host has a call in progress, 0 again after it', async () => {
    setDiamonds('user3', 1000);
    const created = await server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id('host1'), callType: 0 }, as('user3'));
    expect(created.code, created.message).toBe(ResultCode.success);
    // Ringing is not yet a call in progress.
    expect((await join('user2')).userStatus).toBe(0);
    expect((await server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: created.data!.channelId }, as('host1'))).code).toBe(ResultCode.success);
    expect((await join('user2')).userStatus).toBe(1);
    expect((await join('user2')).liveRoomState).toBe(0);
    expect((await server.call(endCall, { channelId: created.data!.channelId, hangupReason: 1 }, as('user3'))).code).toBe(ResultCode.success);
    expect((await join('user2')).userStatus).toBe(0);
  });

  it('[§6] whoBlock says who gagged the viewer: 2 the host, 1 the service, 3 both', async () => {
    const hostChat = await enterChat('host1');
    const u1Chat = await enterChat('user1');
    chatSockets.push(hostChat, u1Chat);
    await hostChat.call('setGagged', { roomId: room.yxRoomId, account: p.user1!.yxAccid, gagged: true });
    expect(await join('user1')).toMatchObject({ whoBlock: WhoBlock.host, isBlockUser: true });
    expect(await join('user2')).toMatchObject({ whoBlock: WhoBlock.none, isBlockUser: false });
    const gag = (gagged: boolean) => fetch(`${server.base}/shell/api/live/serviceGag`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: 'user1@example.com', gagged }),
    });
    expect((await gag(true)).status).toBe(200);
    expect(await join('user1')).toMatchObject({ whoBlock: WhoBlock.both, isBlockUser: true });
    await hostChat.call('setGagged', { roomId: room.yxRoomId, account: p.user1!.yxAccid, gagged: false });
    expect(await join('user1')).toMatchObject({ whoBlock: WhoBlock.service, isBlockUser: true });
    // The service gag holds in the chat room too.
    await expect(u1Chat.call('send', { roomId: room.yxRoomId, text: 'hi' })).rejects.toThrow(/gagged/);
    expect(db.prepare('SELECT count(*) FROM live_service_gags WHERE user_id = ?').pluck().get(id('user1'))).toBe(1);
    expect((await gag(false)).status).toBe(200);
    expect(await join('user1')).toMatchObject({ whoBlock: WhoBlock.none, isBlockUser: false });
    await u1Chat.call('send', { roomId: room.yxRoomId, text: 'hi' });
  });

  it(`[§8] sets and reads the wishlist; anything invalid is refused with '${TEXT_SET_WISHLIST_FAILED}' and changes nothing`, async () => {
    const set = await server.call(setAnchorWishlist, { wishlist: [{ giftId: 1, giftNum: 5 }, { giftId: 2, giftNum: 2 }] }, as('host1'));
    expect(set.code, set.message).toBe(ResultCode.success);
    const expected = [
      { giftId: 1, giftNum: 5, compelteGiftNum: 0, ratio: 0, completed: false, giftName: 'Rose', giftImg: '/gifts/rose.svg', giftPrice: 1 },
      { giftId: 2, giftNum: 2, compelteGiftNum: 0, ratio: 0, completed: false, giftName: 'Heart', giftImg: '/gifts/heart.svg', giftPrice: 5 },
    ];
    expect(set.data).toEqual(expected);
    expect((await server.call(getAnchorWishlist, { searchValue: id('host1') }, as('user1'))).data).toEqual(expected);
    expect((await server.call(getAnchorWishlist, {}, as('host1'))).data).toEqual(expected);
    expect((await join('user2')).wishlist).toEqual(expected);

    for (const wishlist of [
      [{ giftId: 1, giftNum: 1 }, { giftId: 2, giftNum: 1 }, { giftId: 3, giftNum: 1 }, { giftId: 4, giftNum: 1 }],
      [{ giftId: 1, giftNum: 1 }, { giftId: 1, giftNum: 2 }],
      [{ giftId: 1, giftNum: 0 }],
      [{ giftId: 1, giftNum: 1000 }],
      [{ giftId: 1, giftNum: 1.5 }],
      [{ giftId: 999, giftNum: 1 }],
    ]) {
      expect(await server.call(setAnchorWishlist, { wishlist }, as('host1')))
        .toEqual({ code: ResultCode.invalidRequest, message: TEXT_SET_WISHLIST_FAILED });
    }
    expect(await server.call(setAnchorWishlist, { wishlist: [] }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_HOSTS_ONLY });
    expect((await server.call(getAnchorWishlist, {}, as('host1'))).data).toEqual(expected);
  });

  it('[§3 Live chat record] a live gift pays the host, fills the wishlist and is posted to every member of the room in order', async () => {
    const u2Chat = await enterChat('user2');
    chatSockets.push(u2Chat);
    const hostIncome = income(id('host1'));
    const incomeNotices = noticesOf(db, p.host1!.yxAccid, AttachType.giftIncome).length;
    const before = diamonds(id('user1'));

    const first = await giveInRoom('user1', 1, 3, 1);
    expect(first).toMatchObject({ giftId: 1, giftNum: 3, value: 3, balance: before - 3 });
    let wishes = (await server.call(getAnchorWishlist, { searchValue: id('host1') }, as('user2'))).data!;
    expect(wishes[0]).toMatchObject({ giftId: 1, compelteGiftNum: 3, ratio: 0.6, completed: false });
    await giveInRoom('user1', 1, 4, 1);
    await giveInRoom('user2', 2, 1, 5);
    wishes = (await join('user2')).wishlist;
    expect(wishes.map((w) => [w.giftId, w.compelteGiftNum, w.ratio, w.completed])).toEqual([[1, 5, 1, true], [2, 1, 0.5, false]]);
    expect(income(id('host1'))).toBe(hostIncome + 3 + 4 + 5);
    // No attachType 18: that adds to a call's gift income.
    expect(noticesOf(db, p.host1!.yxAccid, AttachType.giftIncome)).toHaveLength(incomeNotices);

    const gifts = (socket: HubSocket) => socket.pushes
      .filter((push) => push.type === 'message' && (push.message as { attach?: object }).attach)
      .map((push) => push.message as { from: string; fromNick: string; attach: Record<string, unknown> });
    const [host, viewer] = [chatSockets[0]!, u2Chat];
    await until(() => gifts(host).length === 3 && gifts(viewer).length === 3);
    expect(gifts(viewer).map((m) => [m.from, m.attach.giftId, m.attach.giftNum])).toEqual([
      [p.user1!.yxAccid, 1, 3], [p.user1!.yxAccid, 1, 4], [p.user2!.yxAccid, 2, 1],
    ]);
    // The sender's own screen gets the same message (user2 sent the third).
    expect(gifts(host)).toEqual(gifts(viewer));
    expect(gifts(viewer)[2]).toMatchObject({
      fromNick: expect.any(String),
      attach: { giftId: 2, giftName: 'Heart', giftImg: '/gifts/heart.svg', giftNum: 1, giftPrice: 5, isVip: expect.any(Boolean), isNewUser: expect.any(Boolean), userLevel: expect.any(Number), sendId: expect.any(Number) },
    });

    expect(await server.call(sendGift, { idempotencyKey: randomUUID(), yxRoomId: room.yxRoomId, toUserId: id('host2'), giftId: 1, giftNum: 1 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_GIFT_NOT_IN_LIVE });
    expect(await server.call(sendGift, { idempotencyKey: randomUUID(), yxRoomId: room.yxRoomId, channelId: 'x', toUserId: id('host1'), giftId: 1, giftNum: 1 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_GIFT_ONE_SCENE });
  });

  it('[§7] 20 live gifts at once from one user with diamonds for 7: never below zero, the host earns exactly the 7', async () => {
    setDiamonds('user4', 75);
    const hostIncome = income(id('host1'));
    const results = await Promise.all(Array.from({ length: 20 }, () =>
      server.call(sendGift, { idempotencyKey: randomUUID(), yxRoomId: room.yxRoomId, toUserId: id('host1'), giftId: 2, giftNum: 2 }, as('user4'))));
    const ok = results.filter((r) => r.code === ResultCode.success);
    const short = results.filter((r) => r.code === ResultCode.balanceInsufficient);
    expect(ok).toHaveLength(7);
    expect(short).toHaveLength(13);
    for (const r of short) expect(r.message).toBe(MESSAGE_DIAMOND_NOT_ENOUGH);
    expect(ok.map((r) => r.data!.balance).sort((a, b) => b - a)).toEqual([65, 55, 45, 35, 25, 15, 5]);
    expect(diamonds(id('user4'))).toBe(5);
    expect(income(id('host1'))).toBe(hostIncome + 70);
    expect(db.prepare('SELECT count(*) FROM gift_sends WHERE sender_id = ? AND live_room_id IS NOT NULL').pluck().get(id('user4'))).toBe(7);
    expect(db.prepare("SELECT sum(amount) FROM wallet_flows WHERE user_id = ? AND reason = 'gift.paid'").pluck().get(id('user4'))).toBe(-70);
    for (let k = 0; k < 7; k++) sent.push({ sender: 'user4', giftId: 2, num: 2, value: 10 });
    // The heart wish (2) is complete now: 1 + 14 received, counted at most 2.
    expect((await join('user2')).wishlist[1]).toMatchObject({ compelteGiftNum: 2, ratio: 1, completed: true });
  });

  it('[§2] the private-call switch is told to the viewers in the room (a notice from the host, no text)', async () => {
    const viewer = chatSockets[1]!;
    const notices = () => viewer.pushes
      .filter((push) => push.type === 'message' && (push.message as { attach?: Record<string, unknown> }).attach?.privateCallOpen !== undefined)
      .map((push) => push.message as { from: string; text?: string; attach: Record<string, unknown> });
    expect((await server.call(updatePrivateCall, { privateCallOpen: false }, as('host1'))).code).toBe(ResultCode.success);
    expect((await server.call(updatePrivateCall, { privateCallOpen: true }, as('host1'))).code).toBe(ResultCode.success);
    await until(() => notices().length === 2);
    expect(notices().map((m) => [m.from, m.attach.privateCallOpen, m.text ?? ''])).toEqual([
      [p.host1!.yxAccid, false, ''], [p.host1!.yxAccid, true, ''],
    ]);
    expect((await join('user2')).privateCallOpen).toBe(true);
  });

  it('ranks the room\'s senders by diamonds and gives the stats of the room', async () => {
    setDiamonds('user2', 1000);
    await giveInRoom('user2', 10, 1, 199);
    const rank = await server.call(sendRank, { searchValue: id('host1') }, as('user3'));
    const totals = new Map<string, number>();
    for (const s of sent) totals.set(s.sender, (totals.get(s.sender) ?? 0) + s.value);
    expect(rank.data!.map((r) => [r.rank, r.userId, r.total])).toEqual([
      [1, id('user2'), totals.get('user2')],
      [2, id('user4'), totals.get('user4')],
      [3, id('user1'), totals.get('user1')],
    ]);
    expect(totals.get('user2')).toBe(204);
    expect((await server.call(sendRank, { searchValue: id('host1'), limit: 1 }, as('user3'))).data!.map((r) => r.userId)).toEqual([id('user2')]);
    expect((await server.call(sendRank, { searchValue: id('host2') }, as('user3'))).data).toEqual([]);

    const stat = (await server.call(queryLiveStat, {}, as('host1'))).data!;
    expect(stat).toMatchObject({
      agoraChannelId: room.agoraChannelId, liveRoomState: 0, endTime: null, viewers: 2,
      gifts: sent.reduce((n, s) => n + s.num, 0), income: sent.reduce((n, s) => n + s.value, 0),
    });
    expect(stat.income).toBe(3 + 4 + 5 + 70 + 199);
    expect(await server.call(queryLiveStat, { agoraChannelId: room.agoraChannelId }, as('host2')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_LIVE_NOT_FOUND });
  });

  it('counts live gifts toward the host\'s daily gift task and pays its reward once', async () => {
    const done = sent.reduce((n, s) => n + s.value, 0);
    expect((await server.call(liveGiftTask, {}, as('host1'))).data).toEqual({ target: 1000, done, reward: 100, completed: false });
    expect((await server.call(liveGiftTask, { searchValue: id('host1') }, as('user1'))).data!.done).toBe(done);
    expect((await join('user1')).giftTask).toEqual({ target: 1000, done, reward: 100, completed: false });

    rw.prepare('UPDATE app_config SET value = ? WHERE key = ?').run(JSON.stringify({ target: done + 10, reward: 25 }), LIVE_GIFT_TASK_KEY);
    const hostIncome = income(id('host1'));
    setDiamonds('user1', 1000);
    await giveInRoom('user1', 3, 1, 10);
    expect(income(id('host1'))).toBe(hostIncome + 10 + 25);
    expect((await server.call(liveGiftTask, {}, as('host1'))).data).toEqual({ target: done + 10, done: done + 10, reward: 25, completed: true });
    await giveInRoom('user1', 3, 1, 10);
    expect(income(id('host1'))).toBe(hostIncome + 10 + 25 + 10);
    expect(db.prepare('SELECT count(*) FROM wallet_flows WHERE user_id = ? AND reason = ?').pluck().get(id('host1'), LIVE_TASK_FLOW_REASON)).toBe(1);
  });

  it('[§4] ends the room: state 1 for viewers, off the lists, chat room closed, the same stats again, no more gifts', async () => {
    await server.call(updatePrivateCall, { privateCallOpen: false }, as('host1'));
    expect((await join('user2')).privateCallOpen).toBe(false);
    const ended = await server.call(endLiveRoom, {}, as('host1'));
    expect(ended.code, ended.message).toBe(ResultCode.success);
    expect(ended.data).toMatchObject({
      agoraChannelId: room.agoraChannelId, liveRoomState: 1, endTime: expect.any(Number), viewers: 2,
      gifts: sent.reduce((n, s) => n + s.num, 0), income: sent.reduce((n, s) => n + s.value, 0), endCause: LiveEndCause.host,
    });
    expect(ended.data!.durationSec).toBe(Math.floor((ended.data!.endTime! - ended.data!.startTime) / 1000));
    expect((await server.call(endLiveRoom, {}, as('host1'))).data).toEqual(ended.data);
    expect((await server.call(queryLiveStat, {}, as('host1'))).data).toEqual(ended.data);

    const seen = await join('user3');
    expect(seen).toMatchObject({ liveRoomState: 1, joinNum: 3, agoraChannelId: room.agoraChannelId });
    expect((await server.call(queryLiveList, { currentPage: 1, pageSize: 10 }, as('user1'))).data!.list).toEqual([]);
    expect(await livingAsSeenBy('user1')).toEqual({ list: undefined, profile: false, follows: false, chat: false });
    expect(server.app.realtime.chatrooms.isOpen(room.yxRoomId)).toBe(false);
    await until(() => chatSockets.every((s) => s.pushes.some((push) => push.type === 'closed' && push.reason === 'roomClosed')));
    expect((await server.call(liveHeartBeatV2, { yxRoomId: room.yxRoomId }, as('host1'))).data!.ended).toBe(true);
    expect((await server.call(getMyLiveRoomV2, {}, as('host1'))).data).toBeNull();
    expect(await server.call(sendGift, { idempotencyKey: randomUUID(), yxRoomId: room.yxRoomId, toUserId: id('host1'), giftId: 1, giftNum: 1 }, as('user1')))
      .toEqual({ code: ResultCode.invalidRequest, message: TEXT_GIFT_NOT_IN_LIVE });
    // No 44 for an end the host asked for.
    expect(noticesOf(db, p.host1!.yxAccid, AttachType.liveForcedEnd)).toEqual([]);

    // Going live again is a new room, with the wishlist's progress starting over.
    const next = (await server.call(beginLiveRoom, { title: 'Round two', privateCallOpen: true }, as('host1'))).data!;
    expect(next.agoraChannelId).not.toBe(room.agoraChannelId);
    expect(next.joinNum).toBe(0);
    expect(next.wishlist.map((w) => w.compelteGiftNum)).toEqual([0, 0]);
    await server.call(endLiveRoom, {}, as('host1'));
  });
});

describe('[§4 System messages 44, 63, 64] the heartbeat window and the service', () => {
  const WINDOW_MS = 600;
  let server: TestServer;
  let people: CallPeople;
  let db: Database.Database;
  const p: Record<string, Person> = {};

  beforeAll(async () => {
    server = await startTestServer({ build: false, seed: { hosts: 2, users: 1 }, live: { heartbeatWindowMs: WINDOW_MS } });
    people = callPeople(server);
    db = server.readDb();
    for (const name of ['host1', 'host2', 'user1']) p[name] = await people.signIn(`${name}@example.com`);
  });
  afterAll(async () => {
    await people.closeAll();
    await server.close();
  });

  const as = (name: string) => ({ token: p[name]!.token });
  const state = async () => (await server.call(getRoomAndJoinRoom, { searchValue: p.host1!.userId }, as('user1'))).data!.liveRoomState;
  const notifications = (socket: HubSocket, attachType: number) => socket.pushes
    .filter((push) => push.type === 'notification')
    .map((push) => (push.notification as { content: Record<string, unknown> }).content)
    .filter((content) => content.attachType === attachType);

  it('keeps a beating room live past the window, and ends it within the window once the beats stop (44 to the host)', async () => {
    const im = await people.im(p.host1!);
    const room = (await server.call(beginLiveRoom, { title: 'Short', privateCallOpen: true }, as('host1'))).data!;
    expect(room.heartbeatWindowMs).toBe(WINDOW_MS);
    expect(room.heartbeatIntervalMs).toBe(WINDOW_MS / 3);
    const chat = await hubSocket(server, RealtimePath.chatroom);
    await chat.call('enter', { roomId: room.yxRoomId, account: p.user1!.yxAccid, token: p.user1!.imToken, nick: 'u1' });

    const beatUntil = Date.now() + WINDOW_MS * 2;
    while (Date.now() < beatUntil) {
      expect((await server.call(liveHeartBeatV2, { yxRoomId: room.yxRoomId }, as('host1'))).data!.ended).toBe(false);
      await sleep(room.heartbeatIntervalMs);
    }
    expect(await state()).toBe(0);

    const lastBeat = Date.now();
    await server.call(liveHeartBeatV2, {}, as('host1'));
    await until(async () => (await state()) === 1, WINDOW_MS * 4);
    const endedAt = db.prepare<[string], { ended_at: number; end_cause: string }>(
      'SELECT ended_at, end_cause FROM live_rooms WHERE agora_channel_id = ?',
    ).get(room.agoraChannelId)!;
    expect(endedAt.end_cause).toBe(LiveEndCause.heartbeat);
    expect(endedAt.ended_at - lastBeat).toBeGreaterThanOrEqual(WINDOW_MS - 50);
    expect(endedAt.ended_at - lastBeat).toBeLessThan(WINDOW_MS + 400);
    await until(() => notifications(im, AttachType.liveForcedEnd).length === 1);
    expect(notifications(im, AttachType.liveForcedEnd)[0]).toEqual({
      attachType: 44, code: LIVE_FORCED_END_CODE, agoraChannelId: room.agoraChannelId, yxRoomId: room.yxRoomId, endCause: LiveEndCause.heartbeat,
    });
    await until(() => chat.pushes.some((push) => push.type === 'closed' && push.reason === 'roomClosed'));
    expect((await server.call(liveHeartBeatV2, {}, as('host1'))).data!.ended).toBe(true);
    expect(server.app.live.timerCount()).toBe(0);
    await chat.close();
  });

  it('sends 63 / 64 and forces an end with 44 through the dev-shell hooks', async () => {
    const im = await people.im(p.host2!);
    const room = (await server.call(beginLiveRoom, { title: 'Boost', privateCallOpen: true }, as('host2'))).data!;
    const post = (path: string, body: object) => fetch(`${server.base}/shell/api/live/${path}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    expect(await (await post('boost', { userId: p.host2!.userId, on: true })).json())
      .toEqual({ sent: { attachType: 63, agoraChannelId: room.agoraChannelId } });
    expect((await post('boost', { account: p.host2!.yxAccid, on: false })).status).toBe(200);
    expect((await post('boost', { account: 'user1@example.com', on: true })).status).toBe(404);
    await until(() => notifications(im, 64).length === 1);
    expect(notifications(im, 63)).toEqual([{ attachType: 63, agoraChannelId: room.agoraChannelId }]);

    // Keep it beating: the service, not the window, ends it.
    await server.call(liveHeartBeatV2, {}, as('host2'));
    expect(await (await post('forceEnd', { account: 'host2@example.com' })).json()).toEqual({ ended: true });
    expect(await (await post('forceEnd', { account: 'host2@example.com' })).json()).toEqual({ ended: false });
    await until(() => notifications(im, AttachType.liveForcedEnd).length === 1);
    expect(notifications(im, AttachType.liveForcedEnd)[0]).toMatchObject({ code: LIVE_FORCED_END_CODE, endCause: LiveEndCause.service });
    expect((await server.call(queryLiveStat, {}, as('host2'))).data).toMatchObject({ liveRoomState: 1, endCause: LiveEndCause.service });
  });
});

describe('[§3 Live info whoBlock 2] a restart keeps the host\'s gags of a room that is still live', () => {
  const dir = mkdtempSync(join(tmpdir(), 'anchor-live-restart-'));
  const dbPath = join(dir, 'app.db');
  const start = () => startTestServer({ build: false, dbPath, seed: { hosts: 1, users: 2 } });

  it('opens the room again with the gags; an ungag after the restart is kept, and an end clears them', async () => {
    let server = await start();
    let people = callPeople(server);
    const p: Record<string, Person> = {};
    for (const name of ['host1', 'user1', 'user2']) p[name] = await people.signIn(`${name}@example.com`);
    const as = (name: string) => ({ token: p[name]!.token });
    const join = async (viewer: string) => (await server.call(getRoomAndJoinRoom, { searchValue: p.host1!.userId }, as(viewer))).data!;
    const enter = async (name: string, roomId: string) => {
      const socket = await hubSocket(server, RealtimePath.chatroom);
      await socket.call('enter', { roomId, account: p[name]!.yxAccid, token: p[name]!.imToken, nick: name });
      return socket;
    };
    const room = (await server.call(beginLiveRoom, { title: 'Kept', privateCallOpen: true }, as('host1'))).data!;
    const hostChat = await enter('host1', room.yxRoomId);
    await hostChat.call('setGagged', { roomId: room.yxRoomId, account: p.user1!.yxAccid, gagged: true });
    await hostChat.call('setGagged', { roomId: room.yxRoomId, account: p.user2!.yxAccid, gagged: true });
    await hostChat.call('setGagged', { roomId: room.yxRoomId, account: p.user2!.yxAccid, gagged: false });
    await hostChat.close();
    await people.closeAll();
    await server.close();

    server = await start();
    people = callPeople(server);
    for (const name of ['host1', 'user1', 'user2']) p[name] = await people.signIn(`${name}@example.com`);
    expect(server.app.realtime.chatrooms.isOpen(room.yxRoomId)).toBe(true);
    expect(await join('user1')).toMatchObject({ whoBlock: WhoBlock.host, isBlockUser: true });
    expect(await join('user2')).toMatchObject({ whoBlock: WhoBlock.none, isBlockUser: false });
    const u1Chat = await enter('user1', room.yxRoomId);
    await expect(u1Chat.call('send', { roomId: room.yxRoomId, text: 'hi' })).rejects.toThrow(/gagged/);

    const hostChat2 = await enter('host1', room.yxRoomId);
    await hostChat2.call('setGagged', { roomId: room.yxRoomId, account: p.user1!.yxAccid, gagged: false });
    await u1Chat.call('send', { roomId: room.yxRoomId, text: 'hi' });
    await hostChat2.call('setGagged', { roomId: room.yxRoomId, account: p.user2!.yxAccid, gagged: true });
    const db = server.readDb();
    expect(db.prepare('SELECT count(*) FROM live_room_gags').pluck().get()).toBe(1);
    expect((await server.call(endLiveRoom, {}, as('host1'))).code).toBe(ResultCode.success);
    expect(db.prepare('SELECT count(*) FROM live_room_gags').pluck().get()).toBe(0);
    await Promise.all([u1Chat.close(), hostChat2.close()]);
    await people.closeAll();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
