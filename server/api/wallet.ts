/**
 * Money in, the reference server's side (src/api/contract/wallet.ts): the recharge packages with
 * the channels of the caller's country, and the VIP shop. Orders, their sandbox and the ledger
 * entries of a credited order come with createOrder; the user's own wallet is wallet.user.ts.
 */
import type { Database } from 'better-sqlite3';
import { ResultCode } from '../../src/api/codes';
import { VIP_CALL_DISCOUNT_KEY } from '../../src/api/contract/call';
import * as wallet from '../../src/api/contract/wallet';
import type { ResponseOf } from '../../src/api/contract/endpoint';
import type { PayMethod, RechargePackage } from '../../src/api/contract/wallet';
import type { Idempotency } from './idempotency';
import { ApiError, type HandlersOf, requireSession } from './transport';
import type { Orders } from './wallet.orders';
import { walletUserHandlers } from './wallet.user';

interface PackageRow {
  id: number;
  batch_no: string;
  price: string;
  diamond_num: number;
  give_diamond_num: number;
  first_charge_give: number;
  vip_flag: number;
}

interface ChannelRow {
  package_id: number;
  channel_type: string;
  channel_id: number;
  country_type_id: number;
  product_id: string;
  pay_method_type: PayMethod;
  recent_flag: number;
  recommend_flag: number;
  icon: string;
}

/** The VIP's call price percentage when the setting is missing or unreadable (SPEC §6: 20 % off). */
const DEFAULT_VIP_CALL_PERCENT = 80;

/** Where the payment sandbox (server/sandbox/payments.ts) takes a card or PayPal order. */
export const sandboxPayUrl = (orderCode: string): string => `/sandbox/pay/${orderCode}`;

export function walletHandlers({ db, orders, keys }: { db: Database; orders: Orders; keys: Idempotency }): HandlersOf<typeof wallet> {
  const packages = db.prepare<[], PackageRow>('SELECT * FROM recharge_packages ORDER BY sort');
  // The channels for everyone (country 0) and for the caller's country, in their order.
  const channels = db.prepare<[number], ChannelRow>(
    `SELECT c.* FROM recharge_channels c
      WHERE c.country_type_id = 0 OR c.country_type_id = (SELECT country_id FROM users WHERE id = ?)
      ORDER BY c.package_id, c.sort`,
  );
  const bought = db.prepare<[number], number>("SELECT 1 FROM recharge_orders WHERE user_id = ? AND status = 'paid' LIMIT 1").pluck();
  const vipPackage = db.prepare<[], PackageRow>('SELECT * FROM recharge_packages WHERE vip_flag = 1 ORDER BY sort LIMIT 1');
  const setting = db.prepare<[string], string>('SELECT value FROM app_config WHERE key = ?').pluck();
  // The channel asked for, as offered to the caller (everyone's or the caller's country's).
  const channelOf = db.prepare<{ userId: number; productId: string; channelId: number; countryTypeId: number }, ChannelRow & { id: number; price: string; vip_flag: number }>(
    `SELECT c.*, p.price, p.vip_flag FROM recharge_channels c JOIN recharge_packages p ON p.id = c.package_id
      WHERE c.product_id = @productId AND c.channel_id = @channelId AND c.country_type_id = @countryTypeId
        AND (c.country_type_id = 0 OR c.country_type_id = (SELECT country_id FROM users WHERE id = @userId))`,
  );

  return {
    // The user's own wallet (reference-server additions): wallet.user.ts.
    ...walletUserHandlers({ db, orders }),
    rechargeListV4(ctx) {
      const { userId } = requireSession(ctx);
      const boughtFlag = bought.get(userId) !== undefined;
      const byPackage = new Map<number, ChannelRow[]>();
      for (const c of channels.all(userId)) byPackage.set(c.package_id, [...(byPackage.get(c.package_id) ?? []), c]);
      const list: RechargePackage[] = packages.all().map((p) => ({
        subRechargeListItemVOList: (byPackage.get(p.id) ?? []).map((c) => ({
          channelType: c.channel_type, channelId: c.channel_id, countryTypeId: c.country_type_id, productId: c.product_id,
          payMethodType: c.pay_method_type, recentFlag: c.recent_flag === 1, recommendFlag: c.recommend_flag === 1, icon: c.icon,
        })),
        vipFlag: p.vip_flag === 1,
        batchNo: p.batch_no,
        price: p.price,
        diamondNum: p.diamond_num,
        giveDiamondNum: p.give_diamond_num,
        // The first recharge's gift only until the first recharge.
        firstChargeGive: boughtFlag ? 0 : p.first_charge_give,
        boughtFlag,
      }));
      return { list };
    },
    createOrder(ctx) {
      const { userId } = requireSession(ctx);
      const { body } = ctx;
      return keys.once<ResponseOf<typeof wallet.createOrder>>(ctx, wallet.createOrder, () => {
        const channel = channelOf.get({ userId, productId: body.productId, channelId: body.channelId, countryTypeId: body.countryTypeId });
        if (!channel || channel.pay_method_type !== body.paymentMethodType || (channel.vip_flag === 1) !== body.vipFlag) {
          return { refusal: new ApiError(ResultCode.invalidRequest, wallet.TEXT_PACKAGE_NOT_FOUND) };
        }
        const store = body.paymentMethodType === wallet.PayMethod.applepay || body.paymentMethodType === wallet.PayMethod.googlepay;
        // SPEC §5: VIP through a store only after another purchase.
        if (store && body.vipFlag && bought.get(userId) === undefined) {
          return { refusal: new ApiError(ResultCode.invalidRequest, wallet.TEXT_VIP_NOT_YET) };
        }
        // A redirect payment comes back into the app only: a path of this origin, never another site.
        if (!/^\/(?!\/)[^\s\\]*$/.test(body.frontCallbackUrl)) return { refusal: new ApiError(ResultCode.invalidRequest, wallet.TEXT_ORDER_FAILED) };
        const order = orders.create(userId, {
          returnPath: body.frontCallbackUrl,
          packageId: channel.package_id, channelRowId: channel.id, payMethod: channel.pay_method_type, vip: body.vipFlag, price: channel.price,
          ...(body.chainName ? { chain: body.chainName } : {}),
        });
        const diamondNum = packages.all().find((p) => p.id === channel.package_id)!.diamond_num;
        const answer = {
          orderCode: order.order_code,
          diamondNum,
          ...(order.pay_method_type === 'card' || order.pay_method_type === 'PayPal' ? { action: sandboxPayUrl(order.order_code) } : {}),
          ...(order.pay_method_type === 'usdt' ? {
            usdt: { address: order.usdt_address!, amount: order.usdt_amount!, chainName: order.chain_name!, createdAt: order.created_at, deadline: order.deadline! },
          } : {}),
        };
        return { answer };
      });
    },
    queryUsdtOrderStat(ctx) {
      const { userId } = requireSession(ctx);
      // Past its deadline an unpaid order ends 'expired' here: the answer is then 'not paid'.
      const order = orders.current(ctx.body.searchValue);
      if (!order || order.user_id !== userId || order.pay_method_type !== 'usdt') throw new ApiError(ResultCode.invalidRequest, wallet.TEXT_PACKAGE_NOT_FOUND);
      return { paid: order.status === 'paid' };
    },
    vipGetShopInfo(ctx) {
      requireSession(ctx);
      const vip = vipPackage.get();
      const percent = Number(setting.get(VIP_CALL_DISCOUNT_KEY));
      return {
        vipPrice: vip?.price ?? '0',
        vipDiamond: vip?.diamond_num ?? 0,
        callDiscount: Number.isInteger(percent) && percent > 0 && percent <= 100 ? percent : DEFAULT_VIP_CALL_PERCENT,
      };
    },
  };
}
