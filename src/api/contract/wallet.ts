/**
 * Money in (SPEC §1 channels, §3 Recharge package group, Order response, VIP shop info, §4
 * Crypto payment and Recharge, §5 VIP recharge text, §7 Gifts and money, §8 'no pay' and an
 * order's failure, §9 pay method types and the crypto countdown).
 *
 * - rechargeListV4 answers the package groups the person may buy: price, diamonds, the gift
 *   diamonds of every recharge (giveDiamondNum) and of the first one only (firstChargeGive,
 *   given while `boughtFlag` is false), VIP packages (vipFlag), and each package's channel
 *   sub-options (one pays directly, several open a picker, SPEC §4 Recharge).
 * - createOrder makes an order for one sub-option. Card and PayPal answer a redirect
 *   (`action`) or an Airwallex-shaped `awxObj`; applepay and googlepay are paid through the
 *   native shell's store and answer only the order; usdt answers the address, amount, chain
 *   and deadline the person pays to (`usdt`). An order carries an idempotency key
 *   (src/api/contract/idempotency.ts): the same tap received again makes no second order and
 *   answers what the first answered.
 * - queryUsdtOrderStat says whether a USDT order was paid (asked when its countdown ends); an
 *   order past its deadline unpaid is ended 'expired' then (system message 99, usdtPayStatus
 *   false) and answers false, and a payment confirmed after it credits nothing.
 * - vipGetShopInfo answers the VIP price, its diamonds and the call discount.
 * An order is credited once, when its payment is confirmed (the payment sandbox's callback on
 * the reference server): the diamonds, giveDiamondNum, and firstChargeGive on the person's
 * first recharge only, each as an entry of the ledger; a callback repeated or concurrent
 * credits nothing more.
 */
import * as z from 'zod/mini';
import { ImageUrl, defineEndpoint } from './endpoint';
import { IdempotencyKey } from './idempotency';

/** SPEC §9 pay method types, and the stablecoin channel of SPEC §1. */
export const PayMethod = { card: 'card', applepay: 'applepay', googlepay: 'googlepay', paypal: 'PayPal', usdt: 'usdt' } as const;
export type PayMethod = (typeof PayMethod)[keyof typeof PayMethod];
const payMethods = Object.values(PayMethod) as [PayMethod, ...PayMethod[]];

/** The chains a USDT order may be paid on. */
export const USDT_CHAINS = ['TRC20', 'ERC20'] as const;
export type UsdtChain = (typeof USDT_CHAINS)[number];

/** SPEC §5: a VIP package bought through a store before VIP recharges are allowed (shown 5 s). */
export const TEXT_VIP_NOT_YET =
  'Hey there! You’ll need to purchase other products first to unlock VIP recharges. We appreciate your understanding and hope you enjoy your day!';
export const VIP_NOT_YET_SHOW_MS = 5_000;
/** SPEC §8: a store payment asked for with no native pay bridge. */
export const TEXT_NO_PAY = 'no pay';
/** SPEC §8: an order that could not be made (its failure event is reported; the person may try again). */
export const TEXT_ORDER_FAILED = 'The order could not be placed. Please try again.';
export const TEXT_PACKAGE_NOT_FOUND = 'This package is not available.';

/** One way to pay for a package (SPEC §3 subRechargeListItemVOList). */
export const RechargeChannel = z.object({
  channelType: z.string(),
  channelId: z.number(),
  countryTypeId: z.number(),
  productId: z.string(),
  payMethodType: z.enum(payMethods),
  recentFlag: z.boolean(),
  recommendFlag: z.boolean(),
  icon: ImageUrl,
});
export type RechargeChannel = z.output<typeof RechargeChannel>;

/** A package (SPEC §3 Recharge package group). */
export const RechargePackage = z.object({
  subRechargeListItemVOList: z.array(RechargeChannel),
  vipFlag: z.boolean(),
  batchNo: z.string(),
  /** The price in US dollars, as shown. */
  price: z.string(),
  diamondNum: z.number(),
  giveDiamondNum: z.number(),
  firstChargeGive: z.number(),
  /** Whether this person recharged before (then no firstChargeGive). */
  boughtFlag: z.boolean(),
});
export type RechargePackage = z.output<typeof RechargePackage>;

export const rechargeListV4 = defineEndpoint({
  path: '/api/wallet/rechargeListV4',
  method: 'POST',
  auth: 'session',
  request: z.object({}),
  response: z.object({ list: z.array(RechargePackage) }),
});

/** SPEC §3 Order response's Airwallex-shaped payment. */
export const AwxObj = z.object({
  id: z.string(),
  client_secret: z.string(),
  currency: z.string(),
  customer_id: z.string(),
  return_url: z.string(),
  amount: z.number(),
  updated_at: z.string(),
  paymentAmount: z.number(),
  payments: z.array(z.object({ name: z.string(), paylink: z.string() })),
});

/** What a USDT order is paid to, and until when (ms since the epoch). */
export const UsdtPayment = z.object({
  address: z.string(),
  amount: z.string(),
  chainName: z.enum(USDT_CHAINS),
  createdAt: z.number(),
  deadline: z.number(),
});

export const createOrder = defineEndpoint({
  path: '/api/fuse/v2/createOrder',
  method: 'POST',
  auth: 'session',
  request: z.object({
    /** Where a redirect payment comes back to (the app's own address). */
    frontCallbackUrl: z.string().check(z.minLength(1), z.maxLength(512)),
    paymentMethodType: z.enum(payMethods),
    productId: z.string().check(z.minLength(1), z.maxLength(64)),
    channelId: z.int().check(z.positive()),
    countryTypeId: z.int().check(z.nonnegative()),
    vipFlag: z.boolean(),
    /** A USDT order's chain. */
    chainName: z.optional(z.enum(USDT_CHAINS)),
    /** One per tap on a package or a channel: a replay makes no second order. */
    idempotencyKey: IdempotencyKey,
  }),
  response: z.object({
    orderCode: z.string(),
    /** The redirect of a card or PayPal payment. */
    action: z.optional(z.string()),
    awxObj: z.optional(AwxObj),
    /** A USDT order's payment. */
    usdt: z.optional(UsdtPayment),
    diamondNum: z.number(),
  }),
});

export const queryUsdtOrderStat = defineEndpoint({
  path: '/api/fuse/queryUsdtOrderStat',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: z.string().check(z.minLength(1), z.maxLength(64)) }),
  response: z.object({ paid: z.boolean() }),
});

export const vipGetShopInfo = defineEndpoint({
  path: '/api/wallet/vipGetShopInfo',
  method: 'POST',
  auth: 'session',
  request: z.object({}),
  response: z.object({
    vipPrice: z.string(),
    vipDiamond: z.number(),
    /** The percentage of a call's price a VIP pays (80: VIPs pay floor(price × 80 / 100), shown as 20 % off; SPEC §6). */
    callDiscount: z.number(),
  }),
});

/*
 * The user's wallet: reference-server additions. SPEC §7 names no endpoint for a person's own
 * wallet (their balance, their orders, their spending); these three answer the /wallet screen
 * of a non-host (machines/ports/wallet.port.ts summary, orderHistory, diamondFlows). Each
 * answers the caller's own rows only, newest first; a page shorter than pageSize is the last.
 */

/** Largest page of the user's orders and diamond flows. */
export const MAX_WALLET_PAGE_SIZE = 50;

const walletPage = z.object({
  currentPage: z.int().check(z.minimum(1), z.maximum(1_000_000)),
  pageSize: z.int().check(z.minimum(1), z.maximum(MAX_WALLET_PAGE_SIZE)),
});

/** Reference-server addition: the caller's diamonds, VIP, and whether a recharge order of theirs was ever paid. */
export const myWallet = defineEndpoint({
  path: '/api/wallet/user/myWallet',
  method: 'POST',
  auth: 'session',
  request: z.object({}),
  response: z.object({ diamonds: z.number(), isVip: z.boolean(), paid: z.boolean() }),
});

/** An order's state: a pending USDT order past its deadline reads as (and is ended) 'expired'. */
export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'expired'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const OrderItem = z.object({
  orderCode: z.string(),
  payMethodType: z.enum(payMethods),
  /** The package's US-dollar price, as shown. */
  price: z.string(),
  /** The package's diamonds (without its gifts). */
  diamondNum: z.number(),
  vipFlag: z.boolean(),
  status: z.enum(ORDER_STATUSES),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
});
export type OrderItem = z.output<typeof OrderItem>;

/** Reference-server addition: the caller's recharge orders, newest first. */
export const orderList = defineEndpoint({
  path: '/api/wallet/user/orderList',
  method: 'POST',
  auth: 'session',
  request: walletPage,
  response: z.object({ list: z.array(OrderItem) }),
});

/**
 * Why the diamonds changed: a recharge, its gifts (every recharge's and the first one's), a
 * call, a gift, a secret message, the opening balance; anything else is 'other'.
 */
export const DIAMOND_FLOW_KINDS = ['recharge', 'rechargeGift', 'call', 'gift', 'privateMessage', 'opening', 'other'] as const;
export type DiamondFlowKind = (typeof DIAMOND_FLOW_KINDS)[number];

export const FlowItem = z.object({
  id: z.number(),
  kind: z.enum(DIAMOND_FLOW_KINDS),
  /** Positive when diamonds came in, negative when spent. */
  amount: z.number(),
  /** The balance after it. */
  balance: z.number(),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
});
export type FlowItem = z.output<typeof FlowItem>;

/** Reference-server addition: the entries of the caller's diamond ledger, newest first. */
export const flowList = defineEndpoint({
  path: '/api/wallet/user/flowList',
  method: 'POST',
  auth: 'session',
  request: walletPage,
  response: z.object({ list: z.array(FlowItem) }),
});
