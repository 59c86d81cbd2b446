/**
 * One tab of the home (SPEC §2 / content, liveList, online; §4 Home list paging), bound to its
 * homeTab actor: pull down to refresh (page 1 again), scroll to the end for the next page, the
 * All tab's 'more offline anchors' expansion, and the tab's own scroll position, kept while
 * another tab or another screen is shown. Loading, failure and emptiness are the actor's states.
 */
import { useSelector } from '@xstate/react';
import { Suspense, useLayoutEffect, useRef } from 'react';
import { lazyComponent } from '../../app/lazyComponent';
import type { FollowedLiveRef, HomeTabRef } from '../../../machines/home-list/home-list.machine';
import type { HostCard, LiveCard, OnlineStatus, UserCard } from '../../../machines/home-list/home-list.port';
import {
  selectCanExpand, selectDisabled, selectExpanded, selectFinished, selectListOption, selectLoadingMore, selectMoreFailed,
  selectRefreshError, selectRefreshing, selectTabError, selectTabItems, selectTabPhase,
} from '../../../machines/home-list/home-list.selectors';
import type { HomeTabDef } from '../../../machines/home-list/home-tab.machine';
import { ListMessage } from '../../ui/ListMessage';
import { PullDown } from '../../ui/PullDown';
import { onceAFrame } from '../../ui/onceAFrame';
import { scrollParentOf } from '../../ui/scrollParent';
import { HostGrid } from './HostGrid';

// The Live and Users tabs' rows load when one of those tabs is first shown (kept off the first screen).
const LiveRows = lazyComponent(() => import('./PersonRows').then((m) => ({ default: m.LiveRows })));
const UserRows = lazyComponent(() => import('./PersonRows').then((m) => ({ default: m.UserRows })));

/** How close (px) to the end of the list the next page is asked for. */
const END_MARGIN = 600;

const EMPTY: Readonly<Record<HomeTabDef['kind'], string>> = {
  all: 'No host is online right now.',
  tag: 'No hosts here yet.',
  live: 'No one is live right now. Hosts you follow show up here when they go live.',
  users: 'No users yet.',
};

interface TabPanelProps {
  tab: HomeTabDef;
  list: HomeTabRef;
  followedLive: FollowedLiveRef | null;
  statuses: Readonly<Record<string, OnlineStatus>>;
  /** Each tab's last scroll position, by key (kept by the Home screen across tab switches). */
  scrollMemory: Map<string, number>;
  id: string;
  labelledBy: string;
}

export function TabPanel({ tab, list, followedLive, statuses, scrollMemory, id, labelledBy }: TabPanelProps) {
  const phase = useSelector(list, selectTabPhase);
  const items = useSelector(list, selectTabItems);
  const disabled = useSelector(list, selectDisabled);
  const refreshing = useSelector(list, selectRefreshing);
  const refreshError = useSelector(list, selectRefreshError);
  const state = useSelector(list, (s) => JSON.stringify(s.value));
  const currentPage = useSelector(list, (s) => selectListOption(s).currentPage);
  const moreCurrentPage = useSelector(list, (s) => selectListOption(s).moreCurrentPage);
  const panel = useRef<HTMLDivElement>(null);

  // The tab's own scroll position: restored when it shows again, remembered while it scrolls. A tab
  // shown for the first time starts at its top, with the tab strip where it was.
  useLayoutEffect(() => {
    const el = panel.current;
    const scroller = scrollParentOf(el);
    if (!scroller || !el) return;
    const kept = scrollMemory.get(tab.key);
    if (kept !== undefined) {
      scroller.scrollTop = kept;
    } else {
      const strip = scroller.querySelector<HTMLElement>('[role="tablist"]')?.offsetHeight ?? 0;
      const top = el.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop - strip;
      if (scroller.scrollTop > top) scroller.scrollTop = Math.max(0, top);
    }
    const remember = onceAFrame(() => scrollMemory.set(tab.key, scroller.scrollTop));
    scroller.addEventListener('scroll', remember, { passive: true });
    return () => {
      remember.cancel();
      scroller.removeEventListener('scroll', remember);
    };
  }, [scrollMemory, tab.key]);

  // Near the end: the next page (the actor takes it only when one can be asked for).
  useLayoutEffect(() => {
    const scroller = scrollParentOf(panel.current);
    if (!scroller || disabled) return;
    const check = onceAFrame(() => {
      if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - END_MARGIN) list.send({ type: 'tab.loadMore' });
    });
    check();
    scroller.addEventListener('scroll', check, { passive: true });
    return () => {
      check.cancel();
      scroller.removeEventListener('scroll', check);
    };
  }, [disabled, list, items.length]);

  return (
    <div
      ref={panel}
      role="tabpanel"
      id={id}
      aria-labelledby={labelledBy}
      className="home-panel"
      data-state={state}
      data-current-page={currentPage}
      data-more-current-page={moreCurrentPage}
      data-count={items.length}
    >
      <PullDown refreshing={refreshing} onRefresh={() => list.send({ type: 'tab.refresh' })}>
        {refreshError && <p className="home-alert" role="alert">Could not refresh: {refreshError}</p>}
        {phase === 'loading' && <ListMessage busy>Loading…</ListMessage>}
        {phase === 'failed' && <FirstPageFailed list={list} />}
        {tab.kind === 'live' && phase !== 'loading' && phase !== 'failed'
          ? <Suspense fallback={null}><LiveRows rooms={items as readonly LiveCard[]} followedLive={followedLive} empty={EMPTY.live} /></Suspense>
          : phase === 'empty' ? <ListMessage>{EMPTY[tab.kind]}</ListMessage> : null}
        {phase === 'listed' && (tab.kind === 'all' || tab.kind === 'tag') && (
          <HostGrid hosts={items as readonly HostCard[]} statuses={statuses} label={`${tab.label} hosts`} />
        )}
        {phase === 'listed' && tab.kind === 'users' && (
          <Suspense fallback={null}><UserRows users={items as readonly UserCard[]} statuses={statuses} /></Suspense>
        )}
        {(phase === 'listed' || phase === 'empty') && <ListEnd list={list} />}
      </PullDown>
    </div>
  );
}

function FirstPageFailed({ list }: { list: HomeTabRef }) {
  const error = useSelector(list, selectTabError);
  return <ListMessage error={error} onRetry={() => list.send({ type: 'tab.retry' })} />;
}

/** The end of a tab's list: loading the next page, its retry, the expansion, or the end. */
function ListEnd({ list }: { list: HomeTabRef }) {
  const loadingMore = useSelector(list, selectLoadingMore);
  const moreFailed = useSelector(list, selectMoreFailed);
  const canExpand = useSelector(list, selectCanExpand);
  const expanded = useSelector(list, selectExpanded);
  const finished = useSelector(list, selectFinished);
  const error = useSelector(list, selectTabError);
  if (loadingMore) return <ListMessage busy>Loading more…</ListMessage>;
  if (moreFailed) return <ListMessage error={error} onRetry={() => list.send({ type: 'tab.retry' })} />;
  if (canExpand) {
    return (
      <div className="home-end">
        <button type="button" className="button-link home-expand" onClick={() => list.send({ type: 'tab.expandMore' })}>
          More offline anchors
        </button>
      </div>
    );
  }
  if (finished) return <p className="home-end muted">{expanded ? 'No more offline anchors.' : 'You have reached the end.'}</p>;
  return <div className="home-end" aria-hidden="true" />;
}
