/**
 * The person's wallet, for the session (SPEC §4 Recharge and Crypto payment, §6 VIP, §9 VIP
 * info refresh debounced 500 ms): their diamonds and VIP, the recharge while its screen is open,
 * and the USDT order being paid. Three regions run side by side:
 *
 *   summary:   idle ─wallet.refresh─▶ loading ─▶ ready | failed (the first ask, at once)
 *              wallet.refresh (after) ─▶ waiting ─500 ms, no other refresh─▶ loading
 *   recharge:  closed ─recharge.open─▶ loading (its code) ─▶ open (the recharge machine) ─done─▶
 *                redirect: the provider's page opens (the app comes back at the return path) ─▶ closed
 *                paid in the store: "Recharge successful", refresh ─▶ loading (fresh packages)
 *                usdt: the countdown takes the order, /usdtPay ─▶ closed
 *              loading ─error─▶ closed (said why);  loading | open ─recharge.close─▶ closed
 *   countdown: restoring (the kept order, for a reload) ─▶ loading (its code) ─▶ counting | idle
 *              any ─a new USDT order─▶ loading ─▶ counting (kept) ─done─▶ idle (the kept order forgotten)
 *                paid: status 1, refresh, /usdtPay/pay-status;  expired: back to /wallet;  cleared: nothing more
 *              loading ─error─▶ notLoaded (the order stays kept) ─app.visible─▶ loading
 *
 * The recharge's and the countdown's code loads on use (machines/shared/load-then-spawn.ts): it
 * is not in the first screens.
 *
 * What refreshes the summary: a payment made in the store, a USDT order paid, the person back
 * from a provider's page, the recharge message from the server's system sender (a payment
 * confirmed while the app looked elsewhere), and the screens that show it. Bursts of them are
 * one load, 500 ms after the last. A VIP that the summary reports differently from the profile
 * is told to the owner (`wallet.vip`): pinning and the profile follow.
 *
 * The countdown's order is kept (`keepOrder`, the composition's storage) from the moment it is
 * made until it ends, so a reload picks it up (`savedOrder`); the countdown itself forgets it
 * an hour after the order (SPEC §9).
 */
import { assertEvent, assign, emit, enqueueActions, fromPromise, raise, sendTo, stopChild } from 'xstate';
import { setup } from '../setup';
import type { ImConnectionEmitted } from '../im-connection/im-connection.types';
import type { ImMessage } from '../ports/im.port';
import type { UsdtOrder, VipShop, WalletSummary } from '../ports/wallet.port';
import type { PaymentCountdownMachine, PaymentCountdownOutput } from '../payment-countdown/payment-countdown.machine';
import type { RechargeMachine, RechargeResult } from '../recharge/recharge.machine';
import { loadedOnUse, spawnLoaded } from '../shared/load-then-spawn';
import { factsOf } from '../shared/facts-of';
import { textOf } from '../shared/error-text';
import { isRecharge } from '../im/preview';
import { SYSTEM_SENDER_ACCID } from '../system-messages/system-sender';

/** SPEC §9: the VIP info refresh is debounced by 500 ms. */
export const REFRESH_DEBOUNCE_MS = 500;
/** Where the person lands after a USDT order is made, paid, or not paid in time (SPEC §2, §4 Crypto payment). */
export const USDT_PAY_PATH = '/usdtPay';
export const USDT_PAY_STATUS_PATH = '/usdtPay/pay-status';
export const WALLET_PATH = '/wallet';
/** Said when a store payment went through. */
export const TEXT_RECHARGE_PAID = 'Recharge successful';

/** What a provider's page said as it sent the person back (the order's return path's `result`). */
export type ReturnedResult = 'paid' | 'failed' | 'cancelled';

export interface WalletInput {
  /** The person (their kept order is theirs). */
  account: string;
  /** VIP as the profile says: a summary that says otherwise is told to the owner. */
  isVip: boolean;
}

export interface WalletContext extends WalletInput {
  summary: WalletSummary | null;
  shop: VipShop | null;
  /** Why the last summary load failed, until one succeeds. */
  summaryError: string | null;
  /** Where the open recharge's redirect payments come back to. */
  returnPath: string;
  /** The USDT order being paid, and the clock's time the countdown starts from. */
  usdt: UsdtOrder | null;
  usdtFrom: number;
  /** How the last USDT order ended (the status page reads it). */
  usdtEnded: PaymentCountdownOutput | null;
  /** What a provider's page said of the order the person came back from, until dismissed. */
  returned: { orderCode: string; result: ReturnedResult } | null;
}

export type WalletEvent =
  | { type: 'wallet.refresh' }
  /** The recharge screen opened (its redirect payments come back to `returnPath`) or closed. */
  | { type: 'recharge.open'; returnPath: string }
  | { type: 'recharge.close' }
  /** Back from a provider's page with the order's result (the return path's query). */
  | { type: 'recharge.returned'; orderCode: string; result: ReturnedResult }
  | { type: 'recharge.dismissResult' }
  /** A fact of the IM connection (the wallet subscribes to messages). */
  | { type: 'im.message'; message: ImMessage }
  /** Back in view: the countdown reads the clock at once. */
  | { type: 'app.visible' }
  /** SPEC §4 system message 99 (the session routes it here): for the countdown of its order. */
  | { type: 'system.cryptoPayment'; paid: boolean; orderNo: string }
  /** The recharge just made a USDT order: the countdown follows it (raised by the wallet itself). */
  | { type: 'countdown.follow'; order: UsdtOrder }
  /** The loaded children's ends (they are spawned, so their ends are events). */
  | { type: 'xstate.done.actor.recharge'; output: RechargeResult }
  | { type: 'xstate.done.actor.paymentCountdown'; output: PaymentCountdownOutput }
  | { type: 'xstate.done.actor.loadRecharge'; output: RechargeMachine }
  | { type: 'xstate.done.actor.loadCountdown'; output: PaymentCountdownMachine };

/** Provided by the composition (wallet.actors.ts), which loads money.actors.ts. */
const notComposed = () => Promise.reject(new Error('The wallet was not composed with its loaded children'));

/** What the wallet asks its owner for. */
export type WalletOutput =
  | { type: 'child.navigate'; to: string }
  | { type: 'child.toast'; text: string }
  /** A page outside the app (a payment provider's). */
  | { type: 'child.openPage'; url: string }
  | { type: 'wallet.vip'; isVip: boolean };

/** How a followed order ended, kept for the status page. */
const ended = assign<WalletContext, Extract<WalletEvent, { type: 'xstate.done.actor.paymentCountdown' }>, undefined, WalletEvent, never>({
  usdt: null,
  usdtEnded: ({ event }) => event.output,
});

const isServerRecharge = (message: ImMessage): boolean => message.from === SYSTEM_SENDER_ACCID && isRecharge(message);

export const walletMachine = setup({
  types: {
    input: {} as WalletInput,
    context: {} as WalletContext,
    events: {} as WalletEvent,
    emitted: {} as WalletOutput,
    children: {} as {
      summary: 'summary'; recharge: 'recharge'; paymentCountdown: 'paymentCountdown'; savedOrder: 'savedOrder'; messages: 'messages';
      loadRecharge: 'loadRecharge'; loadCountdown: 'loadCountdown';
    },
  },
  actors: {
    summary: fromPromise<{ summary: WalletSummary; shop: VipShop }>(() => Promise.reject(new Error('summary not provided'))),
    /** The recharge's and the countdown's code, composed with their ports, loaded on use. */
    loadRecharge: fromPromise<RechargeMachine>(notComposed),
    loadCountdown: fromPromise<PaymentCountdownMachine>(notComposed),
    /** Spawned from the loaders' answers (machines/shared/load-then-spawn.ts). */
    recharge: loadedOnUse<RechargeMachine>(),
    paymentCountdown: loadedOnUse<PaymentCountdownMachine>(),
    /** The USDT order kept by an earlier run of the app, with the clock's time now. */
    savedOrder: fromPromise<{ order: UsdtOrder | null; now: number }, { account: string }>(() => Promise.resolve({ order: null, now: 0 })),
    messages: factsOf<ImConnectionEmitted>('imConnection', ['im.message']),
  },
  actions: {
    /** What the wallet asks its owner for; the composition sends it to the session. */
    output: emit((_, params: WalletOutput) => params),
    /** Keeps the order being paid (a reload picks it up) or forgets it; the composition's storage. */
    keepOrder: (_, _kept: { account: string; order: UsdtOrder }) => {},
    forgetOrder: (_, _account: string) => {},
    refresh: raise({ type: 'wallet.refresh' }),
  },
  guards: {
    serverRecharge: ({ event }) => { assertEvent(event, 'im.message'); return isServerRecharge(event.message); },
  },
}).createMachine({
  id: 'wallet',
  context: ({ input }) => ({
    ...input, summary: null, shop: null, summaryError: null, returnPath: WALLET_PATH, usdt: null, usdtFrom: 0, usdtEnded: null, returned: null,
  }),
  // The recharge message of the server: a payment went through, wherever it was made.
  invoke: { id: 'messages', src: 'messages' },
  on: {
    'im.message': { guard: 'serverRecharge', actions: 'refresh' },
    'recharge.returned': {
      actions: [assign({ returned: ({ event }) => ({ orderCode: event.orderCode, result: event.result }) }), 'refresh'],
    },
    'recharge.dismissResult': { actions: assign({ returned: null }) },
    // An order paid that no countdown follows (forgotten, or followed by another run) still shows in the balance.
    'system.cryptoPayment': { guard: ({ event }) => event.paid, actions: 'refresh' },
  },
  type: 'parallel',
  states: {
    summary: {
      initial: 'idle',
      // Not `reenter`: a region's own transition that re-entered it would re-enter its siblings too (its domain is the wallet).
      on: { 'wallet.refresh': '.waiting' },
      states: {
        /** Not asked for yet: the first screen that shows it asks, and gets it at once. */
        idle: { on: { 'wallet.refresh': 'loading' } },
        waiting: { after: { [REFRESH_DEBOUNCE_MS]: 'loading' } },
        loading: {
          invoke: {
            id: 'summary',
            src: 'summary',
            onDone: [
              {
                guard: ({ context, event }) => event.output.summary.vip !== context.isVip,
                target: 'ready',
                actions: [
                  assign(({ event }) => ({ summary: event.output.summary, shop: event.output.shop, summaryError: null, isVip: event.output.summary.vip })),
                  { type: 'output', params: ({ event }) => ({ type: 'wallet.vip' as const, isVip: event.output.summary.vip }) },
                ],
              },
              { target: 'ready', actions: assign(({ event }) => ({ summary: event.output.summary, shop: event.output.shop, summaryError: null })) },
            ],
            onError: { target: 'failed', actions: assign({ summaryError: ({ event }) => textOf(event.error) }) },
          },
        },
        ready: {},
        failed: {},
      },
    },
    recharge: {
      initial: 'closed',
      states: {
        closed: {
          on: { 'recharge.open': { target: 'loading', actions: assign({ returnPath: ({ event }) => event.returnPath }) } },
        },
        loading: {
          invoke: {
            id: 'loadRecharge',
            src: 'loadRecharge',
            onDone: {
              target: 'open',
              actions: enqueueActions(({ context, enqueue, event }) => {
                spawnLoaded(enqueue, event.output, { id: 'recharge', input: { returnPath: context.returnPath } });
              }),
            },
            onError: { target: 'closed', actions: { type: 'output', params: ({ event }) => ({ type: 'child.toast' as const, text: textOf(event.error) }) } },
          },
          on: { 'recharge.close': 'closed' },
        },
        /** The recharge lives exactly as long as this state. */
        open: {
          exit: stopChild('recharge'),
          on: {
            'recharge.close': 'closed',
            'xstate.done.actor.recharge': [
              {
                guard: ({ event }) => event.output.kind === 'redirect',
                target: 'closed',
                actions: { type: 'output', params: ({ event }) => ({ type: 'child.openPage' as const, url: event.output.kind === 'redirect' ? event.output.url : '' }) },
              },
              {
                // Paid in the store: the packages again (a first recharge's gift is gone now).
                guard: ({ event }) => event.output.kind === 'paid',
                target: 'loading',
                actions: [{ type: 'output', params: { type: 'child.toast', text: TEXT_RECHARGE_PAID } }, 'refresh'],
              },
              {
                target: 'closed',
                actions: [
                  raise(({ event }) => {
                    if (event.output.kind !== 'usdt') throw new Error('A USDT order was expected');
                    return { type: 'countdown.follow' as const, order: event.output.order };
                  }),
                  { type: 'output', params: { type: 'child.navigate', to: USDT_PAY_PATH } },
                ],
              },
            ],
          },
        },
      },
    },
    countdown: {
      initial: 'restoring',
      on: {
        // A new USDT order (the recharge region just made one) is followed from now on, in place of any other.
        // It was just made: its time of making is the countdown's now (the ticker reads the clock at once).
        'countdown.follow': {
          target: '.loading',
          actions: assign(({ event }) => ({ usdt: event.order, usdtFrom: event.order.createdAt, usdtEnded: null })),
        },
      },
      states: {
        restoring: {
          invoke: {
            id: 'savedOrder',
            src: 'savedOrder',
            input: ({ context }) => ({ account: context.account }),
            onDone: [
              { guard: ({ event }) => event.output.order !== null, target: 'loading', actions: assign(({ event }) => ({ usdt: event.output.order, usdtFrom: event.output.now })) },
              { target: 'idle' },
            ],
            onError: 'idle',
          },
        },
        idle: {},
        loading: {
          entry: { type: 'keepOrder', params: ({ context }) => ({ account: context.account, order: context.usdt! }) },
          invoke: {
            id: 'loadCountdown',
            src: 'loadCountdown',
            onDone: {
              target: 'counting',
              actions: enqueueActions(({ context, enqueue, event }) => {
                spawnLoaded(enqueue, event.output, { id: 'paymentCountdown', input: { order: context.usdt!, now: context.usdtFrom } });
              }),
            },
            onError: 'notLoaded',
          },
        },
        /** The countdown's code could not be fetched: the order stays kept, and coming back into view tries again. */
        notLoaded: { on: { 'app.visible': 'loading' } },
        /** The countdown lives exactly as long as this state. */
        counting: {
          exit: stopChild('paymentCountdown'),
          on: {
            'app.visible': { actions: sendTo('paymentCountdown', { type: 'app.visible' }) },
            'system.cryptoPayment': { actions: sendTo('paymentCountdown', ({ event }) => event) },
            'xstate.done.actor.paymentCountdown': [
              {
                guard: ({ event }) => event.output.ended === 'paid',
                target: 'idle',
                actions: [{ type: 'forgetOrder', params: ({ context }) => context.account }, ended, 'refresh', { type: 'output', params: { type: 'child.navigate', to: USDT_PAY_STATUS_PATH } }],
              },
              {
                guard: ({ event }) => event.output.ended === 'expired',
                target: 'idle',
                actions: [{ type: 'forgetOrder', params: ({ context }) => context.account }, ended, { type: 'output', params: { type: 'child.navigate', to: WALLET_PATH } }],
              },
              { target: 'idle', actions: [{ type: 'forgetOrder', params: ({ context }) => context.account }, ended] },
            ],
          },
        },
      },
    },
  },
});

export type WalletMachine = typeof walletMachine;
