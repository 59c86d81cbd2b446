import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_DIAMOND_NOT_ENOUGH, MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import { endpoints, type RequestOf } from '../../src/api/contract';
import {
  TEXT_PRIVATE_EMPTY, TEXT_PRIVATE_HOSTS_ONLY, TEXT_PRIVATE_MEDIA_INVALID, TEXT_PRIVATE_NOT_FOUND, TEXT_PRIVATE_REFUSED,
  TEXT_PRIVATE_TO_SELF,
} from '../../src/api/contract/private-msg';
import { SEED_PASSWORD } from '../db/seed';
import { device, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_INVALID_REQUEST, TEXT_SESSION_EXPIRED } from './transport';

const { uploadPrivateInfo, privateInfo, blockUser, removeBlockUser, login } = endpoints;

interface Person { userId: number; token: string; accid: string }

let server: TestServer;
const people: Record<string, Person> = {};
beforeAll(async () => {
  // cdn.example is the deployment's media host (MEDIA_HOSTS).
  server = await startTestServer({ build: false, mediaHosts: ['cdn.example'] });
  const db = server.readDb();
  for (const name of ['host1', 'host2', 'user1', 'user2', 'user3', 'user4']) {
    const res = await server.call(login, { ...device, account: `${name}@example.com`, password: SEED_PASSWORD });
    const accid = db.prepare('SELECT yx_accid FROM users WHERE id = ?').pluck().get(res.data!.userId) as string;
    people[name] = { userId: res.data!.userId, token: res.data!.token, accid };
  }
});
afterAll(() => server.close());

const p = (name: string) => people[name]!;
const wallet = (userId: number) =>
  server.readDb().prepare('SELECT diamonds, income FROM wallets WHERE user_id = ?').get(userId) as { diamonds: number; income: number };
const count = (sql: string, ...args: unknown[]) => server.readDb().prepare(sql).pluck().get(...args) as number;

const upload = async (from: string, body: Partial<RequestOf<typeof uploadPrivateInfo>> & { to: string }) => {
  const res = await server.call(uploadPrivateInfo, { price: 30, content: 'For you only', ...body }, { token: p(from).token });
  expect(res.code).toBe(ResultCode.success);
  return res.data!.id;
};

describe('[§7] /api/payPrivateMsg/uploadPrivateInfo', () => {
  it('stores a host\'s secret message for one recipient and answers the IM ext to send', async () => {
    const res = await server.call(uploadPrivateInfo, {
      to: p('user1').accid, price: 25, content: '  A picture for you  ',
      mediaList: [{ mediaType: 1, mediaUrl: 'https://cdn.example/p.jpg' }, { mediaType: 2, mediaUrl: '/avatars/host1-video.svg' }],
    }, { token: p('host1').token });
    expect(res.code).toBe(ResultCode.success);
    const id = res.data!.id;
    expect(res.data).toEqual({ id, price: 25, ext: { extensionType: 'privateMsg', data: { id, price: 25 } } });
    expect(server.readDb().prepare('SELECT sender_id, recipient_id, price, content FROM private_messages WHERE id = ?').get(id))
      .toEqual({ sender_id: p('host1').userId, recipient_id: p('user1').userId, price: 25, content: 'A picture for you' });
  });

  it('refuses with a clear message: not a host, to yourself, to nobody, nothing in it, refused by a block', async () => {
    const cases: [string, RequestOf<typeof uploadPrivateInfo>, string][] = [
      ['user1', { to: p('host1').accid, price: 10, content: 'hi' }, TEXT_PRIVATE_HOSTS_ONLY],
      ['host1', { to: p('host1').accid, price: 10, content: 'hi' }, TEXT_PRIVATE_TO_SELF],
      ['host1', { to: 'yx-nobody', price: 10, content: 'hi' }, MESSAGE_NO_MATCH_USER],
      ['host1', { to: p('user1').accid, price: 10, content: '   ' }, TEXT_PRIVATE_EMPTY],
      ['host1', { to: p('user1').accid, price: 10, mediaList: [] }, TEXT_PRIVATE_EMPTY],
      // The recipient's app would load these: plain http, or another server than the media hosts.
      ['host1', { to: p('user1').accid, price: 10, mediaList: [{ mediaType: 1, mediaUrl: 'http://cdn.example/a.jpg' }] },
        TEXT_PRIVATE_MEDIA_INVALID],
      ['host1', { to: p('user1').accid, price: 10, mediaList: [{ mediaType: 1, mediaUrl: 'https://tracker.example.net/a.jpg' }] },
        TEXT_PRIVATE_MEDIA_INVALID],
      ['host1', { to: p('user1').accid, price: 10, mediaList: [{ mediaType: 1, mediaUrl: '/api/upload' }] }, TEXT_PRIVATE_MEDIA_INVALID],
    ];
    for (const [from, body, message] of cases) {
      expect(await server.call(uploadPrivateInfo, body, { token: p(from).token })).toEqual({ code: ResultCode.invalidRequest, message });
    }
    await server.call(blockUser, { beBlockUserId: p('host2').userId }, { token: p('user2').token });
    try {
      const res = await server.call(uploadPrivateInfo, { to: p('user2').accid, price: 10, content: 'hi' }, { token: p('host2').token });
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_PRIVATE_REFUSED });
    } finally {
      await server.call(removeBlockUser, { beBlockUserId: p('host2').userId }, { token: p('user2').token });
    }
  });

  it('[1000] refuses a price of 0, over 10 000 or not whole, and a bad media URL; [1005] needs a session', async () => {
    const bad = [
      { to: p('user1').accid, price: 0, content: 'hi' },
      { to: p('user1').accid, price: 10_001, content: 'hi' },
      { to: p('user1').accid, price: 1.5, content: 'hi' },
      { to: p('user1').accid, price: 5, mediaList: [{ mediaType: 1, mediaUrl: 'javascript:alert(1)' }] },
      { to: p('user1').accid, price: 5, mediaList: [{ mediaType: 3, mediaUrl: 'https://cdn.example/a.jpg' }] },
      { price: 5, content: 'hi' },
    ];
    for (const body of bad) {
      const res = await server.call(uploadPrivateInfo, body as never, { token: p('host1').token });
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    }
    const res = await server.call(uploadPrivateInfo, { to: p('user1').accid, price: 5, content: 'hi' });
    expect(res).toEqual({ code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED });
  });
});

describe('[§7] /api/payPrivateMsg/privateInfo', () => {
  it('shows the recipient a locked message, then on pay takes the price once and opens it; the host earns it', async () => {
    const id = await upload('host1', {
      to: p('user1').accid, price: 40, content: 'Secret', mediaList: [{ mediaType: 1, mediaUrl: 'https://cdn.example/s.jpg' }],
    });
    const before = { user: wallet(p('user1').userId), host: wallet(p('host1').userId) };

    const locked = await server.call(privateInfo, { id }, { token: p('user1').token });
    expect(locked.data).toMatchObject({
      id, senderUserId: p('host1').userId, senderYxAccid: p('host1').accid, to: p('user1').accid, price: 40,
      unlocked: false, content: null, mediaList: [], balance: before.user.diamonds,
    });

    const paid = await server.call(privateInfo, { id, pay: true, idempotencyKey: randomUUID() }, { token: p('user1').token });
    expect(paid.data).toMatchObject({
      unlocked: true, content: 'Secret', mediaList: [{ mediaType: 1, mediaUrl: 'https://cdn.example/s.jpg' }],
      balance: before.user.diamonds - 40,
    });
    expect(wallet(p('user1').userId).diamonds).toBe(before.user.diamonds - 40);
    expect(wallet(p('host1').userId).income).toBe(before.host.income + 40);

    // Paying again, or looking again, is free.
    expect((await server.call(privateInfo, { id, pay: true, idempotencyKey: randomUUID() }, { token: p('user1').token })).data).toMatchObject({ unlocked: true, balance: before.user.diamonds - 40 });
    expect((await server.call(privateInfo, { id }, { token: p('user1').token })).data).toMatchObject({ unlocked: true, content: 'Secret' });
    expect(wallet(p('user1').userId).diamonds).toBe(before.user.diamonds - 40);
    expect(count('SELECT count(*) FROM wallet_flows WHERE ref_id = ?', id)).toBe(2);
    expect(server.readDb().prepare('SELECT user_id, account, amount FROM wallet_flows WHERE ref_id = ? ORDER BY id').all(id)).toEqual([
      { user_id: p('user1').userId, account: 'diamonds', amount: -40 },
      { user_id: p('host1').userId, account: 'income', amount: 40 },
    ]);
  });

  it('shows the sender their own message open, without taking anything', async () => {
    const id = await upload('host2', { to: p('user1').accid, price: 15, content: 'Mine' });
    const res = await server.call(privateInfo, { id, pay: true, idempotencyKey: randomUUID() }, { token: p('host2').token });
    expect(res.data).toMatchObject({ unlocked: true, content: 'Mine', balance: 0 });
    expect(count('SELECT count(*) FROM private_message_unlocks WHERE private_message_id = ?', id)).toBe(0);
  });

  it('[§8 1080 diamond.not.enough] takes nothing and opens nothing when the balance is short', async () => {
    const id = await upload('host1', { to: p('user4').accid, price: 10 });
    const res = await server.call(privateInfo, { id, pay: true, idempotencyKey: randomUUID() }, { token: p('user4').token });
    expect(res).toEqual({ code: ResultCode.balanceInsufficient, message: MESSAGE_DIAMOND_NOT_ENOUGH });
    expect(count('SELECT count(*) FROM private_message_unlocks WHERE private_message_id = ?', id)).toBe(0);
    expect(count('SELECT count(*) FROM wallet_flows WHERE ref_id = ?', id)).toBe(0);
    expect((await server.call(privateInfo, { id }, { token: p('user4').token })).data).toMatchObject({ unlocked: false, balance: 0 });
  });

  it('pays once for 20 parallel payments of one message', async () => {
    const id = await upload('host2', { to: p('user2').accid, price: 30 });
    const before = { user: wallet(p('user2').userId).diamonds, host: wallet(p('host2').userId).income };
    const results = await Promise.all(
      Array.from({ length: 20 }, () => server.call(privateInfo, { id, pay: true, idempotencyKey: randomUUID() }, { token: p('user2').token })),
    );
    expect(results.every((r) => r.code === ResultCode.success && r.data!.unlocked)).toBe(true);
    expect(wallet(p('user2').userId).diamonds).toBe(before.user - 30);
    expect(wallet(p('host2').userId).income).toBe(before.host + 30);
    expect(count('SELECT count(*) FROM wallet_flows WHERE ref_id = ?', id)).toBe(2);
  });

  it('never goes below zero: of 5 parallel payments of 20 with 50 diamonds, 2 pass and 3 are refused', async () => {
    const start = wallet(p('user3').userId).diamonds;
    expect(start).toBe(50);
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await upload('host1', { to: p('user3').accid, price: 20, content: `Secret ${i}` }));
    const results = await Promise.all(ids.map((id) => server.call(privateInfo, { id, pay: true, idempotencyKey: randomUUID() }, { token: p('user3').token })));
    expect(results.filter((r) => r.code === ResultCode.success)).toHaveLength(2);
    expect(results.filter((r) => r.code === ResultCode.balanceInsufficient)).toHaveLength(3);
    expect(wallet(p('user3').userId).diamonds).toBe(10);
    expect(count('SELECT count(*) FROM private_message_unlocks WHERE user_id = ?', p('user3').userId)).toBe(2);
    const flows = server.readDb().prepare("SELECT balance FROM wallet_flows WHERE user_id = ? AND reason <> 'seed.opening' ORDER BY id").pluck().all(p('user3').userId);
    expect(flows).toEqual([30, 10]);
  });

  it('answers anyone but the sender and the recipient, and an unknown id, as not found', async () => {
    const id = await upload('host1', { to: p('user1').accid, price: 5 });
    for (const [who, msgId] of [['user2', id], ['host2', id], ['user1', 987_654]] as const) {
      for (const body of [{ id: msgId }, { id: msgId, pay: true as const, idempotencyKey: randomUUID() }]) {
        const res = await server.call(privateInfo, body, { token: p(who).token });
        expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_PRIVATE_NOT_FOUND });
      }
    }
  });

  it('[1000] refuses a bad id; [1005] needs a session', async () => {
    // A payment without its idempotency key, or with one too short, is no valid request either.
    for (const body of [{ id: 0 }, { id: '1' }, {}, { id: 1, pay: 'yes' }, { id: 1, pay: true }, { id: 1, pay: true, idempotencyKey: 'short' }]) {
      const res = await server.call(privateInfo, body as never, { token: p('user1').token });
      expect(res).toEqual({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
    }
    expect((await server.call(privateInfo, { id: 1 })).code).toBe(ResultCode.authFailed);
  });
});
