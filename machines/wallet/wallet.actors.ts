/**
 * The wallet composed with its ports: the summary (diamonds, VIP, the VIP shop), the kept USDT
 * order, and the loaders of its on-use children (money.actors.ts). What it asks its owner for
 * goes to the parent (the session) as the parent's events.
 */
import { fromPromise, sendParent } from 'xstate';
import type { ClockPort } from '../ports/clock.port';
import type { PayDataPort } from '../ports/pay-data.port';
import type { StorePay, UsdtOrder, WalletPort } from '../ports/wallet.port';
import type { PaymentCountdownMachine } from '../payment-countdown/payment-countdown.machine';
import type { RechargeMachine } from '../recharge/recharge.machine';
import { walletMachine } from './wallet.machine';
import type { WalletOutput } from './wallet.machine';

export interface WalletPorts {
  wallet: WalletPort;
  clock: ClockPort;
  storePay: StorePay;
  payData: PayDataPort;
}

/** Loads the on-use module (money.actors.ts) for a use; tests pass one they settle by hand. */
export type MoneyLoader = (use: 'recharge' | 'countdown') => Promise<MoneyModule>;

/** What money.actors.ts exports to the wallet. */
export interface MoneyModule {
  composeRecharge(ports: Pick<WalletPorts, 'wallet' | 'storePay'>): RechargeMachine;
  composeCountdown(ports: Pick<WalletPorts, 'wallet' | 'clock'>): PaymentCountdownMachine;
}

export function composeWallet(ports: WalletPorts, loadMoney: MoneyLoader = () => import('./money.actors')) {
  return walletMachine.provide({
    actors: {
      summary: fromPromise(async () => {
        const [summary, shop] = await Promise.all([ports.wallet.summary(), ports.wallet.vipShop()]);
        return { summary, shop };
      }),
      savedOrder: fromPromise(async ({ input }: { input: { account: string } }) => ({ order: await ports.payData.read(input.account), now: ports.clock.now() })),
      // The module is fetched once (the bundler keeps it); composing is cheap.
      loadRecharge: fromPromise<RechargeMachine>(async () => (await loadMoney('recharge')).composeRecharge(ports)),
      loadCountdown: fromPromise<PaymentCountdownMachine>(async () => (await loadMoney('countdown')).composeCountdown(ports)),
    },
    actions: {
      output: sendParent((_, params: WalletOutput) => params),
      // Storage that cannot be written only costs the pick-up after a reload.
      keepOrder: (_, { account, order }: { account: string; order: UsdtOrder }) => { ports.payData.write(account, order).catch(() => undefined); },
      forgetOrder: (_, account: string) => { ports.payData.clear(account).catch(() => undefined); },
    },
  });
}
