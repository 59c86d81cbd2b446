/**
 * Recharge orders on the reference server (src/api/contract/wallet.ts): making one for a
 * package's channel, and crediting it exactly once when its payment is confirmed.
 *
 * `credit` is one transaction: the order moves from 'pending' to 'paid' with a conditional
 * UPDATE (a second, repeated or concurrent confirmation finds it paid and credits nothing),
 * and the diamonds go in as ledger entries (wallet_flows, ref_id = the order's id): the
 * package's diamonds with its giveDiamondNum, and firstChargeGive when it is the person's first
 * paid order. better-sqlite3 runs the transaction to its end before another request is looked
 * at, so two confirmations never interleave.
 *
 * A USDT order may be paid until its deadline. Past it, it is ended 'expired' (and its person
 * hears system message 99 with usdtPayStatus false) whenever it is looked at (`current`, a
 * confirmation, the person's order list) and by the server's sweep (`expireOverdue` every
 * USDT_SWEEP_MS, server/app.ts), so the person hears it even when nobody asks.
 */
import { randomBytes } from 'node:crypto';
import { AttachType } from '../../machines/codes/system.codes';
import { SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-sender';
import type { Db } from '../db/database';
import { createImStore, messageView, type Synced } from '../realtime/im.store';
import { createWallets } from '../users/users';
import type { PayMethod, UsdtChain } from '../../src/api/contract/wallet';

/** The flow reasons this module writes (wallet_flows.reason). */
export const FlowReason = { recharge: 'recharge', rechargeGift: 'recharge.gift', firstRechargeGift: 'recharge.firstGift' } as const;

/** SPEC §9: a USDT order may be paid for 15 minutes. */
export const USDT_ORDER_WINDOW_MS = 15 * 60_000;
/** How often the server ends the USDT orders past their deadline. */
export const USDT_SWEEP_MS = 30_000;

export interface OrderRow {
  id: number;
  order_code: string;
  user_id: number;
  package_id: number;
  channel_row_id: number;
  pay_method_type: PayMethod;
  status: 'pending' | 'paid' | 'failed' | 'expired';
  vip_flag: number;
  return_path: string;
  chain_name: UsdtChain | null;
  usdt_address: string | null;
  usdt_amount: string | null;
  created_at: number;
  deadline: number | null;
  paid_at: number | null;
}

export interface ChannelChoice {
  packageId: number;
  channelRowId: number;
  payMethod: PayMethod;
  vip: boolean;
  price: string;
  chain?: UsdtChain;
  /** The app's path a redirect payment comes back to. */
  returnPath: string;
}

export type Orders = ReturnType<typeof createOrders>;

/** Where a credited order's messages are pushed: the person's IM socket, if logged in (the hub's IM). */
export interface OrderIm {
  connectionOf(account: string): { push(item: Synced): void } | undefined;
}

export function createOrders(db: Db, { now = () => Date.now(), im }: { now?: () => number; im?: OrderIm } = {}) {
  const wallets = createWallets(db);
  const imStore = createImStore(db);
  const accidOf = db.prepare<[number], string>('SELECT yx_accid FROM users WHERE id = ?').pluck();
  const insert = db.prepare(
    `INSERT INTO recharge_orders (order_code, user_id, package_id, channel_row_id, pay_method_type, status, vip_flag, return_path, chain_name, usdt_address, usdt_amount, created_at, deadline)
     VALUES (@code, @userId, @packageId, @channelRowId, @payMethod, 'pending', @vip, @returnPath, @chain, @address, @amount, @createdAt, @deadline)`,
  );
  const byCode = db.prepare<[string], OrderRow>('SELECT * FROM recharge_orders WHERE order_code = ?');
  // A USDT order past its deadline is not paid any more (it is ended 'expired' instead).
  const markPaid = db.prepare<{ code: string; time: number }, OrderRow>(
    `UPDATE recharge_orders SET status = 'paid', paid_at = @time
      WHERE order_code = @code AND status = 'pending' AND (deadline IS NULL OR deadline > @time) RETURNING *`,
  );
  const overdue = db.prepare<{ time: number; userId: number | null; code: string | null }, string>(
    `SELECT order_code FROM recharge_orders
      WHERE status = 'pending' AND deadline IS NOT NULL AND deadline <= @time
        AND (@userId IS NULL OR user_id = @userId) AND (@code IS NULL OR order_code = @code)`,
  ).pluck();
  const markEnded = db.prepare<{ code: string; status: 'failed' | 'expired' }, OrderRow>(
    "UPDATE recharge_orders SET status = @status WHERE order_code = @code AND status = 'pending' RETURNING *",
  );
  const pkg = db.prepare<[number], { diamond_num: number; give_diamond_num: number; first_charge_give: number }>(
    'SELECT diamond_num, give_diamond_num, first_charge_give FROM recharge_packages WHERE id = ?',
  );
  const makeVip = db.prepare<[number]>('UPDATE users SET is_vip = 1 WHERE id = ?');
  const paidBefore = db.prepare<{ userId: number; id: number }, number>(
    "SELECT 1 FROM recharge_orders WHERE user_id = @userId AND status = 'paid' AND id <> @id LIMIT 1",
  ).pluck();

  /** Ends 'expired' the pending USDT orders past their deadline (of one person, or one order); how many. */
  function expireOverdue({ userId = null, code = null }: { userId?: number | null; code?: string | null } = {}): number {
    let ended = 0;
    for (const overdueCode of overdue.all({ time: now(), userId, code })) if (end(overdueCode, 'expired')) ended++;
    return ended;
  }

  /** Ends a pending order unpaid (declined, cancelled, or a USDT order past its deadline); false when it was not pending. */
  function end(code: string, status: 'failed' | 'expired'): boolean {
    const ended = db.transaction((): { to: string; item: Synced | null } | null => {
      const order = markEnded.get({ code, status });
      if (!order) return null;
      const to = accidOf.get(order.user_id)!;
      // A USDT order's countdown hears that it was not paid (SPEC §4 system message 99: its pay data is cleared).
      const item = order.pay_method_type === 'usdt'
        ? imStore.system(to, { attachType: AttachType.cryptoPayment, usdtPayStatus: false, usdtOrderNo: order.order_code })
        : null;
      return { to, item };
    })();
    if (ended?.item) im?.connectionOf(ended.to)?.push(ended.item);
    return ended !== null;
  }

  return {
    /** A new pending order for the chosen channel; a USDT order gets its address, amount and deadline. */
    create(userId: number, choice: ChannelChoice): OrderRow {
      const createdAt = now();
      const code = `R${createdAt.toString(36)}${randomBytes(6).toString('hex')}`.toUpperCase();
      const usdt = choice.payMethod === 'usdt';
      insert.run({
        code, userId, packageId: choice.packageId, channelRowId: choice.channelRowId, payMethod: choice.payMethod, vip: choice.vip ? 1 : 0,
        returnPath: choice.returnPath,
        chain: usdt ? choice.chain ?? 'TRC20' : null,
        address: usdt ? `T${randomBytes(16).toString('hex')}` : null,
        amount: usdt ? choice.price : null,
        createdAt,
        deadline: usdt ? createdAt + USDT_ORDER_WINDOW_MS : null,
      });
      return byCode.get(code)!;
    },

    find: (code: string): OrderRow | undefined => byCode.get(code),

    /** The order as it stands now: a pending USDT order past its deadline is ended 'expired' first (and its person told, 99). */
    current(code: string): OrderRow | undefined {
      expireOverdue({ code });
      return byCode.get(code);
    },

    expireOverdue,
    end,

    /**
     * Confirms the order's payment: credits it and answers the diamonds credited, or 0 when it
     * was credited before (or ended unpaid): a confirmation counts once.
     */
    credit(code: string): number {
      // Paid too late: the order ends 'expired' and credits nothing.
      expireOverdue({ code });
      const pushes: Synced[] = [];
      let to = '';
      const credited = db.transaction(() => {
        const order = markPaid.get({ code, time: now() });
        if (!order) return 0;
        const p = pkg.get(order.package_id)!;
        let credited = 0;
        const add = (amount: number, reason: string) => {
          if (amount <= 0) return;
          wallets.earn(order.user_id, 'diamonds', amount, reason, order.id);
          credited += amount;
        };
        add(p.diamond_num, FlowReason.recharge);
        add(p.give_diamond_num, FlowReason.rechargeGift);
        if (paidBefore.get({ userId: order.user_id, id: order.id }) === undefined) add(p.first_charge_give, FlowReason.firstRechargeGift);
        if (order.vip_flag === 1) makeVip.run(order.user_id);
        // The person hears of it from the server (SPEC §4 Recharge, preview '[recharge successful!]'), stored with the credit.
        to = accidOf.get(order.user_id)!;
        const { row } = imStore.send({
          from: SYSTEM_SENDER_ACCID, fromNick: 'System', to, idClient: `recharge-${order.order_code}`, type: 'custom',
          attach: { type: 'recharge', num: credited, orderCode: order.order_code },
        });
        pushes.push({ type: 'message', seq: row.to_seq, message: messageView(row, to) });
        // A USDT order's countdown hears it too (SPEC §4 system message 99).
        if (order.pay_method_type === 'usdt') {
          pushes.push(imStore.system(to, { attachType: AttachType.cryptoPayment, usdtPayStatus: true, usdtOrderNo: order.order_code }));
        }
        return credited;
      })();
      // Told after the commit: nobody hears of money that did not move.
      for (const item of pushes) im?.connectionOf(to)?.push(item);
      return credited;
    },
  };
}
