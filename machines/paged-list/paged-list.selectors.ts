/** Snapshot → what a paged list shows (one primitive per selector, for `useSelector`). */
import type { SnapshotFrom } from 'xstate';
import type { PagedListMachine } from './paged-list.machine';

type PagedListSnapshot<T, Q = undefined> = SnapshotFrom<PagedListMachine<T, Q>>;

/** What the list area shows. */
export type PagedListPhase =
  /** The first page is on its way: a loading indicator, no list. */
  | 'loading'
  /** The first page failed: the error and a retry, no list. */
  | 'failed'
  /** No items at all. */
  | 'empty'
  /** Items on screen (possibly with more loading, failed, or a refresh running). */
  | 'listed';

export function selectPhase<T, Q = undefined>(snapshot: PagedListSnapshot<T, Q>): PagedListPhase {
  if (snapshot.matches('loading')) return 'loading';
  if (snapshot.matches('failed')) return 'failed';
  return snapshot.context.items.length === 0 ? 'empty' : 'listed';
}

export const selectItems = <T, Q = undefined>(snapshot: PagedListSnapshot<T, Q>): readonly T[] => snapshot.context.items;

/** Scrolling to the end may load another page. */
export const selectHasMore = <T, Q = undefined>(snapshot: PagedListSnapshot<T, Q>): boolean => !snapshot.context.finished;

export const selectLoadingMore = <T, Q = undefined>(snapshot: PagedListSnapshot<T, Q>): boolean =>
  snapshot.matches({ listed: 'loadingMore' });

/** The next page failed; the end of the list offers a retry. */
export const selectMoreFailed = <T, Q = undefined>(snapshot: PagedListSnapshot<T, Q>): boolean =>
  snapshot.matches({ listed: 'moreFailed' });

export const selectRefreshing = <T, Q = undefined>(snapshot: PagedListSnapshot<T, Q>): boolean => snapshot.matches('refreshing');

/** Why the last load failed, or null. After a failed refresh the old items stay and this says why. */
export const selectError = <T, Q = undefined>(snapshot: PagedListSnapshot<T, Q>): string | null => snapshot.context.error;

/** Neither the first page, a next page nor a refresh is on its way (a caller can await this). */
export const selectSettled = <T, Q = undefined>(snapshot: PagedListSnapshot<T, Q>): boolean =>
  !snapshot.matches('loading') && !snapshot.matches('refreshing') && !snapshot.matches({ listed: 'loadingMore' });

/** A pull failed: the old items stay on screen, and this says why (null otherwise). */
export const selectRefreshError = <T, Q = undefined>(snapshot: PagedListSnapshot<T, Q>): string | null =>
  snapshot.matches({ listed: 'ready' }) || snapshot.matches({ listed: 'finished' }) ? snapshot.context.error : null;
