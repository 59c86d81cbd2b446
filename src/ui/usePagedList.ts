/**
 * What a screen needs to show a paged-list actor (SPEC §9 paging) under PullToRefresh and
 * InfiniteScroll: its phase, items and errors, and the two async handlers those controls await.
 */
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { waitFor } from 'xstate';
import type { ActorRefFrom } from 'xstate';
import type { PagedListMachine } from '../../machines/paged-list/paged-list.machine';
import {
  selectError, selectHasMore, selectItems, selectMoreFailed, selectPhase, selectRefreshError, selectSettled,
} from '../../machines/paged-list/paged-list.selectors';

export function usePagedList<T, Q = undefined>(list: ActorRefFrom<PagedListMachine<T, Q>>) {
  const phase = useSelector(list, selectPhase);
  const items = useSelector(list, selectItems);
  const hasMore = useSelector(list, selectHasMore);
  const error = useSelector(list, selectError);
  const refreshError = useSelector(list, selectRefreshError);
  // A pull starts the end of the list afresh (InfiniteScroll keeps a failed next page to itself).
  const [generation, setGeneration] = useState(0);

  const refresh = async () => {
    list.send({ type: 'list.refresh' });
    await waitFor(list, selectSettled);
    setGeneration((g) => g + 1);
  };
  const loadMore = async () => {
    list.send({ type: 'list.loadMore' });
    const settled = await waitFor(list, selectSettled);
    if (selectMoreFailed(settled)) throw new Error(settled.context.error ?? '');
  };
  return { phase, items, hasMore, error, refreshError, generation, refresh, loadMore };
}
