/**
 * Money in over the HTTP contract: packages in the port's words (the first recharge's gift
 * only before a first recharge), orders by kind, refusals in words, an order with no answer
 * told apart (its key is kept for the retry), the user's wallet by page; and the wallet port's
 * contract against a real reference server in-process, its payment sandbox confirming orders.
 */
import { describe, expect, it } from 'vitest';
import { registerWalletContract } from '../../../machines/ports/wallet.contract';
import type { PayChannel } from '../../../machines/ports/wallet.port';
import { UnansweredError } from '../../../machines/shared/intent-key';
import * as contract from '../../api/contract/wallet';
import { createApiClient } from '../../api/client';
import { endpoints } from '../../api/contract';
import { ApiError } from '../../api/outcome';
import { SEED_PASSWORD } from '../../../server/db/seed';
import { codec, device, startTestServer } from '../../../server/testing/harness';
import { httpWallet } from './wallet.http';
import { clientAnswering } from './client-answering.testing';

const channel: PayChannel = {
  payMethod: 'card', channelType: 'awx', channelId: 11, countryTypeId: 0, productId: 'P550.awx', recent: false, recommended: true, icon: '/pay/card.svg',
};
const request = { channel, vip: false, returnPath: '/wallet', idempotencyKey: 'k-0123456789abcdef' };

describe('wallet adapter', () => {
  it('reads the packages: the first recharge\'s gift only for one who never bought', async () => {
    const pkg = {
      subRechargeListItemVOList: [{ channelType: 'awx', channelId: 11, countryTypeId: 0, productId: 'P550.awx', payMethodType: 'card', recentFlag: false, recommendFlag: true, icon: '/pay/card.svg' }],
      vipFlag: false, batchNo: 'P550', price: '4.99', diamondNum: 500, giveDiamondNum: 50, firstChargeGive: 100,
    };
    const { api } = clientAnswering(() => ({ list: [{ ...pkg, boughtFlag: false }, { ...pkg, batchNo: 'P551', boughtFlag: true }] }));
    const offers = await httpWallet(api).offers();
    expect(offers[0]).toEqual({ batchNo: 'P550', vip: false, price: '4.99', diamonds: 500, bonus: 50, firstRechargeBonus: 100, channels: [channel] });
    expect(offers[1]!.firstRechargeBonus).toBe(0);
  });

  it('an order is a redirect, a store payment or a USDT payment, and carries its key', async () => {
    const answers = [
      { orderCode: 'R1', diamondNum: 500, action: '/sandbox/pay/R1' },
      { orderCode: 'R2', diamondNum: 500 },
      { orderCode: 'R3', diamondNum: 500, usdt: { address: 'Tx', amount: '4.99', chainName: 'TRC20', createdAt: 1, deadline: 900_001 } },
    ];
    const { api, seen } = clientAnswering(() => answers.shift());
    const wallet = httpWallet(api);
    expect(await wallet.order(request)).toEqual({ kind: 'redirect', orderCode: 'R1', url: '/sandbox/pay/R1' });
    expect(await wallet.order(request)).toEqual({ kind: 'store', orderCode: 'R2' });
    expect(await wallet.order({ ...request, chain: 'TRC20' })).toEqual({
      kind: 'usdt', order: { orderNo: 'R3', address: 'Tx', amount: '4.99', chain: 'TRC20', createdAt: 1, deadline: 900_001 },
    });
    expect(seen[0]).toEqual([contract.createOrder.path, {
      frontCallbackUrl: '/wallet', paymentMethodType: 'card', productId: 'P550.awx', channelId: 11, countryTypeId: 0, vipFlag: false,
      idempotencyKey: 'k-0123456789abcdef',
    }]);
  });

  it('a refusal is in the server\'s words (SPEC §5), or SPEC §8\'s; an order with no answer is told apart', async () => {
    const refusals = [
      new ApiError('code', contract.TEXT_VIP_NOT_YET, { code: '1000' }),
      new ApiError('code', '', { code: '1000' }),
      new ApiError('network', 'No answer'),
    ];
    const { api } = clientAnswering(() => { throw refusals.shift(); });
    const wallet = httpWallet(api);
    await expect(wallet.order(request)).rejects.toThrow(contract.TEXT_VIP_NOT_YET);
    await expect(wallet.order(request)).rejects.toThrow(contract.TEXT_ORDER_FAILED);
    await expect(wallet.order(request)).rejects.toBeInstanceOf(UnansweredError);
  });

  it('the user\'s wallet: the summary, the orders and the diamond flows by page, in the port\'s words', async () => {
    const answers: Record<string, unknown> = {
      [contract.myWallet.path]: { diamonds: 120, isVip: true, paid: false },
      [contract.orderList.path]: {
        list: [{ orderCode: 'R9', payMethodType: 'usdt', price: '4.99', diamondNum: 500, vipFlag: false, status: 'expired', createdAt: 1_700 }],
      },
      [contract.flowList.path]: {
        list: [
          { id: 7, kind: 'call', amount: -30, balance: 120, createdAt: 2_000 },
          { id: 3, kind: 'rechargeGift', amount: 50, balance: 150, createdAt: 1_000 },
        ],
      },
    };
    const { api, seen } = clientAnswering((path) => answers[path]);
    const wallet = httpWallet(api);
    expect(await wallet.summary()).toEqual({ diamonds: 120, vip: true, paid: false });
    expect(await wallet.orderHistory({ page: 2, pageSize: 20 })).toEqual([
      { orderCode: 'R9', payMethod: 'usdt', price: '4.99', diamonds: 500, vip: false, status: 'expired', createdAt: 1_700 },
    ]);
    expect(await wallet.diamondFlows({ page: 1, pageSize: 50 })).toEqual([
      { id: 7, kind: 'call', amount: -30, balance: 120, createdAt: 2_000 },
      { id: 3, kind: 'rechargeGift', amount: 50, balance: 150, createdAt: 1_000 },
    ]);
    expect(seen).toEqual([
      [contract.myWallet.path, {}],
      [contract.orderList.path, { currentPage: 2, pageSize: 20 }],
      [contract.flowList.path, { currentPage: 1, pageSize: 50 }],
    ]);
  });

  it('the user\'s wallet asks silently: a failure is the caller\'s to show', async () => {
    const options: unknown[] = [];
    const api = {
      data: (_endpoint: unknown, _body: unknown, opts: unknown) => {
        options.push(opts);
        return Promise.reject(new ApiError('network', 'No answer'));
      },
    } as unknown as Parameters<typeof httpWallet>[0];
    const wallet = httpWallet(api);
    await expect(wallet.summary()).rejects.toThrow('No answer');
    await expect(wallet.orderHistory({ page: 1, pageSize: 10 })).rejects.toThrow('No answer');
    await expect(wallet.diamondFlows({ page: 1, pageSize: 10 })).rejects.toThrow('No answer');
    expect(options).toEqual([{ silent: true }, { silent: true }, { silent: true }]);
  });
});

registerWalletContract('HTTP adapter over the reference server', async () => {
  const server = await startTestServer({ build: false, seed: { hosts: 1, users: 1 } });
  const signedIn = await server.call(endpoints.login, { ...device, account: 'user1@example.com', password: SEED_PASSWORD });
  const token = signedIn.data!.token;
  const api = createApiClient({ baseUrl: server.base, codec, credentials: () => ({ token, appId: 'test-app' }), onNotice: () => {} });
  const sandbox = async (code: string, outcome: 'pay' | 'expire') => {
    const res = await fetch(`${server.base}/sandbox/pay/${code}/${outcome}`, { method: 'POST' });
    if (!res.ok) throw new Error(`The sandbox answered ${res.status}.`);
  };
  return {
    port: httpWallet(api),
    pay: (code) => sandbox(code, 'pay'),
    expire: (code) => sandbox(code, 'expire'),
    dispose: () => server.close(),
  };
});
