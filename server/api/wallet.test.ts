import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { PayMethod, TEXT_VIP_NOT_YET } from '../../src/api/contract/wallet';
import { SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-sender';
import { RECHARGE_CHANNELS, RECHARGE_PACKAGES, SEED_PASSWORD } from '../db/seed';
import { device, startTestServer, type TestServer } from '../testing/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function tokenOf(account: string): Promise<string> {
  const signedIn = await server.call(endpoints.login, { ...device, account, password: SEED_PASSWORD });
  return signedIn.data!.token;
}

describe('[§3 Recharge package group, §7] /api/wallet/rechargeListV4', () => {
  it('answers the packages in order with their diamonds, and the first recharge\'s gift to one who never recharged', async () => {
    const res = await server.call(endpoints.rechargeListV4, {}, { token: await tokenOf('user1@example.com') });
    expect(res.code).toBe(ResultCode.success);
    const list = res.data!.list;
    expect(list.map((p) => p.batchNo)).toEqual(RECHARGE_PACKAGES.map(([batchNo]) => batchNo));
    expect(list[1]).toMatchObject({ price: '4.99', diamondNum: 500, giveDiamondNum: 50, firstChargeGive: 100, boughtFlag: false, vipFlag: false });
    expect(list.filter((p) => p.vipFlag).map((p) => p.batchNo)).toEqual(['VIP30']);
  });

  it('offers every pay method of SPEC §1 on each package, each channel with its same-origin icon', async () => {
    const res = await server.call(endpoints.rechargeListV4, {}, { token: await tokenOf('user1@example.com') });
    for (const p of res.data!.list) {
      const methods = new Set(p.subRechargeListItemVOList.map((c) => c.payMethodType));
      expect([...methods].sort()).toEqual(Object.values(PayMethod).sort());
      for (const c of p.subRechargeListItemVOList) {
        expect(c.icon).toBe(`/pay/${c.payMethodType}.svg`);
        expect(c.productId).toBe(`${p.batchNo}.${c.channelType}`);
      }
    }
    const icon = await fetch(`${server.base}/pay/usdt.svg`);
    expect(icon.status).toBe(200);
    expect(await icon.text()).toContain('USDT');
    expect((await fetch(`${server.base}/pay/bitcoin.svg`)).status).toBe(404);
  });

  it('gives only the channels for everyone and for the caller\'s country', async () => {
    const res = await server.call(endpoints.rechargeListV4, {}, { token: await tokenOf('user1@example.com') });
    const countries = new Set(res.data!.list.flatMap((p) => p.subRechargeListItemVOList.map((c) => c.countryTypeId)));
    // At most one country's own channels beside those for everyone.
    expect([...countries].filter((c) => c !== 0).length).toBeLessThanOrEqual(1);
    const everywhere = RECHARGE_CHANNELS.filter(([, , , country]) => country === 0).length;
    expect(res.data!.list[0]!.subRechargeListItemVOList.length).toBeGreaterThanOrEqual(everywhere);
  });

  it('needs a session', async () => {
    expect((await server.call(endpoints.rechargeListV4, {})).code).toBe(ResultCode.authFailed);
  });
});

describe('[§3 VIP shop info] /api/wallet/vipGetShopInfo', () => {
  it('answers the VIP package\'s price and diamonds and the call percentage VIPs pay', async () => {
    const res = await server.call(endpoints.vipGetShopInfo, {}, { token: await tokenOf('user1@example.com') });
    expect(res.data).toEqual({ vipPrice: '9.99', vipDiamond: 300, callDiscount: 80 });
  });
});

describe('[§7 createOrder, §4 Recharge] orders, credited once', () => {
  async function order(token: string, over: Partial<Parameters<typeof server.call<typeof endpoints.createOrder>>[1]> = {}) {
    const list = (await server.call(endpoints.rechargeListV4, {}, { token })).data!.list;
    const pkg = list[1]!;
    const card = pkg.subRechargeListItemVOList.find((c) => c.payMethodType === 'card' && c.countryTypeId === 0)!;
    return server.call(endpoints.createOrder, {
      frontCallbackUrl: '/wallet', paymentMethodType: card.payMethodType, productId: card.productId, channelId: card.channelId,
      countryTypeId: card.countryTypeId, vipFlag: false, idempotencyKey: `k-${Math.random().toString(36).slice(2)}-order`, ...over,
    }, { token });
  }
  const diamondsOf = (account: string): number => {
    const db = new Database(server.dbPath, { readonly: true });
    try {
      return (db.prepare('SELECT diamonds FROM wallets WHERE user_id = (SELECT id FROM users WHERE account = ?)').pluck().get(account) as number | undefined) ?? 0;
    } finally {
      db.close();
    }
  };
  const ledger = () => {
    const db = new Database(server.dbPath, { readonly: true });
    try {
      return {
        sums: db.prepare("SELECT user_id, sum(amount) AS total FROM wallet_flows WHERE account = 'diamonds' GROUP BY user_id").all() as { user_id: number; total: number }[],
        balances: db.prepare('SELECT user_id, diamonds FROM wallets').all() as { user_id: number; diamonds: number }[],
        credits: db.prepare(
          "SELECT o.order_code AS code, count(*) AS n FROM wallet_flows f JOIN recharge_orders o ON o.id = f.ref_id WHERE f.reason LIKE 'recharge%' GROUP BY o.order_code",
        ).all() as { code: string; n: number }[],
      };
    } finally {
      db.close();
    }
  };

  it('a card order is taken to the sandbox; a replay of the same tap makes no second order', async () => {
    const token = await tokenOf('user2@example.com');
    const key = 'k-same-tap-0123456789';
    const first = await order(token, { idempotencyKey: key });
    expect(first.code).toBe(ResultCode.success);
    expect(first.data!.action).toBe(`/sandbox/pay/${first.data!.orderCode}`);
    const again = await order(token, { idempotencyKey: key });
    expect(again.data!.orderCode).toBe(first.data!.orderCode);
  });

  it('a confirmation sent 100 times at once credits once: the package, its gift and the first recharge\'s gift', async () => {
    const token = await tokenOf('user3@example.com');
    const { orderCode } = (await order(token)).data!;
    const before = diamondsOf('user3@example.com');
    const answers = await Promise.all(Array.from({ length: 100 }, () =>
      fetch(`${server.base}/sandbox/pay/${orderCode}/pay`, { method: 'POST' }).then((r) => r.json() as Promise<{ credited: number }>)));
    // 500 diamonds + 50 given + 100 for the first recharge, once.
    expect(answers.filter((a) => a.credited > 0).map((a) => a.credited)).toEqual([650]);
    const after = diamondsOf('user3@example.com');
    expect(after - before).toBe(650);
    expect(ledger().credits.find((c) => c.code === orderCode)?.n).toBe(3);
    // [§4 Recharge] The server's recharge message, once.
    const db = new Database(server.dbPath, { readonly: true });
    try {
      const messages = db.prepare("SELECT from_accid, type, attach FROM im_messages WHERE id_client = ?").all(`recharge-${orderCode}`) as { from_accid: string; type: string; attach: string }[];
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({ from_accid: SYSTEM_SENDER_ACCID, type: 'custom' });
      expect(JSON.parse(messages[0]!.attach)).toEqual({ type: 'recharge', num: 650, orderCode });
    } finally {
      db.close();
    }
    // Now a buyer: no first recharge's gift any more.
    const list = (await server.call(endpoints.rechargeListV4, {}, { token })).data!.list;
    expect(list.every((p) => p.boughtFlag && p.firstChargeGive === 0)).toBe(true);
  });

  it('the ledger sums to every balance, and no balance is below 0', async () => {
    const { sums, balances } = ledger();
    for (const b of balances) {
      expect(b.diamonds).toBeGreaterThanOrEqual(0);
      expect(sums.find((s) => s.user_id === b.user_id)?.total ?? 0).toBe(b.diamonds);
    }
  });

  it('[§5] VIP through a store before any purchase is refused with the SPEC\'s words; a declined order credits nothing', async () => {
    const token = await tokenOf('user4@example.com');
    const list = (await server.call(endpoints.rechargeListV4, {}, { token })).data!.list;
    const vip = list.find((p) => p.vipFlag)!;
    const store = vip.subRechargeListItemVOList.find((c) => c.payMethodType === 'googlepay')!;
    const refused = await server.call(endpoints.createOrder, {
      frontCallbackUrl: '/wallet', paymentMethodType: 'googlepay', productId: store.productId, channelId: store.channelId,
      countryTypeId: store.countryTypeId, vipFlag: true, idempotencyKey: 'k-vip-store-0123456789',
    }, { token });
    expect(refused.code).toBe(ResultCode.invalidRequest);
    expect(refused.message).toBe(TEXT_VIP_NOT_YET);
    const { orderCode } = (await order(token)).data!;
    expect(await (await fetch(`${server.base}/sandbox/pay/${orderCode}/fail`, { method: 'POST' })).json()).toEqual({ ended: true });
    expect(await (await fetch(`${server.base}/sandbox/pay/${orderCode}/pay`, { method: 'POST' })).json()).toEqual({ credited: 0 });
  });

  it('the sandbox page pays and comes back into the app at the order\'s path; an order to another site is refused', async () => {
    const token = await tokenOf('user2@example.com');
    const { orderCode } = (await order(token, { frontCallbackUrl: '/wallet?from=recharge' })).data!;
    const page = await fetch(`${server.base}/sandbox/pay/${orderCode}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<button type="submit">Pay<\/button>.*Decline.*Cancel/s);
    const paid = await fetch(`${server.base}/sandbox/pay/${orderCode}/pay?return=1`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`/wallet?from=recharge&orderCode=${orderCode}&result=paid`);
    expect(await (await fetch(`${server.base}/sandbox/pay/${orderCode}`)).text()).toContain('This order is paid.');
    for (const outside of ['https://evil.example/steal', '//evil.example/x']) {
      const refused = await order(token, { frontCallbackUrl: outside });
      expect(refused.code).toBe(ResultCode.invalidRequest);
    }
  });

  it('[§4 Crypto payment] a USDT order\'s sandbox page shows its address, amount and chain, and pays or lets it expire', async () => {
    const token = await tokenOf('user2@example.com');
    const list = (await server.call(endpoints.rechargeListV4, {}, { token })).data!.list;
    const usdt = list[1]!.subRechargeListItemVOList.find((c) => c.payMethodType === 'usdt')!;
    const made = await order(token, {
      paymentMethodType: 'usdt', productId: usdt.productId, channelId: usdt.channelId, countryTypeId: usdt.countryTypeId, chainName: 'ERC20',
    });
    const { orderCode, usdt: payment } = made.data!;
    const page = await (await fetch(`${server.base}/sandbox/pay/${orderCode}`)).text();
    expect(page).toContain(payment!.address);
    expect(page).toContain(`${payment!.amount} USDT`);
    expect(page).toContain('ERC20');
    expect(page).toMatch(/<button type="submit">Pay<\/button>.*<button type="submit">Let it expire<\/button>/s);
    expect(page).not.toMatch(/Decline|Cancel/);
    expect(page).toContain(`action="/sandbox/pay/${orderCode}/expire?return=1"`);
    const expired = await fetch(`${server.base}/sandbox/pay/${orderCode}/expire?return=1`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual',
    });
    expect(expired.status).toBe(303);
    expect(expired.headers.get('location')).toBe(`/wallet?orderCode=${orderCode}&result=expired`);
    expect(await (await fetch(`${server.base}/sandbox/pay/${orderCode}`)).text()).toContain('This order is expired.');
    expect((await server.call(endpoints.queryUsdtOrderStat, { searchValue: orderCode }, { token })).data).toEqual({ paid: false });
    expect(await (await fetch(`${server.base}/sandbox/pay/${orderCode}/pay`, { method: 'POST' })).json()).toEqual({ credited: 0 });
  });
});

