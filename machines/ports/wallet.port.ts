/**
 * What money in needs from the world (SPEC §3 Recharge package group, Order response, VIP shop
 * info; §7 Gifts and money): the packages with their channels, making an order, a USDT
 * order's state, the VIP shop. The HTTP adapter (src/adapters/http/wallet.http.ts) maps
 * src/api/contract/wallet.ts onto it.
 */
/** A USDT order being paid (SPEC §4 Crypto payment): what to pay, where, and until when. */
export interface UsdtOrder {
  orderNo: string;
  /** Where to pay, how much, on which chain (SPEC §3 Order response). */
  address: string;
  amount: string;
  chain: string;
  /** When the order was made and until when it may be paid, in clock milliseconds. */
  createdAt: number;
  deadline: number;
}

/** SPEC §9 pay method types, and the stablecoin channel of SPEC §1. */
export type PayMethod = 'card' | 'applepay' | 'googlepay' | 'PayPal' | 'usdt';

/** One way to pay for a package. */
export interface PayChannel {
  payMethod: PayMethod;
  channelType: string;
  channelId: number;
  countryTypeId: number;
  productId: string;
  recent: boolean;
  recommended: boolean;
  icon: string;
}

export interface RechargeOffer {
  batchNo: string;
  vip: boolean;
  /** The shown US-dollar price. */
  price: string;
  diamonds: number;
  /** Given with every recharge of it, and with the first recharge only. */
  bonus: number;
  firstRechargeBonus: number;
  channels: readonly PayChannel[];
}

/** What an order answered: where a redirect payment goes, or a USDT order's payment. */
export type PlacedOrder =
  | { kind: 'redirect'; orderCode: string; url: string }
  | { kind: 'store'; orderCode: string }
  | { kind: 'usdt'; order: UsdtOrder };

export interface OrderRequest {
  channel: PayChannel;
  vip: boolean;
  chain?: 'TRC20' | 'ERC20';
  /** The app's path a redirect payment comes back to. */
  returnPath: string;
  /** One per tap (machines/shared/intent-key.ts): a replay makes no second order. */
  idempotencyKey: string;
}

export interface VipShop {
  price: string;
  diamonds: number;
  /** The percentage of a call's price a VIP pays (SPEC §6). */
  callPercent: number;
}

/** What the native store says of a payment (the shell's bridge; 'unavailable' when there is none: SPEC §8 'no pay'). */
export type StoreOutcome = 'approved' | 'declined' | 'cancelled' | 'unavailable';

/** A store payment of an order (README "Shell contract", Store payments). */
export interface StorePayment {
  orderCode: string;
  productId: string;
  method: 'applepay' | 'googlepay';
}

/** The native shell's store (src/adapters/store.bridge.ts). */
export type StorePay = (payment: StorePayment) => Promise<StoreOutcome>;

/** The person's diamonds and VIP, and whether they ever paid (the reference server's /api/wallet/user/myWallet). */
export interface WalletSummary {
  diamonds: number;
  vip: boolean;
  /** A recharge order of theirs was ever paid (SPEC §4: the non-paid user quota applies until then). */
  paid: boolean;
}

export type OrderStatus = 'pending' | 'paid' | 'failed' | 'expired';

/** One of the person's recharge orders, newest first (/api/wallet/user/orderList). */
export interface OrderRecord {
  orderCode: string;
  payMethod: PayMethod;
  /** The US-dollar price as shown. */
  price: string;
  /** The package's diamonds (without gifts). */
  diamonds: number;
  vip: boolean;
  status: OrderStatus;
  /** Clock milliseconds. */
  createdAt: number;
}

/** Why the diamonds changed: a recharge and its gifts, or what they were spent on. */
export type DiamondFlowKind = 'recharge' | 'rechargeGift' | 'call' | 'gift' | 'privateMessage' | 'opening' | 'other';

/** One change of the diamond balance, newest first (/api/wallet/user/flowList). */
export interface DiamondFlow {
  id: number;
  kind: DiamondFlowKind;
  /** Positive when diamonds came in, negative when spent. */
  amount: number;
  /** The balance after it. */
  balance: number;
  createdAt: number;
}

/** One page of a list (1-based), as the paged lists ask (machines/shared/paging.ts). */
export interface WalletPage {
  page: number;
  pageSize: number;
}

export interface WalletPort {
  offers(): Promise<readonly RechargeOffer[]>;
  /** Rejects with an Error whose message says why (SPEC §5 VIP text, SPEC §8 order failure), or an UnansweredError. */
  order(request: OrderRequest): Promise<PlacedOrder>;
  usdtPaid(orderNo: string): Promise<boolean>;
  vipShop(): Promise<VipShop>;
  summary(): Promise<WalletSummary>;
  orderHistory(request: WalletPage): Promise<OrderRecord[]>;
  diamondFlows(request: WalletPage): Promise<DiamondFlow[]>;
}
