/**
 * The wallet port's contract (SPEC §3 Recharge package group, Order response, VIP shop info;
 * §4 Crypto payment and Recharge; the user's wallet of the reference server), run against the
 * in-memory fake (wallet.fake.test.ts) and the HTTP adapter over the reference server
 * (src/adapters/http/wallet.http.test.ts). The rig confirms or ends orders as the payment
 * provider would (the reference server's payment sandbox).
 */
import { describe, expect, it } from 'vitest';
import { perTest } from './contract.support';
import type { OrderRequest, PayChannel, PayMethod, RechargeOffer, WalletPort } from './wallet.port';

export interface WalletContractRig {
  /** The port of a signed-in person who never paid. */
  port: WalletPort;
  /** The provider confirms the order (credited once). */
  pay(orderCode: string): void | Promise<void>;
  /** A USDT order runs out unpaid. */
  expire(orderCode: string): void | Promise<void>;
  dispose(): void | Promise<void>;
}

export type WalletRigFactory = () => WalletContractRig | Promise<WalletContractRig>;

let keys = 0;
const request = (channel: PayChannel, over: Partial<OrderRequest> = {}): OrderRequest =>
  ({ channel, vip: false, returnPath: '/wallet', idempotencyKey: `k-wallet-contract-${++keys}-${Math.random().toString(36).slice(2)}`, ...over });

/** The first offer (VIP or not) with a channel of `method` for every country. */
function channelOf(offers: readonly RechargeOffer[], method: PayMethod, vip = false): { offer: RechargeOffer; channel: PayChannel } {
  const offer = offers.find((o) => o.vip === vip && o.channels.some((c) => c.payMethod === method && c.countryTypeId === 0));
  if (!offer) throw new Error(`No ${vip ? 'VIP ' : ''}offer paid by ${method}.`);
  return { offer, channel: offer.channels.find((c) => c.payMethod === method && c.countryTypeId === 0)! };
}

export function registerWalletContract(name: string, factory: WalletRigFactory): void {
  describe(`[contract] wallet port: ${name}`, () => {
    const t = perTest(factory);

    it('[§3 Recharge package group] offers packages with their channels, the first recharge\'s bonus to one who never paid; a VIP shop', async () => {
      const offers = await t.rig.port.offers();
      expect(offers.length).toBeGreaterThan(0);
      const { offer } = channelOf(offers, 'card');
      expect(offer.firstRechargeBonus).toBeGreaterThan(0);
      expect(offers.some((o) => o.vip)).toBe(true);
      const shop = await t.rig.port.vipShop();
      expect(shop.callPercent).toBeGreaterThan(0);
      expect(shop.callPercent).toBeLessThanOrEqual(100);
      expect(await t.rig.port.summary()).toMatchObject({ vip: false, paid: false });
      expect(await t.rig.port.orderHistory({ page: 1, pageSize: 10 })).toEqual([]);
    });

    it('[§4 Recharge] a card order is a redirect; the same key answers the same order; paid, it is credited once and shows everywhere', async () => {
      const { port } = t.rig;
      const { offer, channel } = channelOf(await port.offers(), 'card');
      const before = await port.summary();
      const tap = request(channel);
      const placed = await port.order(tap);
      expect(placed.kind).toBe('redirect');
      if (placed.kind !== 'redirect') return;
      expect(await port.order(tap)).toEqual(placed);
      expect((await port.orderHistory({ page: 1, pageSize: 10 })).map((o) => [o.orderCode, o.status])).toEqual([[placed.orderCode, 'pending']]);
      await t.rig.pay(placed.orderCode);
      await t.rig.pay(placed.orderCode);
      const credited = offer.diamonds + offer.bonus + offer.firstRechargeBonus;
      const after = await port.summary();
      expect(after).toEqual({ diamonds: before.diamonds + credited, vip: false, paid: true });
      const [record] = await port.orderHistory({ page: 1, pageSize: 10 });
      expect(record).toMatchObject({ orderCode: placed.orderCode, payMethod: 'card', price: offer.price, diamonds: offer.diamonds, vip: false, status: 'paid' });
      const flows = await port.diamondFlows({ page: 1, pageSize: 10 });
      expect(flows[0]!.balance).toBe(after.diamonds);
      const recharge = flows.filter((f) => f.kind === 'recharge' || f.kind === 'rechargeGift');
      expect(recharge.reduce((sum, f) => sum + f.amount, 0)).toBe(credited);
      expect(recharge.map((f) => f.kind)).toContain('recharge');
      // Newest first.
      expect(flows.map((f) => f.id)).toEqual([...flows.map((f) => f.id)].sort((a, b) => b - a));
      // Now a buyer: no first recharge's bonus any more.
      expect((await port.offers()).every((o) => o.firstRechargeBonus === 0)).toBe(true);
    });

    it('[§4 Crypto payment] a USDT order answers where, how much, on which chain and until when; paid or run out', async () => {
      const { port } = t.rig;
      const { channel } = channelOf(await port.offers(), 'usdt');
      const placed = await port.order(request(channel, { chain: 'ERC20' }));
      expect(placed.kind).toBe('usdt');
      if (placed.kind !== 'usdt') return;
      const { order } = placed;
      expect(order.chain).toBe('ERC20');
      expect(order.address).not.toBe('');
      expect(order.deadline - order.createdAt).toBe(15 * 60_000);
      expect(await port.usdtPaid(order.orderNo)).toBe(false);
      await t.rig.pay(order.orderNo);
      expect(await port.usdtPaid(order.orderNo)).toBe(true);

      const late = await port.order(request(channel, { chain: 'TRC20' }));
      if (late.kind !== 'usdt') throw new Error('Expected a USDT order.');
      await t.rig.expire(late.order.orderNo);
      expect(await port.usdtPaid(late.order.orderNo)).toBe(false);
      expect((await port.orderHistory({ page: 1, pageSize: 1 }))[0]).toMatchObject({ orderCode: late.order.orderNo, status: 'expired' });
    });

    it('a store order is the order alone; a VIP order paid makes the person VIP', async () => {
      const { port } = t.rig;
      const { channel } = channelOf(await port.offers(), 'googlepay');
      expect((await port.order(request(channel))).kind).toBe('store');
      const vip = channelOf(await port.offers(), 'card', true);
      const placed = await port.order(request(vip.channel, { vip: true }));
      if (placed.kind !== 'redirect') throw new Error('Expected a redirect.');
      await t.rig.pay(placed.orderCode);
      expect(await port.summary()).toMatchObject({ vip: true, paid: true });
    });

    it('pages the orders newest first; a short page is the last', async () => {
      const { port } = t.rig;
      const { channel } = channelOf(await port.offers(), 'PayPal');
      const codes: string[] = [];
      for (let i = 0; i < 3; i++) {
        const placed = await port.order(request(channel));
        if (placed.kind !== 'redirect') throw new Error('Expected a redirect.');
        codes.push(placed.orderCode);
      }
      const first = await port.orderHistory({ page: 1, pageSize: 2 });
      const second = await port.orderHistory({ page: 2, pageSize: 2 });
      expect([...first, ...second].map((o) => o.orderCode)).toEqual(codes.reverse());
      expect(second).toHaveLength(1);
      expect(await port.orderHistory({ page: 3, pageSize: 2 })).toEqual([]);
    });
  });
}
