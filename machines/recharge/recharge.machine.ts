/**
 * Buying diamonds or VIP (SPEC §4 Recharge, §5 VIP recharge text, §8 'no pay' and an order's
 * failure): the packages, the channel (one pays directly, several open a picker), the order,
 * and where its payment goes.
 *
 *   loading ─▶ ready ─recharge.choose─▶ (one channel) ordering | (several) picking ─recharge.pick─▶ ordering
 *   loading ─error─▶ failed ─recharge.retry─▶ loading                    picking ─recharge.back─▶ ready
 *   a USDT channel, chosen or picked ─▶ choosingChain ─recharge.chain─▶ ordering | ─recharge.back─▶ ready
 *   ordering ─redirect─▶ redirecting (the provider's page; back in the app with the result)
 *            ─store─▶ storePaying ─approved─▶ paid | ─declined | cancelled | no bridge─▶ ready (said why)
 *            ─usdt─▶ usdt (the payment countdown takes it: /usdtPay)
 *            ─error─▶ ready (said why; an order with no answer keeps its key for the next tap)
 *
 * One tap is one intent: the order carries a key made when a package's channel is chosen, and a
 * tap after an order that got no answer sends the same key again (the server makes no second
 * order). The SPEC §5 VIP text shows for 5 s. The machine's output is where the payment went
 * (`RechargeResult`), for its owner.
 */
import { and, assertEvent, assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import type { OrderRequest, PayChannel, PlacedOrder, RechargeOffer, StoreOutcome, StorePayment, UsdtOrder } from '../ports/wallet.port';
import { UnansweredError, newIntentKey } from '../shared/intent-key';
import { textOf } from '../shared/error-text';

/** SPEC §8: a store payment asked for with no native pay bridge. */
export const TEXT_NO_PAY = 'no pay';
/** The store turned the payment down, or the person cancelled it. */
export const TEXT_STORE_DECLINED = 'The payment was declined.';
export const TEXT_STORE_CANCELLED = 'The payment was cancelled.';
/** SPEC §5: the VIP text shows this long. */
export const NOTICE_MS = 5_000;

export type { StoreOutcome } from '../ports/wallet.port';

export interface RechargeInput {
  /** The app's path a redirect payment comes back to. */
  returnPath: string;
}

/** The chains a USDT order may be paid on (SPEC §3 Order response chainName). */
export type UsdtChain = NonNullable<OrderRequest['chain']>;
export const USDT_CHAINS: readonly UsdtChain[] = ['TRC20', 'ERC20'];

export interface RechargeContext extends RechargeInput {
  offers: readonly RechargeOffer[];
  /** The package chosen, and the channel once picked. */
  chosen: RechargeOffer | null;
  channel: PayChannel | null;
  /** A USDT order's chain, once chosen. */
  chain: UsdtChain | null;
  /** The order's key: one per tap, kept after an order that got no answer. */
  key: string | null;
  /** Why the last step failed, while it shows (the VIP text for 5 s). */
  notice: string | null;
  placed: PlacedOrder | null;
}

export type RechargeEvent =
  | { type: 'recharge.choose'; batchNo: string }
  | { type: 'recharge.pick'; channelId: number; countryTypeId: number }
  | { type: 'recharge.chain'; chain: UsdtChain }
  | { type: 'recharge.back' }
  | { type: 'recharge.retry' };

/** Where the payment went: the provider's page, paid in the store, or a USDT order to pay. */
export type RechargeResult =
  | { kind: 'redirect'; url: string }
  | { kind: 'paid'; orderCode: string }
  | { kind: 'usdt'; order: UsdtOrder };

export const rechargeMachine = setup({
  types: {
    input: {} as RechargeInput,
    context: {} as RechargeContext,
    events: {} as RechargeEvent,
    output: {} as RechargeResult,
    children: {} as { offers: 'offers'; order: 'order'; store: 'store' },
  },
  actors: {
    offers: fromPromise<readonly RechargeOffer[]>(() => Promise.reject(new Error('offers not provided'))),
    order: fromPromise<PlacedOrder, Omit<OrderRequest, 'chain'> & { chain?: UsdtChain }>(
      () => Promise.reject(new Error('order not provided')),
    ),
    store: fromPromise<StoreOutcome, StorePayment>(() => Promise.resolve('unavailable')),
  },
  guards: {
    oneChannel: ({ context, event }) => {
      assertEvent(event, 'recharge.choose');
      return context.offers.find((o) => o.batchNo === event.batchNo)?.channels.length === 1;
    },
    /** The package's one channel is USDT: its chain comes first. */
    oneUsdtChannel: ({ context, event }) => {
      assertEvent(event, 'recharge.choose');
      const channels = context.offers.find((o) => o.batchNo === event.batchNo)?.channels ?? [];
      return channels.length === 1 && channels[0]!.payMethod === 'usdt';
    },
    pickedUsdt: ({ context, event }) => {
      assertEvent(event, 'recharge.pick');
      return context.chosen?.channels.find((c) => c.channelId === event.channelId && c.countryTypeId === event.countryTypeId)?.payMethod === 'usdt';
    },
    knownChain: ({ event }) => { assertEvent(event, 'recharge.chain'); return USDT_CHAINS.includes(event.chain); },
    known: ({ context, event }) => {
      assertEvent(event, 'recharge.choose');
      return context.offers.some((o) => o.batchNo === event.batchNo);
    },
    offered: ({ context, event }) => {
      assertEvent(event, 'recharge.pick');
      return context.chosen?.channels.some((c) => c.channelId === event.channelId && c.countryTypeId === event.countryTypeId) ?? false;
    },
  },
  actions: {
    choose: assign(({ context, event }) => {
      assertEvent(event, 'recharge.choose');
      const chosen = context.offers.find((o) => o.batchNo === event.batchNo)!;
      return { chosen, channel: chosen.channels.length === 1 ? chosen.channels[0]! : null, notice: null };
    }),
    pick: assign({
      channel: ({ context, event }) => {
        assertEvent(event, 'recharge.pick');
        return context.chosen!.channels.find((c) => c.channelId === event.channelId && c.countryTypeId === event.countryTypeId)!;
      },
    }),
    /** A new intent unless the last order of this channel got no answer (then its key goes again). */
    keyForTap: assign({ key: ({ context }) => context.key ?? newIntentKey() }),
    forgetKey: assign({ key: null }),
  },
}).createMachine({
  id: 'recharge',
  context: ({ input }) => ({ ...input, offers: [], chosen: null, channel: null, chain: null, key: null, notice: null, placed: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'offers',
        src: 'offers',
        onDone: { target: 'ready', actions: assign({ offers: ({ event }) => event.output }) },
        onError: { target: 'failed', actions: assign({ notice: ({ event }) => textOf(event.error) }) },
      },
    },
    failed: { on: { 'recharge.retry': { target: 'loading', actions: assign({ notice: null }) } } },
    ready: {
      // The notice (why the last try failed) shows for 5 s.
      after: { [NOTICE_MS]: { guard: ({ context }) => context.notice !== null, actions: assign({ notice: null }) } },
      on: {
        'recharge.choose': [
          { guard: 'oneUsdtChannel', target: 'choosingChain', actions: 'choose' },
          { guard: 'oneChannel', target: 'ordering', actions: 'choose' },
          { guard: 'known', target: 'picking', actions: 'choose' },
        ],
      },
    },
    /** SPEC §4: several channels for the package, the person picks one. */
    picking: {
      on: {
        'recharge.pick': [
          { guard: and(['offered', 'pickedUsdt']), target: 'choosingChain', actions: 'pick' },
          { guard: 'offered', target: 'ordering', actions: 'pick' },
        ],
        'recharge.back': { target: 'ready', actions: assign({ chosen: null }) },
      },
    },
    /** SPEC §3 chainName: a USDT order is paid on the chain the person chooses. */
    choosingChain: {
      on: {
        'recharge.chain': { guard: 'knownChain', target: 'ordering', actions: assign({ chain: ({ event }) => event.chain }) },
        'recharge.back': { target: 'ready', actions: assign({ chosen: null, channel: null }) },
      },
    },
    ordering: {
      entry: 'keyForTap',
      invoke: {
        id: 'order',
        src: 'order',
        input: ({ context }) => ({
          channel: context.channel!, vip: context.chosen!.vip, returnPath: context.returnPath, idempotencyKey: context.key!,
          ...(context.channel!.payMethod === 'usdt' && context.chain ? { chain: context.chain } : {}),
        }),
        onDone: [
          { guard: ({ event }) => event.output.kind === 'redirect', target: 'redirecting', actions: ['forgetKey', assign({ placed: ({ event }) => event.output })] },
          { guard: ({ event }) => event.output.kind === 'store', target: 'storePaying', actions: ['forgetKey', assign({ placed: ({ event }) => event.output })] },
          { target: 'usdt', actions: ['forgetKey', assign({ placed: ({ event }) => event.output })] },
        ],
        onError: [
          // No answer: the order may have been made; the next tap sends the same key.
          { guard: ({ event }) => event.error instanceof UnansweredError, target: 'ready', actions: assign({ notice: ({ event }) => textOf(event.error) }) },
          { target: 'ready', actions: ['forgetKey', assign({ notice: ({ event }) => textOf(event.error) })] },
        ],
      },
    },
    /** The provider's page: the app comes back at the return path with the result. */
    redirecting: { type: 'final' },
    /** The native store pays (the shell's bridge). */
    storePaying: {
      invoke: {
        id: 'store',
        src: 'store',
        input: ({ context }) => ({
          orderCode: context.placed?.kind === 'store' ? context.placed.orderCode : '',
          productId: context.channel!.productId,
          method: context.channel!.payMethod === 'applepay' ? 'applepay' as const : 'googlepay' as const,
        }),
        onDone: [
          { guard: ({ event }) => event.output === 'approved', target: 'paid' },
          {
            target: 'ready',
            actions: assign({
              notice: ({ event }) => (event.output === 'unavailable' ? TEXT_NO_PAY : event.output === 'cancelled' ? TEXT_STORE_CANCELLED : TEXT_STORE_DECLINED),
            }),
          },
        ],
        onError: { target: 'ready', actions: assign({ notice: ({ event }) => textOf(event.error) }) },
      },
    },
    paid: { type: 'final' },
    /** The payment countdown takes the order (/usdtPay). */
    usdt: { type: 'final' },
  },
  output: ({ context }): RechargeResult => {
    const placed = context.placed!;
    if (placed.kind === 'redirect') return { kind: 'redirect', url: placed.url };
    if (placed.kind === 'store') return { kind: 'paid', orderCode: placed.orderCode };
    return { kind: 'usdt', order: placed.order };
  },
});

export type RechargeMachine = typeof rechargeMachine;
