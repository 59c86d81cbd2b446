/**
 * The user's wallet on the reference server (src/api/contract/wallet.ts myWallet, orderList,
 * flowList; reference-server additions, SPEC §7 has none): the caller's diamonds, VIP and
 * whether they ever paid; their recharge orders; the entries of their diamond ledger
 * (wallet_flows, account 'diamonds'). Only the caller's rows, newest first, by page.
 *
 * A ledger entry's reason is written by the module that moved the diamonds; `flowKind` maps
 * each to the kind the app shows, in one place.
 */
import type { Database } from 'better-sqlite3';
import type * as wallet from '../../src/api/contract/wallet';
import type { DiamondFlowKind, OrderStatus, PayMethod } from '../../src/api/contract/wallet';
import { CallFlowReason } from './billing';
import { FlowReason as PrivateMsgFlowReason } from './private-msg';
import { requireSession, type Handler } from './transport';
import { FlowReason as RechargeFlowReason, type Orders } from './wallet.orders';

/** The opening balance the seed writes (server/db/seed.ts): every balance is the sum of its entries. */
export const SEED_OPENING_FLOW_REASON = 'seed.opening';

const KIND_OF_REASON: Readonly<Record<string, DiamondFlowKind>> = {
  [RechargeFlowReason.recharge]: 'recharge',
  [RechargeFlowReason.rechargeGift]: 'rechargeGift',
  [RechargeFlowReason.firstRechargeGift]: 'rechargeGift',
  [CallFlowReason.callPaid]: 'call',
  [CallFlowReason.giftPaid]: 'gift',
  [PrivateMsgFlowReason.privateMsgPaid]: 'privateMessage',
  [SEED_OPENING_FLOW_REASON]: 'opening',
};

/** What a diamond ledger entry's reason shows as; a reason nobody named here is 'other'. */
export const flowKind = (reason: string): DiamondFlowKind => (Object.hasOwn(KIND_OF_REASON, reason) ? KIND_OF_REASON[reason]! : 'other');

interface OrderListRow {
  order_code: string;
  pay_method_type: PayMethod;
  price: string;
  diamond_num: number;
  vip_flag: number;
  status: OrderStatus;
  created_at: number;
}

interface FlowRow {
  id: number;
  reason: string;
  amount: number;
  balance: number;
  created_at: number;
}

type Page = { userId: number; limit: number; offset: number };
const pageOf = (userId: number, { currentPage, pageSize }: { currentPage: number; pageSize: number }): Page =>
  ({ userId, limit: pageSize, offset: (currentPage - 1) * pageSize });

export function walletUserHandlers({ db, orders }: { db: Database; orders: Orders }): {
  myWallet: Handler<typeof wallet.myWallet>;
  orderList: Handler<typeof wallet.orderList>;
  flowList: Handler<typeof wallet.flowList>;
} {
  const mine = db.prepare<[number], { diamonds: number; is_vip: number; paid: number }>(
    `SELECT coalesce((SELECT diamonds FROM wallets WHERE user_id = u.id), 0) AS diamonds, u.is_vip,
            EXISTS (SELECT 1 FROM recharge_orders WHERE user_id = u.id AND status = 'paid') AS paid
       FROM users u WHERE u.id = ?`,
  );
  const orderPage = db.prepare<Page, OrderListRow>(
    `SELECT o.order_code, o.pay_method_type, p.price, p.diamond_num, o.vip_flag, o.status, o.created_at
       FROM recharge_orders o JOIN recharge_packages p ON p.id = o.package_id
      WHERE o.user_id = @userId ORDER BY o.created_at DESC, o.id DESC LIMIT @limit OFFSET @offset`,
  );
  const flowPage = db.prepare<Page, FlowRow>(
    `SELECT id, reason, amount, balance, created_at FROM wallet_flows
      WHERE user_id = @userId AND account = 'diamonds' ORDER BY id DESC LIMIT @limit OFFSET @offset`,
  );

  return {
    myWallet(ctx) {
      const row = mine.get(requireSession(ctx).userId);
      return { diamonds: row?.diamonds ?? 0, isVip: row?.is_vip === 1, paid: row?.paid === 1 };
    },
    orderList(ctx) {
      const { userId } = requireSession(ctx);
      // What the list shows is the orders as they stand: those past their deadline end first.
      orders.expireOverdue({ userId });
      const list = orderPage.all(pageOf(userId, ctx.body)).map((o) => ({
        orderCode: o.order_code, payMethodType: o.pay_method_type, price: o.price, diamondNum: o.diamond_num,
        vipFlag: o.vip_flag === 1, status: o.status, createdAt: o.created_at,
      }));
      return { list };
    },
    flowList(ctx) {
      const { userId } = requireSession(ctx);
      const list = flowPage.all(pageOf(userId, ctx.body)).map((f) => ({
        id: f.id, kind: flowKind(f.reason), amount: f.amount, balance: f.balance, createdAt: f.created_at,
      }));
      return { list };
    },
  };
}
