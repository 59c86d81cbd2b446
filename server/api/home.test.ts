/**
 * The home endpoints over real HTTP (src/api/contract/home.ts): the tag tree, the host list
 * with its paging, online, tag and country filters, countries, banners and the base config.
 * 60 hosts (as the e2e seed); presence is written to the database as the hub stores it.
 */
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PresenceCode } from '../../machines/ports/presence.port';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { AppPicType, OnlineStatusFilter, TEXT_APP_ID_NEEDED, type AnchorCard } from '../../src/api/contract/home';
import { OnlineGroupStatus } from '../../src/api/contract/news';
import { SEED_PASSWORD } from '../db/seed';
import { device, startTestServer, type TestServer } from '../testing/harness';
import { onlineGroupStatusOf } from './news';
import { ONLINE_GROUP_SQL } from './person-summary';
import { TEXT_INVALID_REQUEST, TEXT_SESSION_EXPIRED } from './transport';

const { indexTag, anchorList, getCountryList, getAppPicByType, getBaseConfigForIntoBagV2, getBaseConfigForIntoBagV4, login, blockUser } =
  endpoints;

const HOSTS = 60;
const hostIds = Array.from({ length: HOSTS }, (_, i) => 100_001 + i);

let server: TestServer;
let writer: Database.Database;
let user1: string;
let host1: string;
beforeAll(async () => {
  server = await startTestServer({ build: false, seed: { hosts: HOSTS, users: 4 } });
  writer = new Database(server.dbPath);
  writer.pragma('busy_timeout = 5000');
  const signIn = async (account: string) =>
    (await server.call(login, { ...device, account, password: SEED_PASSWORD })).data!.token;
  [user1, host1] = await Promise.all([signIn('user1@example.com'), signIn('host1@example.com')]);
});
afterAll(async () => {
  writer.close();
  await server.close();
});

/** Stores presence codes as the hub does (user_presence). */
function setPresence(codes: Record<number, PresenceCode>): void {
  const upsert = writer.prepare(
    `INSERT INTO user_presence (user_id, status, last_seen_at, updated_at) VALUES (?, ?, 0, 0)
     ON CONFLICT (user_id) DO UPDATE SET status = excluded.status`,
  );
  for (const [id, code] of Object.entries(codes)) upsert.run(Number(id), code);
}

type AnchorBody = Parameters<TestServer['call']>[1] & {
  currentPage: number; pageSize: number; onlineStatus?: 0 | 1 | 2 | 3; tagId?: number; countryIds?: string;
};

async function page(body: AnchorBody, token = user1) {
  const res = await server.call(anchorList, body, { token });
  expect(res.code).toBe(ResultCode.success);
  return res.data!;
}

/** Every page until one shorter than pageSize (SPEC §4: that one is the last). */
async function allPages(body: Omit<AnchorBody, 'currentPage'>, token = user1): Promise<{ pages: AnchorCard[][]; ids: number[] }> {
  const pages: AnchorCard[][] = [];
  for (let currentPage = 1; ; currentPage++) {
    const { list } = await page({ ...body, currentPage }, token);
    pages.push(list);
    if (list.length < body.pageSize) break;
    if (currentPage > 100) throw new Error('never finished');
  }
  return { pages, ids: pages.flat().map((a) => a.userId) };
}

describe('[§7] /api/index/indexTag', () => {
  it('answers the tag tree; the home tabs are the children of the first parent', async () => {
    const res = await server.call(indexTag, {}, { token: user1 });
    expect(res.data!.parentTags).toEqual([{ id: 1, tagName: 'Recommend' }, { id: 2, tagName: 'Interests' }]);
    const first = res.data!.parentTags[0]!.id;
    expect(res.data!.childrenTags.filter((t) => t.parentId === first)).toEqual([
      { id: 11, tagName: 'New', parentId: 1 }, { id: 12, tagName: 'Popular', parentId: 1 }, { id: 13, tagName: 'Nearby', parentId: 1 },
    ]);
    expect(res.data!.childrenTags).toHaveLength(7);
  });

  it('[§8 1005] needs a session', async () => {
    expect(await server.call(indexTag, {})).toEqual({ code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED });
  });
});

describe('[§7] /api/anchor/v4/anchorList', () => {
  afterEach(() => {
    writer.exec('DELETE FROM user_presence');
  });

  it('shows a home card with everything it needs', async () => {
    const { list } = await page({ currentPage: 1, pageSize: 10 });
    const accid = writer.prepare('SELECT yx_accid FROM users WHERE id = 100001').pluck().get() as string;
    expect(list[0]).toEqual({
      userId: 100001, yxAccid: accid, nickname: 'Sofia', icon: '/avatars/host1.svg', userType: 2, userLevel: 1,
      levelName: 'Lv.1', age: 26, countryId: 1, countryName: 'United States', countryCode: 'US', isVip: false,
      onlineGroupStatus: OnlineGroupStatus.offline, isFollowed: true, living: false, videoPrice: 30, cover: '/avatars/host1-1.svg',
      tags: [{ id: 11, tagName: 'New' }, { id: 21, tagName: 'Music' }],
    });
    // user1 follows hosts 1, 2 and 3 (seed).
    expect(list.map((a) => a.isFollowed)).toEqual([true, true, true, false, false, false, false, false, false, false]);
  });

  it('[§4 paging] pages of 10 cover every host once, in a stable order, and a short or empty page ends the list', async () => {
    const { pages, ids } = await allPages({ pageSize: 10 });
    expect(pages.map((p) => p.length)).toEqual([10, 10, 10, 10, 10, 10, 0]);
    expect(ids).toEqual(hostIds);
    const again = await allPages({ pageSize: 10 });
    expect(again.ids).toEqual(ids);
    const sevens = await allPages({ pageSize: 7 });
    expect(sevens.pages.map((p) => p.length)).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 4]);
    expect(sevens.ids).toEqual(hostIds);
    expect((await page({ currentPage: 1, pageSize: 10 })).total).toBe(HOSTS);
    expect((await page({ currentPage: 99, pageSize: 10 })).list).toEqual([]);
  });

  it('[§4 presence] puts online hosts first, then busy, then offline, each group by id', async () => {
    setPresence({
      100040: PresenceCode.foreground, 100020: PresenceCode.callEnd, 100010: PresenceCode.calling,
      100030: PresenceCode.background, 100050: PresenceCode.offline,
    });
    const { list } = await page({ currentPage: 1, pageSize: 5, onlineStatus: OnlineStatusFilter.all });
    expect(list.map((a) => [a.userId, a.onlineGroupStatus])).toEqual([
      [100020, 1], [100040, 1], [100010, 2], [100001, 3], [100002, 3],
    ]);
  });

  it('[§2 Home All tab] online-or-busy pages, then the offline expansion by its own page number: every host once', async () => {
    const online = [100007, 100015, 100033, 100048];
    setPresence({ 100007: PresenceCode.foreground, 100015: PresenceCode.calling, 100033: PresenceCode.callEnd, 100048: PresenceCode.foreground });
    const first = await allPages({ pageSize: 3, onlineStatus: OnlineStatusFilter.onlineOrBusy });
    expect(first.ids).toEqual([100007, 100033, 100048, 100015]);
    expect(first.pages.map((p) => p.length)).toEqual([3, 1]);
    const more = await allPages({ pageSize: 10, onlineStatus: OnlineStatusFilter.offline });
    expect(more.ids).toEqual(hostIds.filter((id) => !online.includes(id)));
    expect(more.pages.flat().every((a) => a.onlineGroupStatus === OnlineGroupStatus.offline)).toBe(true);
    expect([...first.ids, ...more.ids].sort()).toEqual(hostIds);
    const busy = await page({ currentPage: 1, pageSize: 10, onlineStatus: OnlineStatusFilter.busy });
    expect(busy.list.map((a) => a.userId)).toEqual([100015]);
    expect(busy.total).toBe(1);
  });

  it('filters by a home tab (child tag), by a parent tag (any of its children), and finds nothing for an unknown tag', async () => {
    const popular = await allPages({ pageSize: 10, tagId: 12 });
    expect(popular.ids).toEqual(hostIds.filter((id) => (id - 100_000) % 3 === 2));
    expect(popular.pages.flat().every((a) => a.tags.some((t) => t.id === 12))).toBe(true);
    expect((await page({ currentPage: 1, pageSize: 10, tagId: 2 })).total).toBe(HOSTS);
    expect((await page({ currentPage: 1, pageSize: 10, tagId: 0 })).total).toBe(HOSTS);
    expect(await page({ currentPage: 1, pageSize: 10, tagId: 999 })).toMatchObject({ list: [], total: 0 });
  });

  it('filters by a comma list of countries, alone and with a tag; an empty list is every country', async () => {
    const ph = await allPages({ pageSize: 10, countryIds: '2' });
    expect(ph.ids).toEqual(hostIds.filter((id) => (id - 100_000) % 8 === 2));
    expect(ph.pages.flat().every((a) => a.countryCode === 'PH')).toBe(true);
    const inCountries = (id: number) => [2, 3].includes((id - 100_000) % 8);
    const two = await page({ currentPage: 1, pageSize: 50, countryIds: ' 2, 3 ,2' });
    expect(two.list.map((a) => a.userId)).toEqual(hostIds.filter(inCountries));
    expect(two.total).toBe(16);
    const both = await page({ currentPage: 1, pageSize: 50, countryIds: '2,3', tagId: 12 });
    expect(both.list.map((a) => a.userId)).toEqual(hostIds.filter((id) => inCountries(id) && (id - 100_000) % 3 === 2));
    expect(both.total).toBe(6);
    expect((await page({ currentPage: 1, pageSize: 10, countryIds: '' })).total).toBe(HOSTS);
  });

  it('leaves out the caller and the hosts the caller blocked', async () => {
    const before = await allPages({ pageSize: 20 }, host1);
    expect(before.ids).toEqual(hostIds.filter((id) => id !== 100001));
    expect((await server.call(blockUser, { beBlockUserId: 100009 }, { token: host1 })).code).toBe(ResultCode.success);
    const after = await allPages({ pageSize: 20 }, host1);
    expect(after.ids).toEqual(hostIds.filter((id) => id !== 100001 && id !== 100009));
    expect((await page({ currentPage: 1, pageSize: 1 }, host1)).total).toBe(HOSTS - 2);
  });

  it('[1000] refuses page 0, page sizes 0 and 101, an unknown onlineStatus and a malformed country list', async () => {
    const bad = [
      { currentPage: 0, pageSize: 10 }, { currentPage: 1, pageSize: 0 }, { currentPage: 1, pageSize: 101 },
      { currentPage: 1, pageSize: 10, onlineStatus: 4 }, { currentPage: 1, pageSize: 10, countryIds: 'a,b' },
      { currentPage: 1, pageSize: 10, countryIds: '1,,2' }, { currentPage: 1, pageSize: 10, countryIds: [1, 2] },
      { currentPage: 1, pageSize: 10, tagId: -1 },
      { currentPage: 1, pageSize: 10, countryIds: Array.from({ length: 51 }, (_, i) => i + 1).join(',') },
    ];
    for (const body of bad) {
      expect(await server.call(anchorList, body as never, { token: user1 })).toEqual({
        code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST,
      });
    }
    expect((await server.call(anchorList, { currentPage: 1, pageSize: 10 })).code).toBe(ResultCode.authFailed);
  });

  it('maps presence onto onlineGroupStatus in SQL exactly as news.ts does', () => {
    const read = server.readDb();
    for (const code of [undefined, ...Object.values(PresenceCode)]) {
      const sql = `SELECT ${ONLINE_GROUP_SQL} FROM (SELECT ? AS status) p`;
      const fromSql = read.prepare(sql).pluck().get(code ?? null);
      const fromJs = onlineGroupStatusOf(code === undefined ? undefined : { status: code, lastSeenAt: 0, updatedAt: 0 });
      expect(fromSql).toBe(fromJs);
    }
  });
});

describe('[§7] /api/index/getCountryList', () => {
  it('answers every country by id with its flag code', async () => {
    const res = await server.call(getCountryList, {}, { token: user1 });
    expect(res.data).toHaveLength(8);
    expect(res.data![0]).toEqual({ countryId: 1, countryName: 'United States', countryCode: 'US' });
    expect(res.data!.map((c) => c.countryCode)).toEqual(['US', 'PH', 'BR', 'CO', 'IN', 'VN', 'ID', 'UA']);
  });
});

describe('[§7] /api/index/v2/getAppPicByType', () => {
  it('answers the banners of a type in order, each served same-origin as SVG', async () => {
    const res = await server.call(getAppPicByType, { type: AppPicType.homeBanner }, { token: user1 });
    expect(res.data!.map((p) => [p.title, p.picUrl, p.linkUrl])).toEqual([
      ['Invite friends', '/banners/invite-friends.svg', '/invite'],
      ['Top hosts this week', '/banners/top-hosts.svg', '/rank'],
      ['Daily tasks', '/banners/daily-tasks.svg', '/dailyTask'],
    ]);
    for (const pic of res.data!) {
      const svg = await fetch(server.base + pic.picUrl);
      expect(svg.status).toBe(200);
      expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(await svg.text()).toContain(pic.title);
    }
    expect((await server.call(getAppPicByType, { type: AppPicType.liveBanner }, { token: user1 })).data).toHaveLength(2);
    expect((await server.call(getAppPicByType, { type: 77 }, { token: user1 })).data).toEqual([]);
  });

  it('answers 404 for a banner it does not have', async () => {
    for (const path of ['/banners/nope.svg', '/banners/invite-friends.png', '/banners/..%2Fapp.db']) {
      expect((await fetch(server.base + path)).status).toBe(404);
    }
  });
});

describe('[§3 Base config] /api/index/v4 and v2 getBaseConfigForIntoBag', () => {
  const expected = {
    businessConfig: {
      enabled: true,
      nonPaidUserCount: 3,
      microsoft_translator_config_json: { key: 'dev-translator-key', area: 'local', endpoint: '/translator/translate' },
    },
  };

  it('answers businessConfig from the app config, the translator config under its base-config names', async () => {
    expect(await server.call(getBaseConfigForIntoBagV4, {}, { token: user1 })).toMatchObject({ code: ResultCode.success, data: expected });
    expect(await server.call(getBaseConfigForIntoBagV2, {})).toMatchObject({ code: ResultCode.success, data: expected });
    expect((await server.call(getBaseConfigForIntoBagV4, {})).code).toBe(ResultCode.authFailed);
  });

  it('[§7 by app id] v2 answers without a session for the app id named, and refuses a request that names none', async () => {
    expect(await server.call(getBaseConfigForIntoBagV2, {}, { appId: 'web' })).toMatchObject({ code: ResultCode.success, data: expected });
    expect(await server.call(getBaseConfigForIntoBagV2, {}, { appId: '' })).toEqual({ code: ResultCode.invalidRequest, message: TEXT_APP_ID_NEEDED });
  });

  it('follows edits of the app config at once, and answers null for a missing or unreadable translator config', async () => {
    try {
      writer.prepare("UPDATE app_config SET value = ? WHERE key = 'non_paid_user_count'").run('5');
      writer.prepare("UPDATE app_config SET value = '0' WHERE key = 'business_enabled'").run();
      writer.prepare("UPDATE app_config SET value = 'not json' WHERE key = 'microsoft_translator_config'").run();
      expect((await server.call(getBaseConfigForIntoBagV2, {})).data).toEqual({
        businessConfig: { enabled: false, nonPaidUserCount: 5, microsoft_translator_config_json: null },
      });
      writer.prepare("UPDATE app_config SET value = '{\"key\":\"k\",\"region\":\"eastus\"}' WHERE key = 'microsoft_translator_config'").run();
      expect((await server.call(getBaseConfigForIntoBagV2, {})).data!.businessConfig.microsoft_translator_config_json)
        .toEqual({ key: 'k', area: 'eastus' });
    } finally {
      writer.prepare("UPDATE app_config SET value = '3' WHERE key = 'non_paid_user_count'").run();
      writer.prepare("UPDATE app_config SET value = '1' WHERE key = 'business_enabled'").run();
      writer.prepare('UPDATE app_config SET value = ? WHERE key = ?').run(
        JSON.stringify(expected.businessConfig.microsoft_translator_config_json).replace('"area"', '"region"'),
        'microsoft_translator_config',
      );
    }
    expect((await server.call(getBaseConfigForIntoBagV2, {})).data).toEqual(expected);
  });
});
