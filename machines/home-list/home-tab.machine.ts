/**
 * One tab of the home list (SPEC §3 Home tab: getIndexListOption {currentPage, moreCurrentPage,
 * onlineStatus, pageSize, tagId, countryIds}, indexList, finished; §4 Home list paging: pull
 * resets to page 1, scroll asks for the next page, a page shorter than pageSize is the last).
 *
 *   loading ─done─▶ listed.ready | listed.end                 ─error─▶ failed ─tab.retry | tab.refresh─▶ loading
 *   listed.ready ─tab.loadMore─▶ listed.loadingMore ─done─▶ ready | end ─error─▶ moreFailed ─tab.loadMore | tab.retry─▶ loadingMore
 *   listed.end ─tab.expandMore (All tab only)─▶ listed.offline.loading ─done─▶ offline.ready | offline.finished
 *              offline.ready ─tab.loadMore─▶ offline.loading ─error─▶ offline.failed ─tab.loadMore | tab.retry─▶ offline.loading
 *   listed ─tab.refresh─▶ refreshing ─done─▶ listed.ready | listed.end (page 1, the expansion closed)
 *                                    ─error─▶ where the list was (items kept, error set)
 *   any ─tab.setCountries (a host tab, another filter)─▶ loading (a fresh list)
 *
 * The All tab lists hosts online or busy first (onlineStatus 1, `currentPage`); once that list
 * is finished its 'more offline anchors' expansion pages offline hosts (onlineStatus 3) with its
 * own page number, `moreCurrentPage`. A tag tab lists everyone with the tag, online first
 * (onlineStatus 0); the Users tab is a host's list of users (anchorGetUserList). Neither expands.
 *
 * This is paged-list's protocol (machines/paged-list) with a second page counter for the
 * expansion, so it reuses its helpers rather than nesting two lists (the expansion depends on
 * the first list being finished, which one machine can guard and a parent of two cannot).
 * Loading is a state; a late answer for a page a pull superseded is dropped with its state.
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { appendPage, errorText, isLastPage } from '../paged-list/paged-list.machine';
import type { HomeItem, ListQuery } from './home-list.port';
import { FIRST_HOME_QUERY, OnlineFilter } from './home-list.port';

/** What a tab lists. */
export type HomeTabKind = 'all' | 'tag' | 'live' | 'users';

export interface HomeTabDef {
  key: string;
  kind: HomeTabKind;
  /** SPEC §3 Home tab tagName. */
  label: string;
  /** 0 for every tag. */
  tagId: number;
}

export interface HomeTabInput {
  tab: HomeTabDef;
  pageSize: number;
  countryIds: readonly number[];
}

export interface HomeTabContext {
  tab: HomeTabDef;
  pageSize: number;
  countryIds: readonly number[];
  /** The last page of the first list loaded (0 before the first). */
  currentPage: number;
  /** The last page of the 'more offline anchors' expansion loaded (0: not expanded). */
  moreCurrentPage: number;
  /** SPEC §3 indexList: the first list's pages, then the expansion's. */
  items: HomeItem[];
  /** The first list's last page was short. */
  finished: boolean;
  /** The expansion's last page was short. */
  moreFinished: boolean;
  error: string | null;
}

export type HomeTabEvent =
  | { type: 'tab.loadMore' }
  | { type: 'tab.refresh' }
  | { type: 'tab.retry' }
  | { type: 'tab.expandMore' }
  | { type: 'tab.setCountries'; countryIds: readonly number[] };

export interface LoadPageInput {
  query: ListQuery;
  page: number;
  pageSize: number;
}

/** Host tabs filter by country; the live and users lists do not. */
export const filtersByCountry = (tab: HomeTabDef): boolean => tab.kind === 'all' || tab.kind === 'tag';

/** The query of the tab's first list. */
export function mainQuery(tab: HomeTabDef, countryIds: readonly number[]): ListQuery {
  switch (tab.kind) {
    case 'all': return { ...FIRST_HOME_QUERY, countryIds };
    case 'tag': return { source: 'hosts', onlineStatus: OnlineFilter.all, tagId: tab.tagId, countryIds };
    case 'live': return { source: 'live' };
    case 'users': return { source: 'users', onlineStatus: OnlineFilter.all };
  }
}

/** The 'more offline anchors' query of the All tab. */
export const offlineQuery = (countryIds: readonly number[]): ListQuery =>
  ({ source: 'hosts', onlineStatus: OnlineFilter.offline, tagId: 0, countryIds });

const keyOf = (item: HomeItem) => `${item.kind}:${item.userId}`;
const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

type Output = HomeItem[];

export const homeTabMachine = setup({
  types: {
    input: {} as HomeTabInput,
    context: {} as HomeTabContext,
    events: {} as HomeTabEvent,
  },
  actors: {
    loadPage: fromPromise<HomeItem[], LoadPageInput>(() => Promise.reject(new Error('loadPage not provided'))),
  },
  guards: {
    lastPage: ({ context }, page: Output) => isLastPage({ items: page }, context.pageSize),
    expandable: ({ context }) => context.tab.kind === 'all',
    wasFinished: ({ context }) => context.finished,
    wasExpanded: ({ context }) => context.moreCurrentPage > 0,
    expansionFinished: ({ context }) => context.moreFinished,
    otherCountries: ({ context, event }) =>
      event.type === 'tab.setCountries' && filtersByCountry(context.tab) && !sameIds(context.countryIds, event.countryIds),
  },
  actions: {
    replaceItems: assign((_, page: Output) => ({
      items: [...page], currentPage: 1, moreCurrentPage: 0, moreFinished: false, error: null,
    })),
    appendItems: assign(({ context }, page: Output) => ({
      items: appendPage(context.items, page, keyOf), currentPage: context.currentPage + 1, error: null,
    })),
    appendOffline: assign(({ context }, page: Output) => ({
      items: appendPage(context.items, page, keyOf), moreCurrentPage: context.moreCurrentPage + 1, error: null,
    })),
    markFinished: assign({ finished: true }),
    markMore: assign({ finished: false }),
    markExpansionFinished: assign({ moreFinished: true }),
    recordError: assign((_, failure: { error: unknown }) => ({ error: errorText(failure.error) })),
    startOver: assign(({ event }) => ({
      countryIds: event.type === 'tab.setCountries' ? [...event.countryIds] : [],
      items: [], currentPage: 0, moreCurrentPage: 0, finished: false, moreFinished: false, error: null,
    })),
  },
}).createMachine({
  id: 'homeTab',
  context: ({ input }) => ({
    tab: input.tab,
    pageSize: Math.max(1, Math.floor(input.pageSize)),
    countryIds: filtersByCountry(input.tab) ? [...input.countryIds] : [],
    currentPage: 0,
    moreCurrentPage: 0,
    items: [],
    finished: false,
    moreFinished: false,
    error: null,
  }),
  initial: 'loading',
  on: {
    'tab.setCountries': { guard: 'otherCountries', target: '.loading', reenter: true, actions: 'startOver' },
  },
  states: {
    /** The first page; nothing to show yet. */
    loading: {
      invoke: {
        id: 'loadFirst',
        src: 'loadPage',
        input: ({ context }) => ({ query: mainQuery(context.tab, context.countryIds), page: 1, pageSize: context.pageSize }),
        onDone: [
          {
            guard: { type: 'lastPage', params: ({ event }) => event.output },
            target: 'listed.end',
            actions: [{ type: 'replaceItems', params: ({ event }) => event.output }, 'markFinished'],
          },
          { target: 'listed.ready', actions: [{ type: 'replaceItems', params: ({ event }) => event.output }, 'markMore'] },
        ],
        onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => event } },
      },
    },
    /** The first page failed: the error and a retry, no list. */
    failed: {
      on: { 'tab.retry': 'loading', 'tab.refresh': 'loading' },
    },
    listed: {
      // Never entered without a child target; `ready` is only the formal default.
      initial: 'ready',
      on: { 'tab.refresh': 'refreshing' },
      states: {
        ready: {
          on: { 'tab.loadMore': 'loadingMore' },
        },
        loadingMore: {
          invoke: {
            id: 'loadMore',
            src: 'loadPage',
            input: ({ context }) => ({
              query: mainQuery(context.tab, context.countryIds), page: context.currentPage + 1, pageSize: context.pageSize,
            }),
            onDone: [
              {
                guard: { type: 'lastPage', params: ({ event }) => event.output },
                target: 'end',
                actions: [{ type: 'appendItems', params: ({ event }) => event.output }, 'markFinished'],
              },
              { target: 'ready', actions: { type: 'appendItems', params: ({ event }) => event.output } },
            ],
            onError: { target: 'moreFailed', actions: { type: 'recordError', params: ({ event }) => event } },
          },
        },
        /** The next page failed; the items stay and the end of the list offers a retry. */
        moreFailed: {
          on: { 'tab.loadMore': 'loadingMore', 'tab.retry': 'loadingMore' },
        },
        /** The first list is finished; the All tab offers its 'more offline anchors' expansion. */
        end: {
          on: { 'tab.expandMore': { guard: 'expandable', target: 'offline' } },
        },
        /** The All tab's expansion: offline hosts, paged by moreCurrentPage. */
        offline: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadOffline',
                src: 'loadPage',
                input: ({ context }) => ({
                  query: offlineQuery(context.countryIds), page: context.moreCurrentPage + 1, pageSize: context.pageSize,
                }),
                onDone: [
                  {
                    guard: { type: 'lastPage', params: ({ event }) => event.output },
                    target: 'finished',
                    actions: [{ type: 'appendOffline', params: ({ event }) => event.output }, 'markExpansionFinished'],
                  },
                  { target: 'ready', actions: { type: 'appendOffline', params: ({ event }) => event.output } },
                ],
                onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => event } },
              },
            },
            ready: { on: { 'tab.loadMore': 'loading' } },
            failed: { on: { 'tab.loadMore': 'loading', 'tab.retry': 'loading' } },
            /** Both lists are finished: scrolling to the end loads nothing. */
            finished: {},
          },
        },
      },
    },
    /** Page 1 again (SPEC §4), the current items still on screen. */
    refreshing: {
      invoke: {
        id: 'reload',
        src: 'loadPage',
        input: ({ context }) => ({ query: mainQuery(context.tab, context.countryIds), page: 1, pageSize: context.pageSize }),
        onDone: [
          {
            guard: { type: 'lastPage', params: ({ event }) => event.output },
            target: 'listed.end',
            actions: [{ type: 'replaceItems', params: ({ event }) => event.output }, 'markFinished'],
          },
          { target: 'listed.ready', actions: [{ type: 'replaceItems', params: ({ event }) => event.output }, 'markMore'] },
        ],
        // The pull failed: the list stays as and where it was.
        onError: [
          { guard: 'expansionFinished', target: 'listed.offline.finished', actions: { type: 'recordError', params: ({ event }) => event } },
          { guard: 'wasExpanded', target: 'listed.offline.ready', actions: { type: 'recordError', params: ({ event }) => event } },
          { guard: 'wasFinished', target: 'listed.end', actions: { type: 'recordError', params: ({ event }) => event } },
          { target: 'listed.ready', actions: { type: 'recordError', params: ({ event }) => event } },
        ],
      },
    },
  },
});

export type HomeTabMachine = typeof homeTabMachine;
