/**
 * Money in (machines/ports/wallet.port.ts) over the HTTP contract (src/api/contract/wallet.ts):
 * the packages and their channels in the port's words, orders by kind (a redirect, a store
 * payment, a USDT payment), refusals in words, an order that got no answer as an
 * UnansweredError (its key is kept for the retry); the user's own wallet (the reference server's
 * myWallet, orderList, flowList) by page.
 */
import type { DiamondFlow, OrderRecord, OrderRequest, PlacedOrder, WalletPort } from '../../../machines/ports/wallet.port';
import { UnansweredError } from '../../../machines/shared/intent-key';
import type { ApiClient } from '../../api/client';
import {
  TEXT_ORDER_FAILED, createOrder, flowList, myWallet, orderList, queryUsdtOrderStat, rechargeListV4, vipGetShopInfo,
} from '../../api/contract/wallet';
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
    async summary() {
      const mine = await api.data(myWallet, {}, { silent: true });
      return { diamonds: mine.diamonds, vip: mine.isVip, paid: mine.paid };
    },
    async orderHistory({ page, pageSize }) {
      const { list } = await api.data(orderList, { currentPage: page, pageSize }, { silent: true });
      return list.map((o): OrderRecord => ({
        orderCode: o.orderCode, payMethod: o.payMethodType, price: o.price, diamonds: o.diamondNum, vip: o.vipFlag, status: o.status, createdAt: o.createdAt,
      }));
    },
    async diamondFlows({ page, pageSize }) {
      const { list } = await api.data(flowList, { currentPage: page, pageSize }, { silent: true });
      return list.map((f): DiamondFlow => ({ id: f.id, kind: f.kind, amount: f.amount, balance: f.balance, createdAt: f.createdAt }));
    },
  };
}
