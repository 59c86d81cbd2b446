import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { PayMethod } from '../../src/api/contract/wallet';
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
