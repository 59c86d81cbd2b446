/**
 * The mail views of /news (SPEC §2 message/systemMsg and message/stationMsg; §7
 * /api/sysmail/loadList, 10 a page): one kind of mail, newest first, pulled down to
 * refresh and paged on scroll, bound to its own paged-list actor. Titles and texts come
 * from the server and are shown as text, never as HTML.
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useState } from 'react';
import { fromPromise, waitFor } from 'xstate';
import { createPagedListMachine } from '../../../machines/paged-list/paged-list.machine';
import type { Page, PageRequest } from '../../../machines/paged-list/paged-list.machine';
import {
  selectError, selectHasMore, selectItems, selectMoreFailed, selectPhase, selectRefreshError, selectSettled,
} from '../../../machines/paged-list/paged-list.selectors';
import { news } from '../../api/contract';
import type { MailType, SysMail } from '../../api/contract/news';
import { useServices } from '../../app/services';
import { InfiniteScroll, PullToRefresh } from '../../ui/antd';
import { ListMessage } from '../../ui/ListMessage';
import { MailItem, PULL_TEXTS } from './MailItem';
import './mail.css';

/** SPEC §9: lists page by 10. */
export const MAIL_PAGE_SIZE = 10;

const mailListMachine = createPagedListMachine<SysMail>({ keyOf: (mail) => mail.id });

const LABELS: Readonly<Record<MailType, { list: string; empty: string }>> = {
  [news.MailType.system]: { list: 'System messages', empty: 'No system messages yet.' },
  [news.MailType.station]: { list: 'Station messages', empty: 'No station messages yet.' },
};

export interface MailListProps {
  /** MailType.system (message/systemMsg) or MailType.station (message/stationMsg). */
  mailType: MailType;
}

export function MailList({ mailType }: MailListProps) {
  // Another kind of mail is another list: a fresh actor, not the old items under a new label.
  return <MailListOf key={mailType} mailType={mailType} />;
}

function MailListOf({ mailType }: MailListProps) {
  const { api } = useServices();
  const list = useActorRef(mailListMachine.provide({
    actors: {
      loadPage: fromPromise<Page<SysMail>, PageRequest>(async ({ input }) => {
        const page = await api.data(
          news.loadList,
          { currentPage: input.page, pageSize: input.pageSize, mailType },
          // The list shows the failure itself.
          { silent: true },
        );
        return { items: page.list };
      }),
    },
  }), { input: { pageSize: MAIL_PAGE_SIZE } });
  const phase = useSelector(list, selectPhase);
  const items = useSelector(list, selectItems);
  const hasMore = useSelector(list, selectHasMore);
  const error = useSelector(list, selectError);
  const refreshError = useSelector(list, selectRefreshError);
  const state = useSelector(list, (s) => JSON.stringify(s.value));
  // A pull starts the end of the list afresh (InfiniteScroll keeps a failed next page to itself).
  const [generation, setGeneration] = useState(0);
  const labels = LABELS[mailType];

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
  const retryFirst = () => list.send({ type: 'list.retry' });

  return (
    <div className="mail-list" data-state={state}>
      {phase === 'loading' && <ListMessage busy>Loading…</ListMessage>}
      {phase === 'failed' && <ListMessage error={error} onRetry={retryFirst} />}
      {(phase === 'empty' || phase === 'listed') && (
        <PullToRefresh onRefresh={refresh} {...PULL_TEXTS}>
          {refreshError && <p className="mail-alert" role="alert">Could not refresh: {refreshError}</p>}
          {phase === 'empty' ? (
            <ListMessage>{labels.empty}</ListMessage>
          ) : (
            <>
              <ul className="mail-items" aria-label={labels.list}>
                {items.map((mail) => <MailItem key={mail.id} mail={mail} />)}
              </ul>
              <InfiniteScroll key={generation} loadMore={loadMore} hasMore={hasMore} threshold={120}>
                {(more, failed, retry) => {
                  if (!more) return <p className="mail-end">No more messages</p>;
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
