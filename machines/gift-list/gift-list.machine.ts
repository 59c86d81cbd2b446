/**
 * The gift list of a call's gift popup (SPEC §2 popup titled 'Popular', §3 Gift grouped by
 * category including 'Popular', §5 "Gift price filter uses optional min and max";
 * `/api/gift/v2/getGiftList`).
 *
 *   loading ─ok─▶ ready ─giftList.filter─▶ loading        loading ─error─▶ failed ─retry | filter─▶ loading
 *
 * A filter is a pair of optional whole prices (min ≤ max when both are given); one that is
 * not is refused here and the screen says why (`filterProblem`). The list loads once when the
 * call connects, so the popup opens at once.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { GIFT_PRICE_FILTER_MAX } from '../ports/gift.port';
import type { GiftCategory, GiftFilter } from '../ports/gift.port';

export const TEXT_FILTER_NOT_WHOLE = `Prices are whole numbers from 0 to ${GIFT_PRICE_FILTER_MAX}.`;
export const TEXT_FILTER_ORDER = 'The lowest price cannot be above the highest.';

/** Why a filter cannot be used, or null when it can. */
export function filterProblem(filter: GiftFilter): string | null {
  const ok = (v: number | undefined) => v === undefined || (Number.isInteger(v) && v >= 0 && v <= GIFT_PRICE_FILTER_MAX);
  if (!ok(filter.minPrice) || !ok(filter.maxPrice)) return TEXT_FILTER_NOT_WHOLE;
  if (filter.minPrice !== undefined && filter.maxPrice !== undefined && filter.minPrice > filter.maxPrice) return TEXT_FILTER_ORDER;
  return null;
}

export interface GiftListContext {
  categories: readonly GiftCategory[];
  filter: GiftFilter;
  error: string | null;
}

export type GiftListEvent =
  | { type: 'giftList.filter'; filter: GiftFilter }
  | { type: 'giftList.retry' };

export const giftListMachine = setup({
  types: {
    context: {} as GiftListContext,
    events: {} as GiftListEvent,
  },
  actors: {
    load: fromPromise<GiftCategory[], GiftFilter>(() => Promise.reject(new Error('not provided'))),
  },
  guards: {
    usableFilter: ({ event }) => event.type === 'giftList.filter' && filterProblem(event.filter) === null,
  },
  actions: {
    setFilter: assign({
      filter: ({ event }) => {
        if (event.type !== 'giftList.filter') return {};
        const { minPrice, maxPrice } = event.filter;
        return { ...(minPrice !== undefined ? { minPrice } : {}), ...(maxPrice !== undefined ? { maxPrice } : {}) };
      },
    }),
  },
}).createMachine({
  id: 'giftList',
  context: { categories: [], filter: {}, error: null },
  on: {
    'giftList.filter': { guard: 'usableFilter', target: '.loading', actions: 'setFilter' },
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'load',
        src: 'load',
        input: ({ context }) => context.filter,
        onDone: { target: 'ready', actions: assign({ categories: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) }),
        },
      },
    },
    ready: {},
    failed: {
      on: { 'giftList.retry': 'loading' },
    },
  },
});

export type GiftListMachine = typeof giftListMachine;
