/**
 * The home's first answers, which the start may ask for before the home's code is there
 * (src/app/early.ts): its setup (SPEC §7 indexTag, getCountryList, getAppPicByType) and the
 * All tab's first page (anchorList). Kept apart from the port (home.http.ts), which takes
 * them, so that the start's code holds no more of the home than this.
 */
import type { Banner, HomeItem, HomeSetup, HostCard, ListQuery } from '../../../machines/home-list/home-list.port';
import { FIRST_HOME_QUERY, HOME_PAGE_SIZE } from '../../../machines/home-list/home-list.port';
import type { ApiClient } from '../../api/client';
import * as home from '../../api/contract/home';
import type { AnchorCard } from '../../api/contract/home';
import type { PersonSummary } from '../../api/contract/people';
import type { EarlyAnswers } from '../../app/early';

/** Failures are shown by the lists themselves: the home's requests are silent. */
export const silent = { silent: true } as const;

/** The fields every person card has. */
export function person(p: PersonSummary) {
  return {
    userId: p.userId, yxAccid: p.yxAccid, nickname: p.nickname, icon: p.icon, userLevel: p.userLevel, levelName: p.levelName,
    age: p.age, countryName: p.countryName, countryCode: p.countryCode, isVip: p.isVip, onlineGroupStatus: p.onlineGroupStatus,
  };
}

export const hostCard = (a: AnchorCard): HostCard =>
  ({ ...person(a), kind: 'host', videoPrice: a.videoPrice, cover: a.cover, tags: a.tags });

/** SPEC §7 indexTag, getCountryList and getAppPicByType (home banners), as the home is built from them. */
export async function askHomeSetup(api: ApiClient): Promise<HomeSetup> {
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
}

/** SPEC §7 anchorList: one page of hosts. */
export async function askHostsPage(
  api: ApiClient, query: Extract<ListQuery, { source: 'hosts' }>, currentPage: number, pageSize: number,
): Promise<HomeItem[]> {
  const page = await api.data(home.anchorList, {
    currentPage, pageSize, onlineStatus: query.onlineStatus,
    ...(query.tagId ? { tagId: query.tagId } : {}),
    ...(query.countryIds.length ? { countryIds: query.countryIds.join(',') } : {}),
  }, silent);
  return page.list.map(hostCard);
}

/** Where early answers (src/app/early.ts) of the home wait. */
export const homeEarlyKey = {
  setup: 'home.setup',
  page: (query: ListQuery, page: number, pageSize: number) => `home.page:${JSON.stringify([query, page, pageSize])}`,
};

/**
 * The home's first answers, asked for at the start (a start on / of a host): its setup and the
 * first page of the All tab; the first banner's picture is fetched as soon as its address is
 * known, so it is there when the banner is (it is the largest thing the home shows first).
 */
export function askHomeEarly(api: ApiClient, early: EarlyAnswers, fetchPicture: (url: string) => void): void {
  void early.ask(homeEarlyKey.setup, () => askHomeSetup(api)).then((setup) => {
    const first = setup.banners[0];
    if (first) fetchPicture(first.picUrl);
  }, () => undefined);
  early.ask(homeEarlyKey.page(FIRST_HOME_QUERY, 1, HOME_PAGE_SIZE), () => askHostsPage(api, FIRST_HOME_QUERY, 1, HOME_PAGE_SIZE));
}

