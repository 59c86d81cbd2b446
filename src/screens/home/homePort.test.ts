/**
 * The home port over the API (SPEC §7 indexTag, anchorList, getCountryList, getAppPicByType,
 * queryLiveList / queryMyFollowLive, anchorGetUserList, batchQueryYxStat): what each list asks
 * the server and how the answers become cards.
 */
import { describe, expect, it } from 'vitest';
import { home, live, news, people } from '../../api/contract';
import { fakeServices, refusal } from '../../app/services.fake';
import { createEarlyAnswers } from '../../app/early';
import { ALL_TAB } from '../../../machines/home-list/home-list.machine';
import { FIRST_HOME_QUERY, HOME_PAGE_SIZE } from '../../../machines/home-list/home-list.port';
import { mainQuery } from '../../../machines/home-list/home-tab.machine';
import { askHomeEarly, homeEarlyKey } from './homeEarly';
import { createHomePort } from './homePort';

const person = (userId: number) => ({
  userId, yxAccid: `yx${userId}`, nickname: `P${userId}`, icon: `http://cdn.example/p${userId}.png`, userType: 2, userLevel: 2,
  levelName: 'Lv.2', age: 23, countryId: 3, countryName: 'Brazil', countryCode: 'BR', isVip: false, onlineGroupStatus: 1, isFollowed: false,
});
const page = (list: unknown[]) => ({ list, total: list.length, currentPage: 1, pageSize: 10 });

describe('[§7 Users and home] the home port', () => {
  it('tabs are the children of the first parent tag; banners that fail leave the home without banners', async () => {
    const services = fakeServices({
      [home.indexTag.path]: () => ({
        parentTags: [{ id: 1, tagName: 'Recommend' }, { id: 2, tagName: 'Interests' }],
        childrenTags: [{ id: 11, tagName: 'New', parentId: 1 }, { id: 21, tagName: 'Music', parentId: 2 }, { id: 12, tagName: 'Popular', parentId: 1 }],
      }),
      [home.getCountryList.path]: () => [{ countryId: 3, countryName: 'Brazil', countryCode: 'BR' }],
      [home.getAppPicByType.path]: () => { throw refusal('Server Failure'); },
    });
    const setup = await createHomePort(services.api).loadSetup();
    expect(setup.tags).toEqual([{ id: 11, tagName: 'New' }, { id: 12, tagName: 'Popular' }]);
    expect(setup.countries).toHaveLength(1);
    expect(setup.banners).toEqual([]);
    expect(services.requests.find((r) => r.path === home.getAppPicByType.path)?.body).toEqual({ type: home.AppPicType.homeBanner });
  });

  it('a host list asks anchorList with its online status, tag and a comma list of countries; cards keep https pictures', async () => {
    const services = fakeServices({
      [home.anchorList.path]: () => page([{ ...person(5), videoPrice: 40, cover: 'http://cdn.example/c5.jpg', tags: [] }]),
    });
    const port = createHomePort(services.api);
    const [card] = await port.loadPage({ source: 'hosts', onlineStatus: 3, tagId: 12, countryIds: [3, 5] }, 2, 10);
    expect(services.requests.at(-1)?.body).toEqual({ currentPage: 2, pageSize: 10, onlineStatus: 3, tagId: 12, countryIds: '3,5' });
    expect(card).toMatchObject({ kind: 'host', userId: 5, cover: 'https://cdn.example/c5.jpg', icon: 'https://cdn.example/p5.png' });
    await port.loadPage({ source: 'hosts', onlineStatus: 1, tagId: 0, countryIds: [] }, 1, 10);
    expect(services.requests.at(-1)?.body).toEqual({ currentPage: 1, pageSize: 10, onlineStatus: 1 });
  });

  it('live lists, followed lives and a host\'s users (each card saying whether it may be called)', async () => {
    const room = { ...person(8), agoraChannelId: 'c8', yxRoomId: 'r8', title: 'Evening', joinNum: 3, privateCallOpen: false, startTime: 1 };
    const services = fakeServices({
      [live.queryLiveList.path]: () => page([room]),
      [live.queryMyFollowLive.path]: () => page([room]),
      [people.anchorGetUserList.path]: () => ({ ...page([{ ...person(9), userType: 1 }]), canCall: true }),
    });
    const port = createHomePort(services.api);
    expect(await port.loadPage({ source: 'live' }, 1, 10)).toEqual([expect.objectContaining({ kind: 'live', title: 'Evening', followed: false })]);
    expect(await port.loadPage({ source: 'followedLive' }, 1, 100)).toEqual([expect.objectContaining({ followed: true })]);
    expect(await port.loadPage({ source: 'users', onlineStatus: 0 }, 1, 10)).toEqual([expect.objectContaining({ kind: 'user', canCall: true })]);
    expect(services.requests.map((r) => r.body)).toEqual([
      { currentPage: 1, pageSize: 10 }, { currentPage: 1, pageSize: 100 }, { currentPage: 1, pageSize: 10, onlineStatus: 0 },
    ]);
  });

  it('online status by IM account; nobody listed asks nothing', async () => {
    const services = fakeServices({
      [news.batchQueryYxStat.path]: () => ({ yx5: { ...person(5), isBlockUser: false, onlineGroupStatus: 2 } }),
    });
    const port = createHomePort(services.api);
    expect(await port.lookupStatuses([])).toEqual({});
    expect(services.requests).toEqual([]);
    expect(await port.lookupStatuses(['yx5', 'yx6'])).toEqual({ yx5: 2 });
  });

  it('the start asks for the setup and the All tab\'s first page; the home takes them instead of asking again, and fetches the first banner\'s picture', async () => {
    const services = fakeServices({
      [home.indexTag.path]: () => ({ parentTags: [{ id: 1, tagName: 'Recommend' }], childrenTags: [] }),
      [home.getCountryList.path]: () => [],
      [home.getAppPicByType.path]: () => [
        { id: 1, type: 1, title: 'Invite', picUrl: 'https://cdn.example/b1.png', linkUrl: '/invite' },
        { id: 2, type: 1, title: 'Tasks', picUrl: 'https://cdn.example/b2.png', linkUrl: null },
      ],
      [home.anchorList.path]: () => page([{ ...person(5), videoPrice: 40, cover: 'https://cdn.example/c5.jpg', tags: [] }]),
    });
    const early = createEarlyAnswers();
    const pictures: string[] = [];
    askHomeEarly(services.api, early, (url) => pictures.push(url));
    const asked = services.requests.map((r) => r.path);
    expect(asked).toEqual(expect.arrayContaining([home.indexTag.path, home.getCountryList.path, home.getAppPicByType.path, home.anchorList.path]));
    expect(services.requests.find((r) => r.path === home.anchorList.path)?.body).toEqual({ currentPage: 1, pageSize: 10, onlineStatus: 1 });

    const port = createHomePort(services.api, early);
    const setup = await port.loadSetup();
    const cards = await port.loadPage(mainQuery(ALL_TAB, []), 1, HOME_PAGE_SIZE);
    expect(setup.banners.map((b) => b.id)).toEqual([1, 2]);
    expect(cards.map((c) => c.userId)).toEqual([5]);
    expect(services.requests).toHaveLength(asked.length);
    expect(pictures).toEqual(['https://cdn.example/b1.png']);

    // Taken once: the next visit (a pull to refresh, the tab again) asks the server.
    await port.loadPage(mainQuery(ALL_TAB, []), 1, HOME_PAGE_SIZE);
    expect(services.requests).toHaveLength(asked.length + 1);
  });

  it('the early first page is the All tab\'s first query, as the home list asks it', () => {
    expect(homeEarlyKey.page(mainQuery(ALL_TAB, []), 1, HOME_PAGE_SIZE)).toBe(homeEarlyKey.page(FIRST_HOME_QUERY, 1, HOME_PAGE_SIZE));
  });
});
