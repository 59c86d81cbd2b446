/**
 * Screen tests of the money screens: the whole app (app.testing.tsx) signed in as a person whose
 * session has the wallet fake (machines/ports/wallet.fake.ts) for its wallet port and the
 * services' wallet API, a store that answers as the test says, kept pay data in memory, and a
 * simulated clock for the USDT countdown (the fake's orders are made on it too). The services
 * also hold a host's money out (machines/ports/withdraw.fake.ts, its ledger and lock on the same
 * clock) and that clock, as the host's money screens read them.
 */
import { SimulatedClock } from 'xstate';
import type { PayDataPort } from '../../../machines/ports/pay-data.port';
import { FakeSessionPort, sampleAuth, sampleProfile } from '../../../machines/ports/session.fake';
import { FakeWalletPort } from '../../../machines/ports/wallet.fake';
import type { FakeWalletOptions } from '../../../machines/ports/wallet.fake';
import { FakeWithdrawPort } from '../../../machines/ports/withdraw.fake';
import type { FakeWithdrawOptions } from '../../../machines/ports/withdraw.fake';
import type { StoreOutcome, StorePay, StorePayment, UsdtOrder } from '../../../machines/ports/wallet.port';
import { autoRealtime, clockPortOf } from '../../../machines/testing/realtime';
import { renderApp, signedInHandlers } from '../../app/app.testing';
import { fakeServices } from '../../compose/services.fake';

/** The simulated clock's start: a day in 2026 (the session reads it as a date). */
export const CLOCK_START = Date.UTC(2026, 0, 15, 12, 0, 0);

export interface MoneyMount {
  path: string;
  wallet?: FakeWalletOptions;
  /** What the store says of a payment (default: no bridge, 'unavailable'). */
  store?: StoreOutcome;
  /** The USDT order an earlier run of the app kept. */
  kept?: UsdtOrder;
  /** A host (Mine at /mine) or a user (/mineRestricted). */
  host?: boolean;
  /** The host's money out: options of the fake made on the clock, or a fake the test made (default: an empty one). */
  withdraw?: FakeWithdrawOptions | ((now: () => number) => FakeWithdrawPort);
}

export function mountMoney({ path, wallet: options = {}, store = 'unavailable', kept, host = false, withdraw: out = {} }: MoneyMount) {
  const clock = new SimulatedClock();
  clock.set(CLOCK_START);
  const account = 'yx-money';
  const wallet = new FakeWalletPort('auto', { now: () => clock.now(), ...options });
  const storePayments: StorePayment[] = [];
  const storePay: StorePay = (payment) => { storePayments.push(payment); return Promise.resolve(store); };
  const keptOrders = new Map<string, UsdtOrder>(kept ? [[account, kept]] : []);
  const payData: PayDataPort = {
    read: async (who) => keptOrders.get(who) ?? null,
    write: async (who, order) => { keptOrders.set(who, order); },
    clear: async (who) => { keptOrders.delete(who); },
  };
  const session = new FakeSessionPort('auto', {
    [account]: sampleProfile({ userType: host ? 2 : 1, yxAccid: account, imToken: `im-${account}`, nickname: 'Payer' }),
  });
  const realtime = autoRealtime(account, `im-${account}`);
  const now = () => clock.now();
  const withdraw = typeof out === 'function' ? out(now) : new FakeWithdrawPort('auto', { now, ...out });
  const services = { ...fakeServices(signedInHandlers), wallet, withdraw, clock: clockPortOf(clock) };
  const { app, router } = renderApp({
    ports: { session, realtime: { ...realtime.ports, clock: clockPortOf(clock), wallet, storePay, payData } },
    openParams: sampleAuth({ token: `token-${account}` }),
    path,
    services,
  });
  const opened: string[] = [];
  app.on('openPage', ({ url }) => { opened.push(url); });
  return { app, router, wallet, withdraw, clock, storePayments, keptOrders, opened, account, services };
}
