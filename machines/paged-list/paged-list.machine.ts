/**
 * A paged list (SPEC §4 Home list paging: pull resets to page 1, scroll asks for the next
 * page, finished when a page has fewer than pageSize items; §9 paging sizes). Generic over
 * the item type; the owner provides `loadPage` (one page of `pageSize` items).
 *
 *   loading ─done─▶ listed.ready | listed.finished            ─error─▶ failed ─list.retry | list.refresh─▶ loading
 *   listed.ready ─list.loadMore─▶ listed.loadingMore ─done─▶ listed.ready | listed.finished (page appended)
 *                                                    ─error─▶ listed.moreFailed (items kept)
 *   listed.moreFailed ─list.loadMore | list.retry─▶ listed.loadingMore
 *   listed ─list.refresh─▶ refreshing ─done─▶ listed.ready | listed.finished (items replaced, page 1)
 *                                     ─error─▶ back to listed.ready | listed.finished (items kept, error set)
 *
 * Loading is a state, never a flag: a second `list.loadMore` while a page loads has no
 * transition and is dropped. A refresh leaves `loadingMore`, which stops its `loadPage`, so a
 * late answer for the old page cannot land on the refreshed list.
 *
 * `query` (optional) is what the owner's `loadPage` filters by (a tag, a country list, an
 * online status): given once in the input and handed to every page request unchanged, so
 * one `loadPage` serves many lists. Another filter is another list (a new actor).
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';

export interface PageRequest<Q = undefined> {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** The list's `query` from its input. */
  query?: Q;
}

export interface Page<T> {
  items: T[];
}

export interface PagedListInput<Q = undefined> {
  pageSize: number;
  query?: Q;
}

export interface PagedListContext<T, Q = undefined> {
  pageSize: number;
  query?: Q;
  items: T[];
  /** The last page loaded (0 before the first). */
  page: number;
  /** The last page loaded was short: there is nothing more to load. */
  finished: boolean;
  /** Why the last load failed; null after a load that succeeded. */
  error: string | null;
}

export type PagedListEvent =
  /** Scrolled to the end (or the end's retry). */
  | { type: 'list.loadMore' }
  /** Pulled down: page 1 again. */
  | { type: 'list.refresh' }
  /** The retry button of a failed load. */
  | { type: 'list.retry' };

export interface PagedListOptions<T> {
  /**
   * Identity of an item. With it, an appended page drops items already listed: a row that
   * moved down over a page boundary because a new one arrived at the top shows once.
   */
  keyOf?: (item: T) => unknown;
}

export const TEXT_LOAD_FAILED = 'Could not load. Please try again.';

/** The text of a failure, for the error line under the list. */
export function errorText(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return TEXT_LOAD_FAILED;
}

/** `page` after `items`, without the ones `keyOf` says are listed already. */
export function appendPage<T>(items: readonly T[], page: readonly T[], keyOf?: (item: T) => unknown): T[] {
  if (!keyOf) return [...items, ...page];
  const seen = new Set(items.map(keyOf));
  return [...items, ...page.filter((item) => !seen.has(keyOf(item)))];
}

/** A page shorter than the page size is the last one (SPEC §4). */
export const isLastPage = (page: Page<unknown>, pageSize: number): boolean => page.items.length < pageSize;

export function createPagedListMachine<T, Q = undefined>({ keyOf }: PagedListOptions<T> = {}) {
  /** The request for `page`; `query` only when the list has one. */
  const request = (context: PagedListContext<T, Q>, page: number): PageRequest<Q> =>
    context.query === undefined ? { page, pageSize: context.pageSize } : { page, pageSize: context.pageSize, query: context.query };
  return setup({
    types: {
      input: {} as PagedListInput<Q>,
      context: {} as PagedListContext<T, Q>,
      events: {} as PagedListEvent,
    },
    actors: {
      loadPage: fromPromise<Page<T>, PageRequest<Q>>(() => Promise.reject(new Error('loadPage not provided'))),
    },
    guards: {
      lastPage: ({ context }, page: Page<T>) => isLastPage(page, context.pageSize),
      wasFinished: ({ context }) => context.finished,
    },
    actions: {
      replaceItems: assign((_, page: Page<T>) => ({ items: [...page.items], page: 1, error: null })),
      appendItems: assign(({ context }, page: Page<T>) => ({
        items: appendPage(context.items, page.items, keyOf),
        page: context.page + 1,
        error: null,
      })),
      markFinished: assign({ finished: true }),
      markMore: assign({ finished: false }),
      recordError: assign((_, failure: { error: unknown }) => ({ error: errorText(failure.error) })),
    },
  }).createMachine({
    id: 'pagedList',
    context: ({ input }) => ({
      pageSize: Math.max(1, Math.floor(input.pageSize)),
      ...(input.query === undefined ? {} : { query: input.query }),
      items: [],
      page: 0,
      finished: false,
      error: null,
    }),
    initial: 'loading',
    states: {
      /** The first page; nothing to show yet. */
      loading: {
        invoke: {
          id: 'loadFirst',
          src: 'loadPage',
          input: ({ context }) => request(context, 1),
          onDone: [
            {
              guard: { type: 'lastPage', params: ({ event }) => event.output },
              target: 'listed.finished',
              actions: [{ type: 'replaceItems', params: ({ event }) => event.output }, 'markFinished'],
            },
            {
              target: 'listed.ready',
              actions: [{ type: 'replaceItems', params: ({ event }) => event.output }, 'markMore'],
            },
          ],
          onError: { target: 'failed', actions: { type: 'recordError', params: ({ event }) => event } },
        },
      },
      /** The first page failed: an error with a retry, no list. */
      failed: {
        on: { 'list.retry': 'loading', 'list.refresh': 'loading' },
      },
      /** Items on screen. */
      listed: {
        // Never entered without a child target; `ready` is only the formal default.
        initial: 'ready',
        on: { 'list.refresh': 'refreshing' },
        states: {
          ready: {
            on: { 'list.loadMore': 'loadingMore' },
          },
          loadingMore: {
            invoke: {
              id: 'loadMore',
              src: 'loadPage',
              input: ({ context }) => request(context, context.page + 1),
              onDone: [
                {
                  guard: { type: 'lastPage', params: ({ event }) => event.output },
                  target: 'finished',
                  actions: [{ type: 'appendItems', params: ({ event }) => event.output }, 'markFinished'],
                },
                { target: 'ready', actions: { type: 'appendItems', params: ({ event }) => event.output } },
              ],
              onError: { target: 'moreFailed', actions: { type: 'recordError', params: ({ event }) => event } },
            },
          },
          /** The next page failed; the items stay and the end of the list offers a retry. */
          moreFailed: {
            on: { 'list.loadMore': 'loadingMore', 'list.retry': 'loadingMore' },
          },
          /** The last page was short: scrolling to the end loads nothing. */
          finished: {},
        },
      },
      /** Page 1 again, with the current items still on screen. */
      refreshing: {
        invoke: {
          id: 'reload',
          src: 'loadPage',
          input: ({ context }) => request(context, 1),
          onDone: [
            {
              guard: { type: 'lastPage', params: ({ event }) => event.output },
              target: 'listed.finished',
              actions: [{ type: 'replaceItems', params: ({ event }) => event.output }, 'markFinished'],
            },
            {
              target: 'listed.ready',
              actions: [{ type: 'replaceItems', params: ({ event }) => event.output }, 'markMore'],
            },
          ],
          // The old items stay; the list is where it was before the pull.
          onError: [
            {
              guard: 'wasFinished',
              target: 'listed.finished',
              actions: { type: 'recordError', params: ({ event }) => event },
            },
            { target: 'listed.ready', actions: { type: 'recordError', params: ({ event }) => event } },
          ],
        },
      },
    },
  });
}

/** The list with items of unknown type; owners that want typed items call createPagedListMachine<T>(). */
export const pagedListMachine = createPagedListMachine<unknown>();

export type PagedListMachine<T = unknown, Q = undefined> = ReturnType<typeof createPagedListMachine<T, Q>>;
