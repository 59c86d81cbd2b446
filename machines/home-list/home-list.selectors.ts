/**
 * Home list snapshots → what the Home screen shows (one primitive or stable object per
 * selector, for `useSelector`). The SPEC §3 Home tab fields map as follows: currentPage,
 * moreCurrentPage, pageSize, tagId and countryIds are context; onlineStatus is the query of the
 * list being paged (1 for the All tab, 3 once its expansion runs, 0 for a tag tab); finished,
 * isRequest, isLoading and freshLoading are states (selectFinished, selectTabPhase,
 * selectLoadingMore, selectRefreshing); `disabled` (no next page can be asked for now) is
 * selectDisabled; scrollTop is kept by the view.
 */
import type { SnapshotFrom } from 'xstate';
import type { FollowedLiveRef, HomeListMachine, HomeTabRef } from './home-list.machine';
import type { HomeItem, OnlineStatus } from './home-list.port';
import { OnlineFilter } from './home-list.port';
import type { HomeTabDef, HomeTabMachine } from './home-tab.machine';
import { mainQuery } from './home-tab.machine';

type HomeListSnapshot = SnapshotFrom<HomeListMachine>;
type HomeTabSnapshot = SnapshotFrom<HomeTabMachine>;

export const selectTabs = (s: HomeListSnapshot): readonly HomeTabDef[] => s.context.tabs;
export const selectActiveKey = (s: HomeListSnapshot): string => s.context.active;
export const selectTabRef = (s: HomeListSnapshot, key: string): HomeTabRef | undefined => s.context.lists[key];
export const selectFollowedLive = (s: HomeListSnapshot): FollowedLiveRef | null => s.context.followedLive;
export const selectCountries = (s: HomeListSnapshot) => s.context.countries;
export const selectCountryIds = (s: HomeListSnapshot) => s.context.countryIds;
export const selectBanners = (s: HomeListSnapshot) => s.context.banners;
export const selectStatuses = (s: HomeListSnapshot): Readonly<Record<string, OnlineStatus>> => s.context.statuses;

/** The tags, countries and banners: 'loading', 'failed' (with selectSetupError) or 'ready'. */
export const selectSetupPhase = (s: HomeListSnapshot): 'loading' | 'failed' | 'ready' =>
  s.matches({ setup: 'loading' }) ? 'loading' : s.matches({ setup: 'failed' }) ? 'failed' : 'ready';
export const selectSetupError = (s: HomeListSnapshot): string | null => s.context.setupError;

export type MatchPhase = 'closed' | 'searching' | 'found' | 'none' | 'failed';
export function selectMatchPhase(s: HomeListSnapshot): MatchPhase {
  for (const phase of ['searching', 'found', 'none', 'failed'] as const) if (s.matches({ match: phase })) return phase;
  return 'closed';
}
export const selectMatch = (s: HomeListSnapshot) => s.context.match;
export const selectMatchError = (s: HomeListSnapshot) => s.context.matchError;

/** What a tab's list area shows. */
export type TabPhase = 'loading' | 'failed' | 'empty' | 'listed';

export function selectTabPhase(s: HomeTabSnapshot): TabPhase {
  if (s.matches('loading')) return 'loading';
  if (s.matches('failed')) return 'failed';
  return s.context.items.length === 0 ? 'empty' : 'listed';
}

export const selectTabItems = (s: HomeTabSnapshot): readonly HomeItem[] => s.context.items;
export const selectTabError = (s: HomeTabSnapshot): string | null => s.context.error;

/** SPEC §3 finished: nothing more will load on scroll (the All tab: its expansion too, or it is not open yet). */
export const selectFinished = (s: HomeTabSnapshot): boolean =>
  s.matches({ listed: 'end' }) || s.matches({ listed: { offline: 'finished' } });

/** The All tab's first list is finished: 'more offline anchors' is on offer. */
export const selectCanExpand = (s: HomeTabSnapshot): boolean => s.matches({ listed: 'end' }) && s.context.tab.kind === 'all';

export const selectExpanded = (s: HomeTabSnapshot): boolean => s.matches({ listed: 'offline' });

export const selectLoadingMore = (s: HomeTabSnapshot): boolean =>
  s.matches({ listed: 'loadingMore' }) || s.matches({ listed: { offline: 'loading' } });

/** A next page failed; the end of the list offers a retry. */
export const selectMoreFailed = (s: HomeTabSnapshot): boolean =>
  s.matches({ listed: 'moreFailed' }) || s.matches({ listed: { offline: 'failed' } });

export const selectRefreshing = (s: HomeTabSnapshot): boolean => s.matches('refreshing');

/** SPEC §3 disabled: scrolling to the end cannot ask for a page now. */
export const selectDisabled = (s: HomeTabSnapshot): boolean =>
  !(s.matches({ listed: 'ready' }) || s.matches({ listed: { offline: 'ready' } }));

/** Scrolling to the end may still load a page (now or after a retry). */
export const selectHasMore = (s: HomeTabSnapshot): boolean =>
  !selectFinished(s) && !s.matches('failed') && !(s.matches('refreshing') && s.context.finished);

/** A pull failed: the old items stay, and this says why (null otherwise). */
export const selectRefreshError = (s: HomeTabSnapshot): string | null =>
  s.matches('listed') && !selectMoreFailed(s) ? s.context.error : null;

/** Neither a first page, a next page nor a refresh is on its way. */
export const selectTabSettled = (s: HomeTabSnapshot): boolean =>
  !s.matches('loading') && !s.matches('refreshing') && !selectLoadingMore(s);

/** SPEC §3 getIndexListOption of the tab now: the page counters and the filter being paged. */
export function selectListOption(s: HomeTabSnapshot) {
  const { tab, pageSize, countryIds, currentPage, moreCurrentPage } = s.context;
  const query = mainQuery(tab, countryIds);
  const onlineStatus = selectExpanded(s) ? OnlineFilter.offline : 'onlineStatus' in query ? query.onlineStatus : OnlineFilter.all;
  return { currentPage, moreCurrentPage, onlineStatus, pageSize, tagId: tab.tagId, countryIds };
}

/** An item's online status: the latest lookup, else what its page said. */
export const statusOf = (item: HomeItem, statuses: Readonly<Record<string, OnlineStatus>>): OnlineStatus =>
  statuses[item.yxAccid] ?? item.onlineGroupStatus;
