/**
 * /followList (SPEC §2; §9 paging by 10): the people one follows and one's followers, two tabs,
 * each a paged list (newest follow first) on its own paged-list actor: pull to refresh, scroll
 * for the next page. `?type=followers` opens the followers. Names are shown as text.
 */
import { Link, useSearch } from '@tanstack/react-router';
import { useScreenActor } from '../../ui/useScreenActor';
import { useId, useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import { createPagedListMachine } from '../../../machines/paged-list/paged-list.machine';
import type { Page, PageRequest } from '../../../machines/paged-list/paged-list.machine';
import * as people from '../../api/contract/people';
import type { FollowListItem, FollowListType } from '../../api/contract/people';
import { useServices } from '../../compose/services';
import { InfiniteScroll, PullToRefresh } from '../../ui/antd';
import { ListMessage } from '../../ui/ListMessage';
import { STATUS_LABEL } from '../../ui/person';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { usePagedList } from '../../ui/usePagedList';
import '../user-profile/user-profile.css';
import './follow-list.css';

export const FOLLOW_PAGE_SIZE = 10;

const TABS: readonly { type: FollowListType; label: string; empty: string }[] = [
  { type: 'follows', label: 'Following', empty: 'You do not follow anyone yet.' },
  { type: 'followers', label: 'Followers', empty: 'No followers yet.' },
];

const followListMachine = createPagedListMachine<FollowListItem, FollowListType>({ keyOf: (p) => p.userId });

export default function FollowListScreen() {
  const search = useSearch({ strict: false }) as { type?: unknown };
  const [type, setType] = useState<FollowListType>(search.type === 'followers' ? 'followers' : 'follows');
  const id = useId();
  return (
    <ScreenFrame title="Follow list" back>
      <div role="tablist" aria-label="Follow lists" className="follow-tabs">
        {TABS.map((tab) => (
          <button
            key={tab.type}
            type="button"
            role="tab"
            id={`${id}-${tab.type}`}
            aria-selected={tab.type === type}
            aria-controls={`${id}-panel`}
            className="follow-tab"
            onClick={() => setType(tab.type)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-panel`} aria-labelledby={`${id}-${type}`}>
        <FollowPeople key={type} type={type} />
      </div>
    </ScreenFrame>
  );
}

function FollowPeople({ type }: { type: FollowListType }) {
  const { api } = useServices();
  const logic = useMemo(() => followListMachine.provide({
    actors: {
      loadPage: fromPromise<Page<FollowListItem>, PageRequest<FollowListType>>(async ({ input }) => ({
        items: (await api.data(people.followList, { type: input.query ?? type, currentPage: input.page, pageSize: input.pageSize }, { silent: true })).list,
      })),
    },
  }), [api, type]);
  const list = useScreenActor(logic, { input: { pageSize: FOLLOW_PAGE_SIZE, query: type } });
  const { phase, items, hasMore, error, refreshError, generation, refresh, loadMore } = usePagedList(list);
  const tab = TABS.find((t) => t.type === type)!;

  if (phase === 'loading') return <ListMessage busy>Loading…</ListMessage>;
  if (phase === 'failed') return <ListMessage error={error} onRetry={() => list.send({ type: 'list.retry' })} />;
  return (
    <PullToRefresh onRefresh={refresh} pullingText="Pull down to refresh" canReleaseText="Release to refresh" refreshingText="Refreshing…" completeText="Up to date">
      {refreshError && <p className="profile-alert" role="alert">Could not refresh: {refreshError}</p>}
      {phase === 'empty' ? <ListMessage>{tab.empty}</ListMessage> : (
        <>
          <ul className="follow-rows" aria-label={tab.label} data-count={items.length}>
            {items.map((person) => <FollowRow key={person.userId} person={person} />)}
          </ul>
          <InfiniteScroll key={generation} loadMore={loadMore} hasMore={hasMore} threshold={120}>
            {(more, failed, retry) => {
              if (!more) return <p className="follow-end muted">No more people</p>;
              if (failed) return <ListMessage error={error} onRetry={() => void retry()} />;
              return <ListMessage busy>Loading more…</ListMessage>;
            }}
          </InfiniteScroll>
        </>
      )}
    </PullToRefresh>
  );
}

function FollowRow({ person }: { person: FollowListItem }) {
  const status = STATUS_LABEL[person.onlineGroupStatus];
  return (
    <li className="follow-row">
      <Link to="/userProfile" search={{ userId: String(person.userId) }} className="follow-row-link">
        <img className="avatar" src={person.icon} alt="" width={44} height={44} loading="lazy" decoding="async" />
        <span className="follow-row-text">
          <span className="follow-row-name">{person.nickname}</span>
          <span className="muted follow-row-sub">
            <span className="status-dot" data-status={person.onlineGroupStatus} aria-hidden="true" /> {status} · {person.levelName}
          </span>
        </span>
      </Link>
    </li>
  );
}
