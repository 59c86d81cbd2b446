import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { PresenceCode } from '../../machines/ports/presence.port';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { MailType, MAX_BATCH_IDS, OnlineGroupStatus, TEXT_TOO_MANY_IDS } from '../../src/api/contract/news';
import { RealtimePath } from '../../src/api/contract/realtime';
import { CUSTOMER_SERVICE, SEED_PASSWORD } from '../db/seed';
import { device, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_INVALID_REQUEST, TEXT_SESSION_EXPIRED } from './transport';

const { loadList, batchQueryYxStat, batchQueryYxStatByUid, blockUser, login, visit } = endpoints;

let server: TestServer;
let user1: string;
let host1: string;
let accid: (userId: number) => string;
beforeAll(async () => {
  server = await startTestServer({ build: false });
  const signIn = async (account: string) =>
    (await server.call(login, { ...device, account, password: SEED_PASSWORD })).data!.token;
  [user1, host1] = await Promise.all([signIn('user1@example.com'), signIn('host1@example.com')]);
  const db = server.readDb();
  const byId = db.prepare<[number], string>('SELECT yx_accid FROM users WHERE id = ?').pluck();
  accid = (id) => byId.get(id)!;
});
afterAll(() => server.close());

describe('[§7] /api/sysmail/loadList', () => {
  it('pages the caller\'s system mail and the station messages together, newest first', async () => {
    // Three system mails and twelve station messages.
    const first = await server.call(loadList, { currentPage: 1, pageSize: 10 }, { token: user1 });
    expect(first.code).toBe(ResultCode.success);
    expect(first.data).toMatchObject({ total: 15, currentPage: 1, pageSize: 10 });
    expect(first.data!.list).toHaveLength(10);
    const second = await server.call(loadList, { currentPage: 2, pageSize: 10 }, { token: user1 });
    // A page shorter than pageSize is the last one (SPEC §4 paging).
    expect(second.data!.list).toHaveLength(5);
    const all = [...first.data!.list, ...second.data!.list];
    expect(new Set(all.map((m) => m.id)).size).toBe(15);
    const times = all.map((m) => m.createTime);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const third = await server.call(loadList, { currentPage: 3, pageSize: 10 }, { token: user1 });
    expect(third.data).toMatchObject({ list: [], total: 15 });
  });

  it('filters by mailType: system mail is the caller\'s own, station messages are everyone\'s', async () => {
    const system = await server.call(loadList, { currentPage: 1, pageSize: 10, mailType: MailType.system }, { token: user1 });
    expect(system.data!.list.map((m) => m.title)).toEqual(['Stay safe', 'First recharge bonus', 'Welcome, Alex!']);
    const hostSystem = await server.call(loadList, { currentPage: 1, pageSize: 10, mailType: MailType.system }, { token: host1 });
    expect(hostSystem.data!.list.at(-1)!.title).toBe('Welcome, Sofia!');
    const station = await server.call(loadList, { currentPage: 1, pageSize: 10, mailType: MailType.station }, { token: host1 });
    expect(station.data!.total).toBe(12);
    expect(station.data!.list).toHaveLength(10);
    expect(station.data!.list.slice(0, 3).map((m) => m.title)).toEqual(['New: secret messages', 'Scheduled maintenance', 'Community guidelines']);
    expect(station.data!.list.every((m) => m.mailType === MailType.station)).toBe(true);
  });

  it('gives someone who signed up later the station messages only', async () => {
    const visitor = await server.call(visit, { ...device, deviceId: 'news-visitor' });
    const res = await server.call(loadList, { currentPage: 1, pageSize: 10 }, { token: visitor.data!.token });
    expect(res.data!.total).toBe(12);
    expect(res.data!.list.every((m) => m.mailType === MailType.station)).toBe(true);
  });

  it('[§8 1005] needs a session', async () => {
    const res = await server.call(loadList, { currentPage: 1, pageSize: 10 });
    expect(res).toEqual({ code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED });
  });

  it('[1000] refuses a page size of 0 or over 100, a page 0 and an unknown mailType', async () => {
    const bad = [
      { currentPage: 1, pageSize: 0 }, { currentPage: 1, pageSize: 101 }, { currentPage: 0, pageSize: 10 },
      { currentPage: 1.5, pageSize: 10 }, { currentPage: 1, pageSize: 10, mailType: 3 },
    ];
    for (const body of bad) {
      const res = await server.call(loadList, body as never, { token: user1 });
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    }
  });
});

/** A minimal client of the hub's presence socket. */
async function presenceSocket(token: string) {
  const ws = new WebSocket(server.base.replace(/^http/, 'ws') + RealtimePath.presence);
  const replies = new Map<number, { ok: boolean }>();
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { id?: unknown; ok: boolean };
    if (typeof frame.id === 'number') replies.set(frame.id, frame);
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let nextId = 1;
  const call = async (op: string, args: object) => {
    const id = nextId++;
    ws.send(JSON.stringify({ id, op, ...args }));
    const reply = await vi.waitFor(() => replies.get(id) ?? Promise.reject(new Error('no reply yet')));
    expect(reply.ok).toBe(true);
  };
  await call('auth', { token });
  return { status: (code: PresenceCode) => call('status', { code }), close: () => ws.close() };
}

describe('[§7] /api/anchor/batchQueryYxStat and batchQueryYxStatByUid', () => {
  it('answers profiles keyed by IM account, offline (3) by default, leaving out customer service and unknown accounts', async () => {
    const ids = [accid(100001), accid(200002), CUSTOMER_SERVICE.yxAccid, 'yx-nobody'];
    const res = await server.call(batchQueryYxStat, { yxAccids: ids }, { token: user1 });
    expect(res.code).toBe(ResultCode.success);
    expect(Object.keys(res.data!).sort()).toEqual([accid(100001), accid(200002)].sort());
    expect(res.data![accid(100001)]).toEqual({
      userId: 100001, yxAccid: accid(100001), onlineGroupStatus: OnlineGroupStatus.offline, nickname: 'Sofia',
      icon: '/avatars/host1.svg', userType: 2, userLevel: 1, isVip: false, isBlockUser: false, living: false,
    });
    expect(res.data![accid(200002)]).toMatchObject({ userId: 200002, nickname: 'Ben', userType: 1, isVip: true });
  });

  it('answers the same keyed by user id', async () => {
    const res = await server.call(batchQueryYxStatByUid, { userIds: [100002, 200001, 999_999, 100002] }, { token: user1 });
    expect(Object.keys(res.data!).sort()).toEqual(['100002', '200001']);
    expect(res.data!['100002']).toMatchObject({ userId: 100002, yxAccid: accid(100002), nickname: 'Amara', userLevel: 2 });
  });

  it('[§4 presence] follows the hub: foreground is online (1), calling busy (2), offline and background offline (3)', async () => {
    const host2 = (await server.call(login, { ...device, account: 'host2@example.com', password: SEED_PASSWORD })).data!.token;
    const socket = await presenceSocket(host2);
    const status = async () =>
      (await server.call(batchQueryYxStatByUid, { userIds: [100002] }, { token: user1 })).data!['100002']!.onlineGroupStatus;
    try {
      await socket.status(PresenceCode.foreground);
      expect(await status()).toBe(OnlineGroupStatus.online);
      await socket.status(PresenceCode.calling);
      expect(await status()).toBe(OnlineGroupStatus.busy);
      await socket.status(PresenceCode.callEnd);
      expect(await status()).toBe(OnlineGroupStatus.online);
      await socket.status(PresenceCode.background);
      expect(await status()).toBe(OnlineGroupStatus.offline);
      await socket.status(PresenceCode.offline);
      expect(await status()).toBe(OnlineGroupStatus.offline);
    } finally {
      socket.close();
    }
  });

  it('marks the people the caller blocked', async () => {
    const host3 = (await server.call(login, { ...device, account: 'host3@example.com', password: SEED_PASSWORD })).data!.token;
    expect((await server.call(blockUser, { beBlockUserId: 200003 }, { token: host3 })).code).toBe(ResultCode.success);
    const mine = await server.call(batchQueryYxStatByUid, { userIds: [200003, 200004] }, { token: host3 });
    expect(mine.data!['200003']!.isBlockUser).toBe(true);
    expect(mine.data!['200004']!.isBlockUser).toBe(false);
    const others = await server.call(batchQueryYxStatByUid, { userIds: [200003] }, { token: user1 });
    expect(others.data!['200003']!.isBlockUser).toBe(false);
  });

  it(`[§9] takes ${MAX_BATCH_IDS} ids and refuses ${MAX_BATCH_IDS + 1} with a clear message`, async () => {
    const hundred = Array.from({ length: MAX_BATCH_IDS }, (_, i) => 100001 + i);
    expect((await server.call(batchQueryYxStatByUid, { userIds: hundred }, { token: user1 })).code).toBe(ResultCode.success);
    const tooMany = await server.call(batchQueryYxStatByUid, { userIds: [...hundred, 200001] }, { token: user1 });
    expect(tooMany).toEqual({ code: ResultCode.invalidRequest, message: TEXT_TOO_MANY_IDS });
    const accids = Array.from({ length: MAX_BATCH_IDS + 1 }, (_, i) => `yx${i}`);
    expect(await server.call(batchQueryYxStat, { yxAccids: accids }, { token: user1 })).toEqual(tooMany);
  });

  it('[1000] refuses an empty list and ids of the wrong type; [1005] needs a session', async () => {
    for (const body of [{ userIds: [] }, { userIds: ['100001'] }, { userIds: [0] }, {}]) {
      const res = await server.call(batchQueryYxStatByUid, body as never, { token: user1 });
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    }
    expect((await server.call(batchQueryYxStat, { yxAccids: [''] }, { token: user1 })).code).toBe(ResultCode.invalidRequest);
    expect((await server.call(batchQueryYxStat, { yxAccids: ['x'] })).code).toBe(ResultCode.authFailed);
    expect((await server.call(batchQueryYxStatByUid, { userIds: [1] })).code).toBe(ResultCode.authFailed);
  });
});
