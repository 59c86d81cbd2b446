/**
 * The home list's port over the encrypted API (SPEC §7 Users and home, Calls and live):
 * indexTag (the children of the first parent tag), getCountryList, getAppPicByType (home
 * banners), anchorList, queryLiveList / queryMyFollowLive, anchorGetUserList and
 * batchQueryYxStat. Failures are shown by the lists themselves, so requests are silent.
 */
import type {
  Banner, HomeItem, HomePort, HostCard, ListQuery, LiveCard, OnlineStatus, UserCard,
} from '../../../machines/home-list/home-list.port';
import type { ApiClient } from '../../api/client';
import { home, live, news, people } from '../../api/contract';
import type { AnchorCard } from '../../api/contract/home';
import type { LiveRoomItem } from '../../api/contract/live';
import type { PersonSummary } from '../../api/contract/people';

const silent = { silent: true } as const;

function person(p: PersonSummary) {
  return {
    userId: p.userId, yxAccid: p.yxAccid, nickname: p.nickname, icon: p.icon, userLevel: p.userLevel, levelName: p.levelName,
    age: p.age, countryName: p.countryName, countryCode: p.countryCode, isVip: p.isVip, onlineGroupStatus: p.onlineGroupStatus,
  };
}

export const hostCard = (a: AnchorCard): HostCard =>
  ({ ...person(a), kind: 'host', videoPrice: a.videoPrice, cover: a.cover, tags: a.tags });
const liveCard = (followed: boolean) => (r: LiveRoomItem): LiveCard =>
  ({ ...person(r), kind: 'live', title: r.title, joinNum: r.joinNum, followed });
const userCard = (canCall: boolean) => (p: PersonSummary): UserCard => ({ ...person(p), kind: 'user', canCall });

export function createHomePort(api: ApiClient): HomePort {
  return {
    async loadSetup() {
      const [tags, countries, banners] = await Promise.all([
        api.data(home.indexTag, {}, silent),
        api.data(home.getCountryList, {}, silent),
        // Banners are a nicety: without them the home still works.
        api.data(home.getAppPicByType, { type: home.AppPicType.homeBanner }, silent).catch((): [] => []),
      ]);
      const first = tags.parentTags[0];
      return {
        tags: first ? tags.childrenTags.filter((t) => t.parentId === first.id).map(({ id, tagName }) => ({ id, tagName })) : [],
        countries,
        banners: banners.map((b): Banner => ({ id: b.id, title: b.title, picUrl: b.picUrl, linkUrl: b.linkUrl })),
      };
    },

    async loadPage(query: ListQuery, currentPage: number, pageSize: number): Promise<HomeItem[]> {
      switch (query.source) {
        case 'hosts': {
          const page = await api.data(home.anchorList, {
            currentPage, pageSize, onlineStatus: query.onlineStatus,
            ...(query.tagId ? { tagId: query.tagId } : {}),
            ...(query.countryIds.length ? { countryIds: query.countryIds.join(',') } : {}),
          }, silent);
          return page.list.map(hostCard);
        }
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
