/**
 * The home list's port over the encrypted API (SPEC §7 Users and home, Calls and live):
 * indexTag (the children of the first parent tag), getCountryList, getAppPicByType (home
 * banners), anchorList, queryLiveList / queryMyFollowLive, anchorGetUserList and
 * batchQueryYxStat. Failures are shown by the lists themselves, so requests are silent.
 * The setup and the All tab's first page may have been asked for at the start (`askHomeEarly`).
 */
import type { HomeItem, HomePort, ListQuery, LiveCard, UserCard } from '../../../machines/home-list/home-list.port';
import type { ApiClient } from '../../api/client';
import * as live from '../../api/contract/live';
import * as news from '../../api/contract/news';
import * as people from '../../api/contract/people';
import type { LiveRoomItem } from '../../api/contract/live';
import type { PersonSummary } from '../../api/contract/people';
import type { EarlyAnswers } from '../../app/early';
import { takeOrAsk } from '../../app/early';
import { askHomeSetup, askHostsPage, homeEarlyKey, person, silent } from './home.early';
import type { OnlineStatus } from '../../../machines/codes/user.codes';

const liveCard = (followed: boolean) => (r: LiveRoomItem): LiveCard =>
  ({ ...person(r), kind: 'live', title: r.title, joinNum: r.joinNum, followed });
const userCard = (canCall: boolean) => (p: PersonSummary): UserCard => ({ ...person(p), kind: 'user', canCall });

/** The port; answers asked for early (`early`) are taken when they match. */
export function createHomePort(api: ApiClient, early?: EarlyAnswers): HomePort {
  return {
    loadSetup: () => takeOrAsk(early, homeEarlyKey.setup, () => askHomeSetup(api)),

    async loadPage(query: ListQuery, currentPage: number, pageSize: number): Promise<HomeItem[]> {
      switch (query.source) {
        case 'hosts':
          return takeOrAsk(early, homeEarlyKey.page(query, currentPage, pageSize), () => askHostsPage(api, query, currentPage, pageSize));
        case 'live':
          return (await api.data(live.queryLiveList, { currentPage, pageSize }, silent)).list.map(liveCard(false));
        case 'followedLive':
          return (await api.data(live.queryMyFollowLive, { currentPage, pageSize }, silent)).list.map(liveCard(true));
        case 'users': {
          const page = await api.data(people.anchorGetUserList, { currentPage, pageSize, onlineStatus: query.onlineStatus }, silent);
          return page.list.map(userCard(page.canCall));
        }
      }
    },

    async lookupStatuses(accounts) {
      if (accounts.length === 0) return {};
      const found = await api.data(news.batchQueryYxStat, { yxAccids: [...accounts] }, silent);
      const out: Record<string, OnlineStatus> = {};
      for (const [account, stat] of Object.entries(found)) out[account] = stat.onlineGroupStatus;
      return out;
    },

    random: () => Math.random(),
  };
}
