/**
 * In-memory money in (wallet.port.ts), one signed-in person's. In auto mode it keeps what the
 * reference server keeps for them: the offers, the VIP shop, their diamonds and VIP, their
 * orders and diamond flows (newest first). An order is made for a channel of the offers (else
 * refused in words) and answered by kind: card and PayPal a redirect to the sandbox, applepay
 * and googlepay a store payment, usdt its address, amount, chain and a deadline 15 minutes on
 * (from `now`); the same idempotency key answers what it answered first, and every request is
 * recorded (`requests`). The test confirms or ends an order as the provider would: `pay` credits
 * it once (diamonds, bonus, and the first recharge's bonus on a first payment, as flows),
 * `expire` and `fail` end it unpaid. `refuseNextOrder(error)` and `loseNextAnswer()` make the
 * next order refused or unanswered (carried out, then an UnansweredError, as an answer lost on
 * the way back). In manual mode every call waits for the test under the port's method names
 * (`pending.next('offers')`, 'order', 'usdtPaid', 'vipShop', 'summary', 'orderHistory',
 * 'diamondFlows'); a shared `pending` may be passed in.
 */
import { UnansweredError } from '../shared/intent-key';
import { PendingCalls } from './pending';
import type {
  DiamondFlow, DiamondFlowKind, OrderRecord, OrderRequest, PayChannel, PlacedOrder, RechargeOffer, VipShop, WalletPage, WalletPort, WalletSummary,
} from './wallet.port';

/** SPEC §9: a USDT order may be paid for 15 minutes. */
export const FAKE_USDT_WINDOW_MS = 15 * 60_000;
export const TEXT_FAKE_NO_SUCH_CHANNEL = 'This package is not available.';

/** A channel of every pay method, for offers a test does not care about. */
export const fakeChannels = (batchNo: string): PayChannel[] =>
  ([['card', 'awx', 11], ['PayPal', 'paypal', 21], ['googlepay', 'store', 31], ['applepay', 'store', 32], ['usdt', 'usdt', 41]] as const)
    .map(([payMethod, channelType, channelId]) => ({
      payMethod, channelType, channelId, countryTypeId: 0, productId: `${batchNo}.${channelType}`, recent: false, recommended: payMethod === 'card',
      icon: `/pay/${payMethod}.svg`,
    }));

export const FAKE_OFFERS: readonly RechargeOffer[] = [
  { batchNo: 'P100', vip: false, price: '0.99', diamonds: 100, bonus: 0, firstRechargeBonus: 20, channels: fakeChannels('P100') },
  { batchNo: 'P550', vip: false, price: '4.99', diamonds: 500, bonus: 50, firstRechargeBonus: 100, channels: fakeChannels('P550') },
  { batchNo: 'VIP30', vip: true, price: '9.99', diamonds: 300, bonus: 0, firstRechargeBonus: 0, channels: fakeChannels('VIP30') },
];

export interface FakeWalletOptions {
  offers?: readonly RechargeOffer[];
  vipShop?: VipShop;
  summary?: WalletSummary;
  /** The person's orders so far, newest first. */
  orders?: readonly OrderRecord[];
  /** The person's diamond flows so far, newest first. */
  flows?: readonly DiamondFlow[];
  /** The clock a USDT order's deadline is counted from (default Date.now). */
  now?: () => number;
}

export class FakeWalletPort implements WalletPort {
  offerList: RechargeOffer[];
  shop: VipShop;
  wallet: WalletSummary;
  /** Newest first. */
  readonly orderRecords: OrderRecord[];
  /** Newest first. */
  readonly flows: DiamondFlow[];
  /** Every order asked for, in order (a replay too). */
  readonly requests: OrderRequest[] = [];
  private readonly placedByKey = new Map<string, PlacedOrder>();
  private readonly offerOf = new Map<string, RechargeOffer>();
  private readonly now: () => number;
  private refusal: Error | null = null;
  private loseNext = false;
  private made = 0;

  constructor(
    readonly mode: 'auto' | 'manual' = 'auto',
    options: FakeWalletOptions = {},
    readonly pending: PendingCalls = new PendingCalls(),
  ) {
    this.offerList = [...(options.offers ?? FAKE_OFFERS)];
    this.shop = options.vipShop ?? { price: '9.99', diamonds: 300, callPercent: 80 };
    this.wallet = { ...(options.summary ?? { diamonds: 0, vip: false, paid: false }) };
    this.orderRecords = [...(options.orders ?? [])];
    this.flows = [...(options.flows ?? [])];
    this.now = options.now ?? (() => Date.now());
  }

  /** The next order is refused with `error` (SPEC §5 VIP text, SPEC §8 order failure). */
  refuseNextOrder(error: Error): void {
    this.refusal = error;
  }

  /** The next order is made, but its answer never comes: it rejects with UnansweredError. */
  loseNextAnswer(): void {
    this.loseNext = true;
  }

  async offers(): Promise<readonly RechargeOffer[]> {
    if (this.mode === 'manual') return this.pending.add('offers', []);
    return this.offerList.map((o) => ({ ...o, firstRechargeBonus: this.wallet.paid ? 0 : o.firstRechargeBonus }));
  }

  async order(request: OrderRequest): Promise<PlacedOrder> {
    this.requests.push(request);
    if (this.mode === 'manual') return this.pending.add('order', [request]);
    const refusal = this.refusal;
    this.refusal = null;
    if (refusal) throw refusal;
    const placed = this.placedByKey.get(request.idempotencyKey) ?? this.place(request);
    this.placedByKey.set(request.idempotencyKey, placed);
    const lost = this.loseNext;
    this.loseNext = false;
    if (lost) throw new UnansweredError('No answer came.');
    return placed;
  }

  async usdtPaid(orderNo: string): Promise<boolean> {
    if (this.mode === 'manual') return this.pending.add('usdtPaid', [orderNo]);
    return this.orderRecords.find((o) => o.orderCode === orderNo && o.payMethod === 'usdt')?.status === 'paid';
  }

  async vipShop(): Promise<VipShop> {
    if (this.mode === 'manual') return this.pending.add('vipShop', []);
    return { ...this.shop };
  }

  async summary(): Promise<WalletSummary> {
    if (this.mode === 'manual') return this.pending.add('summary', []);
    return { ...this.wallet };
  }

  async orderHistory(request: WalletPage): Promise<OrderRecord[]> {
    if (this.mode === 'manual') return this.pending.add('orderHistory', [request]);
    return pageOf(this.orderRecords, request).map((o) => ({ ...o }));
  }

  async diamondFlows(request: WalletPage): Promise<DiamondFlow[]> {
    if (this.mode === 'manual') return this.pending.add('diamondFlows', [request]);
    return pageOf(this.flows, request).map((f) => ({ ...f }));
  }

  /** The provider confirms the order: credited once (diamonds, bonus, the first recharge's bonus); the diamonds credited, 0 the second time. */
  pay(orderCode: string): number {
    const record = this.pendingOrder(orderCode);
    if (!record) return 0;
    const offer = this.offerOf.get(orderCode)!;
    const first = !this.wallet.paid;
    record.status = 'paid';
    let credited = 0;
    const add = (amount: number, kind: DiamondFlowKind) => {
      if (amount <= 0) return;
      credited += amount;
      this.flow(amount, kind);
    };
    add(offer.diamonds, 'recharge');
    add(offer.bonus, 'rechargeGift');
    if (first) add(offer.firstRechargeBonus, 'rechargeGift');
    this.wallet = { ...this.wallet, paid: true, vip: this.wallet.vip || offer.vip };
    return credited;
  }

  /** A USDT order runs out unpaid; false when it was not pending. */
  expire(orderCode: string): boolean {
    return this.end(orderCode, 'expired');
  }

  /** The provider declines the order; false when it was not pending. */
  fail(orderCode: string): boolean {
    return this.end(orderCode, 'failed');
  }

  /** The person spends diamonds (a call, a gift, a secret message) as the ledger records it; false when short. */
  spend(amount: number, kind: DiamondFlowKind): boolean {
    if (amount > this.wallet.diamonds) return false;
    this.flow(-amount, kind);
    return true;
  }

  private flow(amount: number, kind: DiamondFlowKind): void {
    const balance = this.wallet.diamonds + amount;
    this.wallet = { ...this.wallet, diamonds: balance };
    this.flows.unshift({ id: (this.flows[0]?.id ?? 0) + 1, kind, amount, balance, createdAt: this.now() });
  }

  private end(orderCode: string, status: 'expired' | 'failed'): boolean {
    const record = this.pendingOrder(orderCode);
    if (record) record.status = status;
    return record !== undefined;
  }

  private pendingOrder(orderCode: string): OrderRecord | undefined {
    return this.orderRecords.find((o) => o.orderCode === orderCode && o.status === 'pending');
  }

  private place({ channel, vip, chain }: OrderRequest): PlacedOrder {
    const offer = this.offerList.find((o) => o.vip === vip && o.channels.some((c) => sameChannel(c, channel)));
    if (!offer) throw new Error(TEXT_FAKE_NO_SUCH_CHANNEL);
    const orderCode = `F${++this.made}`;
    const createdAt = this.now();
    this.offerOf.set(orderCode, offer);
    this.orderRecords.unshift({
      orderCode, payMethod: channel.payMethod, price: offer.price, diamonds: offer.diamonds, vip: offer.vip, status: 'pending', createdAt,
    });
    switch (channel.payMethod) {
      case 'usdt':
        return {
          kind: 'usdt',
          order: { orderNo: orderCode, address: `Tfake${this.made}`, amount: offer.price, chain: chain ?? 'TRC20', createdAt, deadline: createdAt + FAKE_USDT_WINDOW_MS },
        };
      case 'applepay':
      case 'googlepay':
        return { kind: 'store', orderCode };
      default:
        return { kind: 'redirect', orderCode, url: `/sandbox/pay/${orderCode}` };
    }
  }
}

const sameChannel = (a: PayChannel, b: PayChannel) =>
  a.productId === b.productId && a.channelId === b.channelId && a.countryTypeId === b.countryTypeId && a.payMethod === b.payMethod;

const pageOf = <T>(rows: readonly T[], { page, pageSize }: WalletPage): T[] => rows.slice((page - 1) * pageSize, page * pageSize);
