/**
 * A server list of the News sub-views (mail, follows, call records): newest first, pulled
 * down to refresh and paged on scroll (SPEC §4 paging, §9 by 10), bound to its own
 * paged-list actor. Items are rendered by the caller, as text.
 */
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../ui/useScreenActor';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { fromPromise } from 'xstate';
import type { createPagedListMachine } from '../../../machines/paged-list/paged-list.machine';
import type { Page, PageRequest } from '../../../machines/paged-list/paged-list.machine';
import { InfiniteScroll, PullToRefresh } from '../../ui/antd';
import { ListMessage } from '../../ui/ListMessage';
import { usePagedList } from '../../ui/usePagedList';
import { PULL_TEXTS } from './MailItem';
import './mail.css';

/** SPEC §9: lists page by 10. */
export const PAGE_SIZE = 10;

export interface PagedListViewProps<T> {
  /** The list's accessible name. */
  label: string;
  empty: string;
  machine: ReturnType<typeof createPagedListMachine<T>>;
  /** One page; its failure shows in the list (so the request should be silent). */
  load: (page: number, pageSize: number) => Promise<T[]>;
  render: (item: T) => ReactNode;
  endText?: string;
}

export function PagedListView<T>({ label, empty, machine, load, render, endText = 'No more' }: PagedListViewProps<T>) {
  // Composed once per mount: a new machine per render would be a new actor's logic each time.
  const [logic] = useState(() => machine.provide({
    actors: {
      loadPage: fromPromise<Page<T>, PageRequest>(async ({ input }) => ({ items: await load(input.page, input.pageSize) })),
    },
  }));
  const list = useScreenActor(logic, { input: { pageSize: PAGE_SIZE } });
  const { phase, items, hasMore, error, refreshError, generation, refresh, loadMore } = usePagedList<T>(list);
  const state = useSelector(list, (s) => JSON.stringify(s.value));

  return (
    <div className="mail-list" data-state={state}>
      {phase === 'loading' && <ListMessage busy>Loading…</ListMessage>}
      {phase === 'failed' && <ListMessage error={error} onRetry={() => list.send({ type: 'list.retry' })} />}
      {(phase === 'empty' || phase === 'listed') && (
        <PullToRefresh onRefresh={refresh} {...PULL_TEXTS}>
          {refreshError && <p className="mail-alert" role="alert">Could not refresh: {refreshError}</p>}
          {phase === 'empty' ? (
            <ListMessage>{empty}</ListMessage>
          ) : (
            <>
              <ul className="mail-items" aria-label={label}>{items.map(render)}</ul>
              <InfiniteScroll key={generation} loadMore={loadMore} hasMore={hasMore} threshold={120}>
                {(more, failed, retry) => {
                  if (!more) return <p className="mail-end">{endText}</p>;
                  if (failed) return <ListMessage error={error} onRetry={() => void retry()} />;
                  return <ListMessage busy>Loading more…</ListMessage>;
                }}
              </InfiniteScroll>
            </>
          )}
        </PullToRefresh>
      )}
    </div>
  );
}
