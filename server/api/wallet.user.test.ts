/**
 * The user's wallet (reference-server additions to src/api/contract/wallet.ts: myWallet,
 * orderList, flowList) and the end of USDT orders past their deadline (on a look, and by the
 * server's sweep), over real HTTP against a started server; the orders module's expiry with an
 * injected clock.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttachType } from '../../machines/codes/system.codes';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import type { RequestOf } from '../../src/api/contract/endpoint';
import { MAX_WALLET_PAGE_SIZE } from '../../src/api/contract/wallet';
import { openDatabase } from '../db/database';
import { SEED_PASSWORD, seed } from '../db/seed';
import type { Synced } from '../realtime/im.store';
import { device, startTestServer, type TestServer } from '../testing/harness';
import { createWallets } from '../users/users';
import { CallFlowReason } from './billing';
import { FlowReason as PrivateMsgFlowReason } from './private-msg';
import { FlowReason as RechargeFlowReason, USDT_ORDER_WINDOW_MS, createOrders } from './wallet.orders';
import { SEED_OPENING_FLOW_REASON, flowKind } from './wallet.user';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ build: false, seed: { hosts: 2, users: 7 } });
});
afterAll(() => server.close());

async function tokenOf(account: string): Promise<string> {
  return (await server.call(endpoints.login, { ...device, account, password: SEED_PASSWORD })).data!.token;
}

/** Reads and writes the server's database beside it. */
function withDb<T>(act: (db: Database.Database) => T): T {
  const db = new Database(server.dbPath);
  try {
    return act(db);
  } finally {
    db.close();
  }
}
const userIdOf = (account: string) => withDb((db) => db.prepare('SELECT id FROM users WHERE account = ?').pluck().get(account) as number);

type OrderBody = RequestOf<typeof endpoints.createOrder>;
/** An order of the caller for a package's channel of everyone (card by default). */
async function order(token: string, { batch = 'P550', method = 'card', ...over }: { batch?: string; method?: string } & Partial<OrderBody> = {}) {
  const list = (await server.call(endpoints.rechargeListV4, {}, { token })).data!.list;
  const pkg = list.find((p) => p.batchNo === batch)!;
  const channel = pkg.subRechargeListItemVOList.find((c) => c.payMethodType === method && c.countryTypeId === 0)!;
  const res = await server.call(endpoints.createOrder, {
    frontCallbackUrl: '/wallet', paymentMethodType: channel.payMethodType, productId: channel.productId, channelId: channel.channelId,
    countryTypeId: channel.countryTypeId, vipFlag: pkg.vipFlag, idempotencyKey: `k-${Math.random().toString(36).slice(2)}-user-wallet`,
    ...(method === 'usdt' ? { chainName: 'TRC20' as const } : {}), ...over,
  }, { token });
  expect(res.code).toBe(ResultCode.success);
  return res.data!;
}
const sandbox = async (code: string, outcome: 'pay' | 'fail' | 'expire') =>
  (await fetch(`${server.base}/sandbox/pay/${code}/${outcome}`, { method: 'POST' })).json();

describe('[reference server] /api/wallet/user/myWallet', () => {
  it('answers a seeded user\'s diamonds, not VIP, never paid; paid after a sandbox-credited order', async () => {
    const token = await tokenOf('user1@example.com');
    const seeded = withDb((db) => db.prepare('SELECT diamonds FROM wallets WHERE user_id = ?').pluck().get(userIdOf('user1@example.com')) as number);
    expect((await server.call(endpoints.myWallet, {}, { token })).data).toEqual({ diamonds: seeded, isVip: false, paid: false });
    const { orderCode } = await order(token);
    // A pending or a declined order is not a payment.
    expect((await server.call(endpoints.myWallet, {}, { token })).data!.paid).toBe(false);
    expect(await sandbox(orderCode, 'pay')).toEqual({ credited: 650 });
    expect((await server.call(endpoints.myWallet, {}, { token })).data).toEqual({ diamonds: seeded + 650, isVip: false, paid: true });
  });

  it('is VIP after a credited VIP order', async () => {
    // Seeded users of an odd number are not VIP.
    const token = await tokenOf('user7@example.com');
    const { orderCode } = await order(token, { batch: 'VIP30' });
    expect((await server.call(endpoints.myWallet, {}, { token })).data!.isVip).toBe(false);
    await sandbox(orderCode, 'pay');
    expect((await server.call(endpoints.myWallet, {}, { token })).data).toMatchObject({ isVip: true, paid: true });
  });

  it('needs a session, and refuses visitors', async () => {
    expect((await server.call(endpoints.myWallet, {})).code).toBe(ResultCode.authFailed);
    const visitor = await server.call(endpoints.visit, device);
    expect((await server.call(endpoints.myWallet, {}, { token: visitor.data!.token })).code).toBe(ResultCode.visitorRefused);
  });
});

describe('[reference server] /api/wallet/user/orderList', () => {
  it('pages the caller\'s orders newest first with their status; a short page is the last; nobody else\'s', async () => {
    const token = await tokenOf('user3@example.com');
    const other = await order(await tokenOf('user4@example.com'));
    const made = [];
    for (const method of ['card', 'PayPal', 'usdt']) made.push(await order(token, { method }));
    await sandbox(made[0]!.orderCode, 'pay');
    await sandbox(made[1]!.orderCode, 'fail');
    const first = (await server.call(endpoints.orderList, { currentPage: 1, pageSize: 2 }, { token })).data!.list;
    const second = (await server.call(endpoints.orderList, { currentPage: 2, pageSize: 2 }, { token })).data!.list;
    expect([...first, ...second].map((o) => o.orderCode)).toEqual(made.map((o) => o.orderCode).reverse());
    expect(second).toHaveLength(1);
    expect(first[0]).toMatchObject({ payMethodType: 'usdt', price: '4.99', diamondNum: 500, vipFlag: false, status: 'pending' });
    expect(first[1]!.status).toBe('failed');
    expect(second[0]).toMatchObject({ payMethodType: 'card', status: 'paid' });
    expect(second[0]!.createdAt).toBeGreaterThan(Date.now() - 60_000);
    expect([...first, ...second].some((o) => o.orderCode === other.orderCode)).toBe(false);
    expect((await server.call(endpoints.orderList, { currentPage: 3, pageSize: 2 }, { token })).data!.list).toEqual([]);
  });

  it('[1000] refuses a page size of 0 or over the largest, and a page 0', async () => {
    const token = await tokenOf('user3@example.com');
    for (const body of [{ currentPage: 1, pageSize: 0 }, { currentPage: 1, pageSize: MAX_WALLET_PAGE_SIZE + 1 }, { currentPage: 0, pageSize: 10 }]) {
      expect((await server.call(endpoints.orderList, body, { token })).code, JSON.stringify(body)).toBe(ResultCode.invalidRequest);
      expect((await server.call(endpoints.flowList, body, { token })).code, JSON.stringify(body)).toBe(ResultCode.invalidRequest);
    }
  });
});

describe('[reference server] /api/wallet/user/flowList', () => {
  it('pages the caller\'s diamond entries newest first, each kind named, none of anybody else\'s', async () => {
    const account = 'user5@example.com';
    const token = await tokenOf(account);
    const userId = userIdOf(account);
    const { orderCode } = await order(token);
    await sandbox(orderCode, 'pay');
    // Spending as calls, gifts and secret messages write it, and a reason nobody named.
    withDb((db) => {
      const wallets = createWallets(db);
      wallets.spend(userId, 30, CallFlowReason.callPaid, null);
      wallets.spend(userId, 20, CallFlowReason.giftPaid, null);
      wallets.spend(userId, 5, PrivateMsgFlowReason.privateMsgPaid, null);
      wallets.earn(userId, 'diamonds', 1, 'something.new', null);
      // A host's income is not the person's diamonds.
      wallets.earn(userId, 'income', 7, CallFlowReason.callIncome, null);
    });
    const all = (await server.call(endpoints.flowList, { currentPage: 1, pageSize: MAX_WALLET_PAGE_SIZE }, { token })).data!.list;
    expect(all.map((f) => [f.kind, f.amount])).toEqual([
      ['other', 1], ['privateMessage', -5], ['gift', -20], ['call', -30],
      ['rechargeGift', 100], ['rechargeGift', 50], ['recharge', 500], ['opening', expect.any(Number)],
    ]);
    const diamonds = (await server.call(endpoints.myWallet, {}, { token })).data!.diamonds;
    expect(all[0]!.balance).toBe(diamonds);
    expect(all.reduce((sum, f) => sum + f.amount, 0)).toBe(diamonds);
    const owners = withDb((db) => all.map((f) => db.prepare('SELECT user_id FROM wallet_flows WHERE id = ?').pluck().get(f.id)));
    expect(new Set(owners)).toEqual(new Set([userId]));

    const page2 = (await server.call(endpoints.flowList, { currentPage: 2, pageSize: 3 }, { token })).data!.list;
    const page3 = (await server.call(endpoints.flowList, { currentPage: 3, pageSize: 3 }, { token })).data!.list;
    expect(page2.map((f) => f.id)).toEqual(all.slice(3, 6).map((f) => f.id));
    expect(page3.map((f) => f.id)).toEqual(all.slice(6).map((f) => f.id));
    expect(page3).toHaveLength(2);
  });

  it('maps every reason the server writes to the diamonds', () => {
    expect(flowKind(RechargeFlowReason.recharge)).toBe('recharge');
    expect(flowKind(RechargeFlowReason.rechargeGift)).toBe('rechargeGift');
    expect(flowKind(RechargeFlowReason.firstRechargeGift)).toBe('rechargeGift');
    expect(flowKind(CallFlowReason.callPaid)).toBe('call');
    expect(flowKind(CallFlowReason.giftPaid)).toBe('gift');
    expect(flowKind(PrivateMsgFlowReason.privateMsgPaid)).toBe('privateMessage');
    expect(flowKind(SEED_OPENING_FLOW_REASON)).toBe('opening');
    for (const odd of ['', 'toString', '__proto__', 'constructor']) expect(flowKind(odd)).toBe('other');
  });
});

describe('[§4 Crypto payment, §9 15 minutes] a USDT order past its deadline ends expired', () => {
  const pastDeadline = (code: string) =>
    withDb((db) => db.prepare('UPDATE recharge_orders SET deadline = ?, created_at = ? WHERE order_code = ?')
      .run(Date.now() - 1, Date.now() - USDT_ORDER_WINDOW_MS - 1, code));
  const cryptoNotices = (account: string, code: string) => withDb((db) =>
    (db.prepare('SELECT content FROM im_notifications WHERE to_accid = (SELECT yx_accid FROM users WHERE account = ?)').pluck().all(account) as string[])
      .map((c) => JSON.parse(c) as Record<string, unknown>)
      .filter((c) => c.attachType === AttachType.cryptoPayment && c.usdtOrderNo === code));

  it('queryUsdtOrderStat answers not paid, the order is expired and its person hears 99 once; a late payment credits nothing', async () => {
    const token = await tokenOf('user6@example.com');
    const { orderCode } = await order(token, { method: 'usdt' });
    expect((await server.call(endpoints.queryUsdtOrderStat, { searchValue: orderCode }, { token })).data).toEqual({ paid: false });
    expect(cryptoNotices('user6@example.com', orderCode)).toEqual([]);
    pastDeadline(orderCode);
    expect((await server.call(endpoints.queryUsdtOrderStat, { searchValue: orderCode }, { token })).data).toEqual({ paid: false });
    expect(withDb((db) => db.prepare('SELECT status FROM recharge_orders WHERE order_code = ?').pluck().get(orderCode))).toBe('expired');
    await server.call(endpoints.queryUsdtOrderStat, { searchValue: orderCode }, { token });
    expect(cryptoNotices('user6@example.com', orderCode)).toEqual([{ attachType: AttachType.cryptoPayment, usdtPayStatus: false, usdtOrderNo: orderCode }]);
    expect(await sandbox(orderCode, 'pay')).toEqual({ credited: 0 });
  });

  it('the order list shows it expired, and a payment that comes too late credits nothing', async () => {
    const token = await tokenOf('user6@example.com');
    const listed = await order(token, { method: 'usdt' });
    const paidLate = await order(token, { method: 'usdt' });
    pastDeadline(listed.orderCode);
    const list = (await server.call(endpoints.orderList, { currentPage: 1, pageSize: 10 }, { token })).data!.list;
    expect(list.find((o) => o.orderCode === listed.orderCode)!.status).toBe('expired');
    expect(list.find((o) => o.orderCode === paidLate.orderCode)!.status).toBe('pending');
    pastDeadline(paidLate.orderCode);
    expect(await sandbox(paidLate.orderCode, 'pay')).toEqual({ credited: 0 });
    expect(cryptoNotices('user6@example.com', paidLate.orderCode)).toMatchObject([{ usdtPayStatus: false }]);
  });

  it('the server\'s sweep ends it when nobody asks', async () => {
    const swept = await startTestServer({ build: false, seed: { hosts: 1, users: 1 }, usdtSweepMs: 50 });
    try {
      const token = (await swept.call(endpoints.login, { ...device, account: 'user1@example.com', password: SEED_PASSWORD })).data!.token;
      const list = (await swept.call(endpoints.rechargeListV4, {}, { token })).data!.list;
      const usdt = list[0]!.subRechargeListItemVOList.find((c) => c.payMethodType === 'usdt')!;
      const { orderCode } = (await swept.call(endpoints.createOrder, {
        frontCallbackUrl: '/wallet', paymentMethodType: 'usdt', productId: usdt.productId, channelId: usdt.channelId, countryTypeId: 0,
        vipFlag: false, chainName: 'ERC20', idempotencyKey: 'k-sweep-0123456789abcdef',
      }, { token })).data!;
      const db = new Database(swept.dbPath);
      try {
        const status = db.prepare('SELECT status FROM recharge_orders WHERE order_code = ?').pluck();
        await new Promise((resolve) => setTimeout(resolve, 150));
        expect(status.get(orderCode)).toBe('pending');
        db.prepare('UPDATE recharge_orders SET deadline = ? WHERE order_code = ?').run(Date.now() - 1, orderCode);
        await expect.poll(() => status.get(orderCode), { timeout: 2000, interval: 20 }).toBe('expired');
      } finally {
        db.close();
      }
    } finally {
      await swept.close();
    }
  });
});

describe('orders with an injected clock', () => {
  it('a USDT order is payable until its deadline; past it a look or the sweep ends it once and tells its person', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orders-clock-'));
    const db = openDatabase(join(dir, 'app.db'));
    try {
      seed(db, { hosts: 1, users: 1 });
      let time = 1_000_000;
      const pushed: Synced[] = [];
      const orders = createOrders(db, { now: () => time, im: { connectionOf: () => ({ push: (item) => pushed.push(item) }) } });
      const { id: userId } = db.prepare<[], { id: number }>("SELECT id FROM users WHERE account = 'user1@example.com'").get()!;
      const { id: channelRowId, package_id: packageId } = db.prepare<[], { id: number; package_id: number }>(
        "SELECT id, package_id FROM recharge_channels WHERE pay_method_type = 'usdt' LIMIT 1").get()!;
      const make = () => orders.create(userId, { packageId, channelRowId, payMethod: 'usdt', vip: false, price: '4.99', chain: 'TRC20', returnPath: '/wallet' });
      const [a, b, c] = [make(), make(), make()];
      expect(a.deadline).toBe(time + USDT_ORDER_WINDOW_MS);
      time = a.deadline! - 1;
      expect(orders.current(a.order_code)!.status).toBe('pending');
      expect(orders.expireOverdue()).toBe(0);
      expect(orders.credit(c.order_code)).toBeGreaterThan(0);
      time = a.deadline!;
      expect(orders.current(a.order_code)!.status).toBe('expired');
      expect(pushed.filter((p) => p.type === 'notification')).toHaveLength(2);
      // The sweep ends the rest (b; c was paid), once.
      expect(orders.expireOverdue()).toBe(1);
      expect(orders.expireOverdue()).toBe(0);
      expect(orders.find(b.order_code)!.status).toBe('expired');
      expect(orders.find(c.order_code)!.status).toBe('paid');
      expect(orders.credit(b.order_code)).toBe(0);
      const notices = pushed.flatMap((p) => (p.type === 'notification' ? [p.notification] : []));
      expect(notices.map((n) => n.content)).toEqual([
        { attachType: AttachType.cryptoPayment, usdtPayStatus: true, usdtOrderNo: c.order_code },
        { attachType: AttachType.cryptoPayment, usdtPayStatus: false, usdtOrderNo: a.order_code },
        { attachType: AttachType.cryptoPayment, usdtPayStatus: false, usdtOrderNo: b.order_code },
      ]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
