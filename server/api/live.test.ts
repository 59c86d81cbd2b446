/**
 * The live lists (src/api/contract/live.ts). Nothing creates live rooms yet, so the lists
 * start empty; rooms written to `live_rooms` here stand for hosts who went live.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { LIVE_PAGE_SIZE } from '../../src/api/contract/live';
import { SEED_PASSWORD } from '../db/seed';
import { device, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_INVALID_REQUEST } from './transport';

const { queryLiveList, queryMyFollowLive, login, blockUser } = endpoints;

let server: TestServer;
let writer: Database.Database;
let user1: string;
beforeAll(async () => {
  server = await startTestServer({ build: false });
  writer = new Database(server.dbPath);
  writer.pragma('busy_timeout = 5000');
  user1 = (await server.call(login, { ...device, account: 'user1@example.com', password: SEED_PASSWORD })).data!.token;
});
afterAll(async () => {
  writer.close();
  await server.close();
});

const room = (userId: number, startedAt: number, state: 0 | 1 = 0) =>
  writer.prepare(
    `INSERT INTO live_rooms (user_id, agora_channel_id, yx_room_id, title, state, join_num, private_call_open, started_at)
     VALUES (?, ?, ?, ?, ?, 12, 1, ?)`,
  ).run(userId, `live-${userId}-${startedAt}`, `room-${userId}`, `Live with ${userId}`, state, startedAt);

describe('[§7] /api/agora/live/queryLiveList and queryMyFollowLive', () => {
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
      nickname: 'Mei', agoraChannelId: 'live-100004-3000', yxRoomId: 'room-100004', title: 'Live with 100004', joinNum: 12,
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
