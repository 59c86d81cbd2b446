/**
 * The wallet's children loaded on use (wallet.actors.ts loads this module when the recharge
 * opens or a USDT order is followed): the recharge over the wallet port and the native store,
 * and the USDT payment countdown over the clock and the order query. Not in the first screens.
 */
import { fromPromise } from 'xstate';
import type { ClockPort } from '../ports/clock.port';
import type { OrderRequest, StorePay, StorePayment, WalletPort } from '../ports/wallet.port';
import { composePaymentCountdown } from '../payment-countdown/payment-countdown.actors';
import type { PaymentCountdownMachine } from '../payment-countdown/payment-countdown.machine';
import { rechargeMachine } from '../recharge/recharge.machine';
import type { RechargeMachine } from '../recharge/recharge.machine';

export interface MoneyPorts {
  wallet: WalletPort;
  clock: ClockPort;
  storePay: StorePay;
}

export function composeRecharge(ports: Pick<MoneyPorts, 'wallet' | 'storePay'>): RechargeMachine {
  return rechargeMachine.provide({
    actors: {
      offers: fromPromise(() => ports.wallet.offers()),
      order: fromPromise(({ input }: { input: OrderRequest }) => ports.wallet.order(input)),
      store: fromPromise(({ input }: { input: StorePayment }) => ports.storePay(input)),
    },
  });
}

export function composeCountdown(ports: Pick<MoneyPorts, 'wallet' | 'clock'>): PaymentCountdownMachine {
  return composePaymentCountdown({ clock: ports.clock, queryOrder: (orderNo) => ports.wallet.usdtPaid(orderNo) });
}
