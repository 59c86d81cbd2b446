/**
 * Idempotent money requests (src/api/contract/idempotency.ts, idempotency.ts) over real HTTP:
 * exact replays of a gift sent at once pay once, a retry after the server was killed mid-load
 * pays once, a replayed createCall answers the same call, a replayed joinCall charges the first
 * period once (and answers as it did after the call ended), a secret-message payment replayed
 * pays once, a key reused for another request is refused, a refusal is not stored. Expiry and
 * purging are checked on the store itself with a clock the test moves.
 */
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { createServer as netServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGE_DIAMOND_NOT_ENOUGH, ResultCode } from '../../src/api/codes';
import { endpoints, type Endpoint } from '../../src/api/contract';
import { CallStatus } from '../../machines/codes/call.codes';
import { IDEMPOTENCY_WINDOW_MS, TEXT_IDEMPOTENCY_KEY_REUSED } from '../../src/api/contract/idempotency';
import type { AuthSession } from '../auth/sessions';
import { serverProcess } from '../../tests/e2e/server-process';
import { openDatabase } from '../db/database';
import { SEED_PASSWORD } from '../db/seed';
import { callWorld, writeDb } from '../testing/calls';
import { apiHeaders, codec, device } from '../testing/harness';
import { createIdempotency } from './idempotency';
import { ApiError, TEXT_INVALID_REQUEST } from './transport';

const { sendGift, createCall, joinCall, endCall, uploadPrivateInfo, privateInfo, login } = endpoints;

const world = callWorld({
  seed: { hosts: 3, users: 4 },
  signIn: ['host1', 'host2', 'host3', 'user1', 'user2', 'user3'],
  present: ['host1', 'host2', 'host3'],
});
const { p } = world;

const as = (name: string) => ({ token: p[name]!.token });
const id = (name: string) => p[name]!.userId;
const wallet = (name: string) =>
  world.db.prepare<[number], { diamonds: number; income: number }>('SELECT diamonds, income FROM wallets WHERE user_id = ?').get(id(name))
  ?? { diamonds: 0, income: 0 };
const setDiamonds = (name: string, diamonds: number) =>
  world.rw.prepare('INSERT INTO wallets (user_id, diamonds) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE SET diamonds = excluded.diamonds')
    .run(id(name), diamonds);
const count = (sql: string, ...args: unknown[]) => world.db.prepare(sql).pluck().get(...args) as number;

/** The same ciphertext posted `times` times at once, as a replay sends it; the decrypted answers. */
async function replayed(endpoint: Endpoint, body: object, who: string, times: number): Promise<string[]> {
  const wire = codec.encrypt(JSON.stringify(body));
  const answers = await Promise.all(Array.from({ length: times }, () => world.server.post(endpoint.path, wire, apiHeaders(as(who)))));
  return answers.map((a) => {
    expect(a.status).toBe(200);
    return a.plain!;
  });
}

describe('[money] exact replays', () => {
  it('of one gift, 300 at once, pay once and all answer what the first answered', async () => {
    setDiamonds('user1', 1000);
    const before = { user: wallet('user1'), host: wallet('host1'), sends: count('SELECT count(*) FROM gift_sends WHERE sender_id = ?', id('user1')) };
    const body = { toUserId: id('host1'), giftId: 2, giftNum: 3, idempotencyKey: randomUUID() };
    const answers = await replayed(sendGift, body, 'user1', 300);

    const first = JSON.parse(answers[0]!) as { code: string; data: { value: number; balance: number } };
    expect(first.code).toBe(ResultCode.success);
    expect(new Set(answers).size).toBe(1);
    const value = first.data.value;
    expect(value).toBeGreaterThan(0);
    expect(first.data.balance).toBe(before.user.diamonds - value);
    expect(wallet('user1').diamonds).toBe(before.user.diamonds - value);
    expect(wallet('host1').income).toBe(before.host.income + value);
    expect(count('SELECT count(*) FROM gift_sends WHERE sender_id = ?', id('user1'))).toBe(before.sends + 1);
  });

  it('of a createCall answer the same call, and leave it ringing (not replaced by a second one)', async () => {
    const body = { beCallUserId: id('host2'), callType: 0 as const, idempotencyKey: randomUUID() };
    const answers = await replayed(createCall, body, 'user2', 20);
    expect(new Set(answers).size).toBe(1);
    const { code, data } = JSON.parse(answers[0]!) as { code: string; data: { channelId: string } };
    expect(code).toBe(ResultCode.success);
    expect(count('SELECT count(*) FROM calls WHERE caller_id = ? AND callee_id = ?', id('user2'), id('host2'))).toBe(1);
    expect(count('SELECT status FROM calls WHERE channel_id = ?', data.channelId)).toBe(CallStatus.calling);
    await world.server.call(endCall, { channelId: data.channelId, hangupReason: 1 }, as('user2'));
  });

  it('of a joinCall charge the first period once, and answer as the first did after the call ended', async () => {
    setDiamonds('user3', 500);
    const placed = await world.server.call(createCall, { beCallUserId: id('host3'), callType: 0, idempotencyKey: randomUUID() }, as('user3'));
    expect(placed.code, placed.message).toBe(ResultCode.success);
    const { channelId, videoPrice } = placed.data!;
    const join = { searchValue: channelId, idempotencyKey: randomUUID() };
    const answers = await replayed(joinCall, join, 'host3', 50);
    expect(answers.map((a) => JSON.parse(a).code)).toEqual(answers.map(() => ResultCode.success));
    expect(wallet('user3').diamonds).toBe(500 - videoPrice);
    expect(count('SELECT count(*) FROM call_periods p JOIN calls c ON c.id = p.call_id WHERE c.channel_id = ?', channelId)).toBe(1);

    await world.server.call(endCall, { channelId, hangupReason: 1 }, as('user3'));
    // A late copy of the answered request (a retry whose first answer was lost) is answered, not refused as ended.
    const late = await replayed(joinCall, join, 'host3', 1);
    expect(late[0]).toBe(answers[0]);
    expect(wallet('user3').diamonds).toBe(500 - videoPrice);
  });

  it('of a secret-message payment pay once and answer the balance the first payment left', async () => {
    setDiamonds('user1', 300);
    const stored = await world.server.call(uploadPrivateInfo, { to: p.user1!.yxAccid, price: 25, content: 'Secret' }, as('host1'));
    const body = { id: stored.data!.id, pay: true as const, idempotencyKey: randomUUID() };
    const answers = await replayed(privateInfo, body, 'user1', 30);
    expect(new Set(answers).size).toBe(1);
    expect(JSON.parse(answers[0]!)).toMatchObject({ code: ResultCode.success, data: { unlocked: true, content: 'Secret', balance: 275 } });
    expect(wallet('user1').diamonds).toBe(275);
  });
});

describe('[money] one key, one request', () => {
  it('refuses the key of a gift sent again with another gift, moving nothing, and still answers the first', async () => {
    setDiamonds('user2', 200);
    const idempotencyKey = randomUUID();
    const first = await world.server.call(sendGift, { toUserId: id('host1'), giftId: 1, giftNum: 2, idempotencyKey }, as('user2'));
    expect(first.code).toBe(ResultCode.success);
    const sends = count('SELECT count(*) FROM gift_sends WHERE sender_id = ?', id('user2'));
    for (const other of [{ giftId: 2, giftNum: 2 }, { giftId: 1, giftNum: 3 }, { giftId: 1, giftNum: 2, toUserId: id('host2') }]) {
      const res = await world.server.call(sendGift, { toUserId: id('host1'), ...other, idempotencyKey }, as('user2'));
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_IDEMPOTENCY_KEY_REUSED });
    }
    expect(wallet('user2').diamonds).toBe(198);
    expect(count('SELECT count(*) FROM gift_sends WHERE sender_id = ?', id('user2'))).toBe(sends);
    expect(await world.server.call(sendGift, { toUserId: id('host1'), giftId: 1, giftNum: 2, idempotencyKey }, as('user2'))).toEqual(first);
  });

  it('is each person\'s own: the same key from someone else is their own request', async () => {
    setDiamonds('user1', 100);
    setDiamonds('user2', 100);
    const idempotencyKey = randomUUID();
    for (const who of ['user1', 'user2']) {
      const res = await world.server.call(sendGift, { toUserId: id('host1'), giftId: 1, giftNum: 1, idempotencyKey }, as(who));
      expect(res.data!.balance).toBe(99);
    }
  });

  it('stores no refusal: a retry after 1080 is evaluated again, pays once, and its replays pay nothing', async () => {
    setDiamonds('user3', 0);
    const body = { toUserId: id('host1'), giftId: 1, giftNum: 5, idempotencyKey: randomUUID() };
    expect(await world.server.call(sendGift, body, as('user3'))).toEqual({ code: ResultCode.balanceInsufficient, message: MESSAGE_DIAMOND_NOT_ENOUGH });
    setDiamonds('user3', 7);
    expect((await world.server.call(sendGift, body, as('user3'))).data!.balance).toBe(2);
    expect((await world.server.call(sendGift, body, as('user3'))).data!.balance).toBe(2);
    expect(wallet('user3').diamonds).toBe(2);
  });

  it('[1000] refuses a money request without a key, or with one that is not 16–64 of [A-Za-z0-9_-]', async () => {
    setDiamonds('user1', 100);
    const gift = { toUserId: id('host1'), giftId: 1, giftNum: 1 };
    for (const idempotencyKey of [undefined, '', 'short-key', 'x'.repeat(65), 'has spaces in it, 123', 'ключ-ключ-ключ-ключ']) {
      const res = await world.server.call(sendGift, { ...gift, idempotencyKey } as never, as('user1'));
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    }
    expect(wallet('user1').diamonds).toBe(100);
  });
});

describe('[money] the key store', () => {
  const session = (userId: number) => ({ session: { userId } as AuthSession });

  it(`answers replays within the window (${IDEMPOTENCY_WINDOW_MS / 3_600_000} h), then takes the key as new; expired keys are purged`, () => {
    const db = openDatabase(':memory:');
    db.pragma('foreign_keys = OFF');
    let now = 1_000_000;
    const keys = createIdempotency(db, { windowMs: 1_000, now: () => now });
    let runs = 0;
    const request = { ...session(7), body: { idempotencyKey: 'k'.repeat(16), giftId: 1 } };
    const send = () => keys.once(request, sendGift, () => ({ answer: { run: ++runs } }));

    expect(send()).toEqual({ run: 1 });
    now += 999;
    expect(send()).toEqual({ run: 1 });
    const other = { ...request, body: { ...request.body, giftId: 2 } };
    expect(() => keys.once(other, sendGift, () => ({ answer: {} })))
      .toThrow(new ApiError(ResultCode.invalidRequest, TEXT_IDEMPOTENCY_KEY_REUSED));
    // Another endpoint, another person: other requests.
    expect(keys.once(request, joinCall, () => ({ answer: { run: 'join' } }))).toEqual({ run: 'join' });
    expect(keys.once({ ...request, ...session(8) }, sendGift, () => ({ answer: { run: 'other' } }))).toEqual({ run: 'other' });
    now += 1;
    expect(send()).toEqual({ run: 2 });
    expect(runs).toBe(2);

    now += 5_000;
    expect(keys.purge()).toBe(3);
    expect(db.prepare('SELECT count(*) FROM idempotency_keys').pluck().get()).toBe(0);
    db.close();
  });

  it('stores nothing for a refusal, thrown or returned, and runs what a returned refusal did after the commit', () => {
    const db = openDatabase(':memory:');
    db.pragma('foreign_keys = OFF');
    const keys = createIdempotency(db);
    const request = { ...session(7), body: { idempotencyKey: 'r'.repeat(16) } };
    const refusal = new ApiError(ResultCode.balanceInsufficient, MESSAGE_DIAMOND_NOT_ENOUGH);
    expect(() => keys.once(request, joinCall, () => { throw refusal; })).toThrow(refusal);
    let after = 0;
    expect(() => keys.once(request, joinCall, () => ({ refusal, after: () => { after++; } }))).toThrow(refusal);
    expect(after).toBe(1);
    expect(db.prepare('SELECT count(*) FROM idempotency_keys').pluck().get()).toBe(0);
    expect(keys.once(request, joinCall, () => ({ answer: 'taken', after: () => { after++; } }))).toBe('taken');
    expect(after).toBe(2);
    // A replay runs nothing after.
    expect(keys.once(request, joinCall, () => ({ answer: 'again', after: () => { after++; } }))).toBe('taken');
    expect(after).toBe(2);
    db.close();
  });
});

/** A free loopback port for a server of its own. */
const freePort = () => new Promise<number>((resolve, reject) => {
  const probe = netServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  });
  probe.on('error', reject);
});

describe('[money] kill -9 mid-load, clients retrying what was not answered', () => {
  const GIFTS = 200;
  const KILLS = 3;
  const stops: (() => Promise<void>)[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it(`pays each of ${GIFTS} gifts once through ${KILLS} kills and restarts`, async () => {
    const port = await freePort();
    const name = `idempotency-kill-${process.pid}`;
    const server = serverProcess(port, name, { SEED_HOSTS: '1', SEED_USERS: '1' });
    stops.push(() => server.kill());
    // Where serverProcess keeps the database of a server of its own (tests/e2e/server-process.ts).
    const dir = `.tmp/e2e-${port}-${name}`;
    dirs.push(dir);
    await server.start();
    const dbPath = `${dir}/app.db`;
    const post = async (endpoint: Endpoint, body: object, token?: string, signal?: AbortSignal) => {
      const res = await fetch(server.baseURL + endpoint.path, {
        method: 'POST', headers: apiHeaders({ token }), body: codec.encrypt(JSON.stringify(body)), ...(signal ? { signal } : {}),
      });
      return JSON.parse(codec.decrypt(await res.text())) as { code: string; data?: { token?: string; userId?: number } };
    };
    const signIn = async (account: string) => (await post(login, { ...device, account, password: SEED_PASSWORD })).data!;
    const user = await signIn('user1@example.com');
    const host = await signIn('host1@example.com');
    const rw = writeDb({ dbPath });
    rw.prepare('UPDATE wallets SET diamonds = 1000000 WHERE user_id = ?').run(user.userId);
    const read: Database.Database = writeDb({ dbPath });
    const sent = () => read.prepare('SELECT count(*) FROM gift_sends WHERE sender_id = ?').pluck().get(user.userId) as number;
    const totals = () => read.prepare('SELECT sum(diamonds) + sum(income) FROM wallets').pluck().get() as number;
    const conserved = totals();
    // host1 starts with the seed's income.
    const incomeBefore = read.prepare('SELECT income FROM wallets WHERE user_id = ?').pluck().get(host.userId) as number;

    // Each gift is one intent: its body (and key) made once, sent again as it is until it is answered.
    const gifts = Array.from({ length: GIFTS }, (_, k) => ({ toUserId: host.userId!, giftId: 1, giftNum: 1 + (k % 3), idempotencyKey: randomUUID() }));
    const value = gifts.reduce((sum, g) => sum + g.giftNum, 0);
    let unanswered = gifts;
    let lost = 0;
    let retries = 0;
    for (let round = 0; unanswered.length > 0; round++) {
      if (round > 0) {
        await server.start();
        retries += unanswered.length;
      }
      const base = sent();
      const stop = new AbortController();
      const answered = new Set<object>();
      let settled = 0;
      const flights = unanswered.map((gift) => post(sendGift, gift, user.token, stop.signal).then((res) => {
        if (res.code !== ResultCode.success) throw new Error(`A gift was refused: ${JSON.stringify(res)}`);
        answered.add(gift);
      }, () => undefined).finally(() => settled++));
      if (round < KILLS) {
        // Once a third of what is in flight is done (paid now, or answered as paid before), the client reads
        // nothing for a moment while the server goes on; the answers on their way are then lost with the
        // connections, and the server is killed with the rest still in flight.
        const third = Math.ceil(unanswered.length / 3);
        while (sent() - base + answered.size < third && settled < unanswered.length) await new Promise((resolve) => setTimeout(resolve, 1));
        const until = Date.now() + 50;
        while (Date.now() < until) read.prepare('SELECT 1').get();
        stop.abort();
        await server.kill();
      }
      await Promise.all(flights);
      // Paid in the first round and not answered: each retry of these would pay again without its key.
      if (round === 0) lost = sent() - base - answered.size;
      unanswered = unanswered.filter((gift) => !answered.has(gift));
    }

    // Some answers of paid gifts were lost: without the key each of those retries would pay again.
    expect(lost).toBeGreaterThan(0);
    expect(retries).toBeGreaterThan(lost);
    expect(sent()).toBe(GIFTS);
    expect(read.prepare('SELECT diamonds FROM wallets WHERE user_id = ?').pluck().get(user.userId)).toBe(1_000_000 - value);
    expect(read.prepare('SELECT income FROM wallets WHERE user_id = ?').pluck().get(host.userId)).toBe(incomeBefore + value);
    expect(totals()).toBe(conserved);
    console.log(`[kill] ${KILLS} kills, ${GIFTS} gifts, ${retries} retries, ${lost} paid gifts unanswered at the first kill, ${sent() - GIFTS} paid twice`);
    rw.close();
    read.close();
  }, 180_000);
});
