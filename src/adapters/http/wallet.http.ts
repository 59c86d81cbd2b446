/**
 * Money in (machines/ports/wallet.port.ts) over the HTTP contract (src/api/contract/wallet.ts):
 * the packages and their channels in the port's words, orders by kind (a redirect, a store
 * payment, a USDT payment), refusals in words, an order that got no answer as an
 * UnansweredError (its key is kept for the retry).
 */
import type { OrderRequest, PlacedOrder, WalletPort } from '../../../machines/ports/wallet.port';
import { UnansweredError } from '../../../machines/shared/intent-key';
import type { ApiClient } from '../../api/client';
import { TEXT_ORDER_FAILED, createOrder, queryUsdtOrderStat, rechargeListV4, vipGetShopInfo } from '../../api/contract/wallet';
import { ApiError, isUnanswered } from '../../api/outcome';

async function placed(api: ApiClient, request: OrderRequest): Promise<PlacedOrder> {
  const { channel } = request;
  try {
    const answer = await api.data(createOrder, {
      frontCallbackUrl: request.returnPath, paymentMethodType: channel.payMethod, productId: channel.productId, channelId: channel.channelId,
      countryTypeId: channel.countryTypeId, vipFlag: request.vip, idempotencyKey: request.idempotencyKey,
      ...(request.chain ? { chainName: request.chain } : {}),
    }, { silent: true });
    if (answer.usdt) {
      const { address, amount, chainName, createdAt, deadline } = answer.usdt;
      return { kind: 'usdt', order: { orderNo: answer.orderCode, address, amount, chain: chainName, createdAt, deadline } };
    }
    const url = answer.action ?? answer.awxObj?.payments[0]?.paylink;
    return url ? { kind: 'redirect', orderCode: answer.orderCode, url } : { kind: 'store', orderCode: answer.orderCode };
  } catch (error) {
    if (isUnanswered(error)) throw new UnansweredError(error instanceof Error ? error.message : String(error));
    // The server's words when it said why (SPEC §5 VIP text), SPEC §8's otherwise.
    throw new Error(error instanceof ApiError && error.message ? error.message : TEXT_ORDER_FAILED);
  }
}

export function httpWallet(api: ApiClient): WalletPort {
  return {
    async offers() {
      const { list } = await api.data(rechargeListV4, {}, { silent: true });
      return list.map((p) => ({
        batchNo: p.batchNo, vip: p.vipFlag, price: p.price, diamonds: p.diamondNum, bonus: p.giveDiamondNum,
        firstRechargeBonus: p.boughtFlag ? 0 : p.firstChargeGive,
        channels: p.subRechargeListItemVOList.map((c) => ({
          payMethod: c.payMethodType, channelType: c.channelType, channelId: c.channelId, countryTypeId: c.countryTypeId,
          productId: c.productId, recent: c.recentFlag, recommended: c.recommendFlag, icon: c.icon,
        })),
      }));
    },
    order: (request) => placed(api, request),
    async usdtPaid(orderNo) {
      return (await api.data(queryUsdtOrderStat, { searchValue: orderNo }, { silent: true })).paid;
    },
    async vipShop() {
      const info = await api.data(vipGetShopInfo, {}, { silent: true });
      return { price: info.vipPrice, diamonds: info.vipDiamond, callPercent: info.callDiscount };
    },
    // The user's wallet endpoints join the contract next (branch work in progress).
    summary: () => Promise.reject(new Error('summary: not in the contract yet')),
    orderHistory: () => Promise.reject(new Error('orderHistory: not in the contract yet')),
    diamondFlows: () => Promise.reject(new Error('diamondFlows: not in the contract yet')),
  };
}
