/**
 * A USDT order being paid (SPEC §4 Crypto payment, §9 crypto countdown 1, 5 and 15 minutes,
 * pay data cleared after 1 hour): the order's address, amount and chain, and the countdown
 * (`suspendNum`, seconds) to the server's deadline.
 *
 *   checking ─▶ waiting.{plenty ─≤5 min─▶ soon ─≤1 min─▶ lastMinute} ─deadline─▶ querying
 *   waiting ─system.cryptoPayment paid─▶ paid          (status 1: the profile is refreshed, /usdtPay/pay-status)
 *   waiting ─system.cryptoPayment not paid─▶ cleared   (the pay data is cleared)
 *   querying ─paid─▶ paid | ─not paid─▶ expired (back) | ─error─▶ queryFailed ─countdown.retry | app.visible─▶ querying
 *   any of these ─1 hour after the order─▶ cleared
 *
 * How the minutes are read: the order is payable for 15 minutes (the server's deadline, or 15
 * minutes from the order when it gives none); the countdown says so in stages, `plenty` until
 * 5 minutes are left, `soon` until the last minute, then `lastMinute`; the pay data (address,
 * amount, chain) is kept for 1 hour after the order, so a reload within it picks the order up.
 *
 * Time is the clock's, never counted ticks: the `ticker` reports the clock's `now` each second
 * (and at once when started), the countdown is computed from the deadline, and coming back into
 * view looks at the clock again, so a hidden webview or a throttled timer does not stretch it.
 * The machine starts from the order as kept (`now` from the composition's clock): a reload
 * lands in the state the clock says.
 */
import { assertEvent, assign, fromCallback, fromPromise, sendTo } from 'xstate';
import { setup } from '../setup';
import type { UsdtOrder } from '../ports/wallet.port';

/** SPEC §9: how long a USDT order may be paid when the server names no deadline. */
export const USDT_PAY_WINDOW_MS = 15 * 60_000;
/** SPEC §9: the countdown's later stages, by the time left. */
export const USDT_SOON_MS = 5 * 60_000;
export const USDT_LAST_MINUTE_MS = 60_000;
/** SPEC §9: the pay data is cleared 1 hour after the order. */
export const USDT_PAY_DATA_TTL_MS = 60 * 60_000;

export type { UsdtOrder } from '../ports/wallet.port';

export interface PaymentCountdownInput {
  order: UsdtOrder;
  /** The clock's time as the countdown starts (the composition's clock). */
  now: number;
}

export interface PaymentCountdownContext extends PaymentCountdownInput {
  /** Why the last query of the order failed, while it may be tried again. */
  queryError: string | null;
  /** How the order ended, once it has (the machine's output). */
  ended: PaymentEnd | null;
}

/** How a followed order ended: paid (status 1), not paid in time (back), or its pay data cleared. */
export type PaymentEnd = 'paid' | 'expired' | 'cleared';

export interface PaymentCountdownOutput {
  orderNo: string;
  ended: PaymentEnd;
}

export type PaymentCountdownEvent =
  /** The ticker read the clock. */
  | { type: 'countdown.tick'; now: number }
  /** SPEC §4 system message 99 for this order (the session routes only a matching one here). */
  | { type: 'system.cryptoPayment'; paid: boolean; orderNo: string }
  | { type: 'countdown.retry' }
  | { type: 'app.visible' };

/** What the ticker hears: read the clock now. */
export type TickerEvent = { type: 'ticker.read' };


export { suspendNumOf } from './suspend-num';

const leftMs = (c: Pick<PaymentCountdownContext, 'order' | 'now'>) => c.order.deadline - c.now;

export const paymentCountdownMachine = setup({
  types: {
    input: {} as PaymentCountdownInput,
    context: {} as PaymentCountdownContext,
    events: {} as PaymentCountdownEvent,
    output: {} as PaymentCountdownOutput,
    children: {} as { ticker: 'ticker'; query: 'query' },
  },
  actors: {
    /** Reports the clock's now at once, every second, and whenever it is asked (`ticker.read`). */
    ticker: fromCallback<TickerEvent>(() => () => {}),
    /** SPEC §7 /api/fuse/queryUsdtOrderStat: whether the order was paid. */
    query: fromPromise<boolean, { orderNo: string }>(() => Promise.reject(new Error('query not provided'))),
  },
  guards: {
    stale: ({ context }) => context.now - context.order.createdAt >= USDT_PAY_DATA_TTL_MS,
    /** The clock just read is an hour past the order. */
    staleTick: ({ context, event }) => { assertEvent(event, 'countdown.tick'); return event.now - context.order.createdAt >= USDT_PAY_DATA_TTL_MS; },
    due: ({ context }) => leftMs(context) <= 0,
    soon: ({ context }) => leftMs(context) <= USDT_SOON_MS,
    lastMinute: ({ context }) => leftMs(context) <= USDT_LAST_MINUTE_MS,
    thisOrderPaid: ({ context, event }) => { assertEvent(event, 'system.cryptoPayment'); return event.orderNo === context.order.orderNo && event.paid; },
    thisOrderNotPaid: ({ context, event }) => { assertEvent(event, 'system.cryptoPayment'); return event.orderNo === context.order.orderNo && !event.paid; },
  },
  actions: {
    /** Back in view: the clock is read now, not at the next (perhaps throttled) second. */
    readClockNow: sendTo('ticker', { type: 'ticker.read' }),
    readClock: assign({ now: ({ event }) => { assertEvent(event, 'countdown.tick'); return event.now; } }),
  },
}).createMachine({
  id: 'paymentCountdown',
  context: ({ input }) => ({ ...input, queryError: null, ended: null }),
  initial: 'checking',
  // The ticker reads the clock for as long as the order is followed: the hour of its pay data runs in every state.
  invoke: { id: 'ticker', src: 'ticker' },
  on: {
    'countdown.tick': { actions: 'readClock', target: '.checking' },
  },
  states: {
    /** Where the clock says the order is: a reload, a return or a tick lands here first. */
    checking: {
      always: [
        { guard: 'stale', target: 'cleared' },
        { guard: 'due', target: 'querying' },
        { target: 'waiting' },
      ],
    },
    waiting: {
      on: {
        'system.cryptoPayment': [
          { guard: 'thisOrderPaid', target: 'paid' },
          { guard: 'thisOrderNotPaid', target: 'cleared' },
        ],
        'app.visible': { actions: 'readClockNow' },
      },
      initial: 'choosing',
      states: {
        choosing: {
          always: [
            { guard: 'lastMinute', target: 'lastMinute' },
            { guard: 'soon', target: 'soon' },
            { target: 'plenty' },
          ],
        },
        /** More than 5 minutes left. */
        plenty: {},
        /** 5 minutes or less. */
        soon: {},
        /** The last minute. */
        lastMinute: {},
      },
    },
    /** The deadline passed: the server says whether it was paid after all. */
    querying: {
      // A tick while the query runs does not start it again.
      on: { 'countdown.tick': { actions: 'readClock' } },
      invoke: {
        id: 'query',
        src: 'query',
        input: ({ context }) => ({ orderNo: context.order.orderNo }),
        onDone: [
          { guard: ({ event }) => event.output, target: 'paid' },
          { target: 'expired' },
        ],
        onError: {
          target: 'queryFailed',
          actions: assign({ queryError: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) }),
        },
      },
    },
    /** The query got no answer: tried again on a tap or a return (the pay data's hour still runs). */
    queryFailed: {
      on: {
        'countdown.retry': { target: 'querying', actions: assign({ queryError: null }) },
        'app.visible': { target: 'querying', actions: assign({ queryError: null }) },
        'countdown.tick': [
          { guard: 'staleTick', target: 'cleared', actions: 'readClock' },
          { actions: 'readClock' },
        ],
      },
    },
    /** Paid (status 1): the profile is refreshed and /usdtPay/pay-status shows. */
    paid: { type: 'final', entry: assign({ ended: 'paid' }) },
    /** Not paid in time: back. */
    expired: { type: 'final', entry: assign({ ended: 'expired' }) },
    /** The pay data is cleared (not paid, or kept an hour). */
    cleared: { type: 'final', entry: assign({ ended: 'cleared' }) },
  },
  output: ({ context }) => ({ orderNo: context.order.orderNo, ended: context.ended! }),
});

export type PaymentCountdownMachine = typeof paymentCountdownMachine;
