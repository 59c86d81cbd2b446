/**
 * People over real HTTP (src/api/contract/people.ts): profiles, following with the -4
 * notification over the hub's IM socket, the follow lists, profile edits and a host's list
 * of users. Default seed: 6 hosts, 4 users; host i follows hosts i+1 and i+2, user i follows
 * hosts i, i+1 and i+2.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PresenceCode } from '../../machines/ports/presence.port';
import { SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-sender';
import { MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { OnlineGroupStatus } from '../../src/api/contract/news';
import {
  FollowerAddedNotice, OnlineStatusFilter, PIC_LIST_MAX, TEXT_CANNOT_FOLLOW_SELF, TEXT_HOSTS_ONLY, TEXT_MEDIA_URL_INVALID,
  TEXT_NICKNAME_EMPTY, TEXT_NICKNAME_INVALID, TEXT_NICKNAME_TOO_LONG, TEXT_NOTHING_TO_UPDATE, TEXT_PIC_LIST_TOO_LONG,
} from '../../src/api/contract/people';
import { RealtimePath } from '../../src/api/contract/realtime';
import { CUSTOMER_SERVICE, SEED_PASSWORD } from '../db/seed';
import { device, signInForIm, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_INVALID_REQUEST } from './transport';

const {
  getUserDetail, checkUserInfo, followUser, followList, updateUserInfo, anchorGetUserList, login, register, blockUser, userInfo,
} = endpoints;

let server: TestServer;
let writer: Database.Database;
const tokens = new Map<string, string>();
/** Session token of a seeded account ('host1', 'user2', …). */
const as = async (who: string) => {
  let token = tokens.get(who);
  if (!token) {
    token = (await server.call(login, { ...device, account: `${who}@example.com`, password: SEED_PASSWORD })).data!.token;
    tokens.set(who, token);
  }
  return token;
};
const idOf = (who: string) => (who.startsWith('host') ? 100_000 : 200_000) + Number(who.replace(/\D/g, ''));
const person = (who: string) => writer.prepare('SELECT yx_accid AS accid FROM users WHERE id = ?')
  .get(idOf(who)) as { accid: string };

beforeAll(async () => {
  // cdn.example.com is the deployment's media host; any other https host is refused (MEDIA_HOSTS).
  server = await startTestServer({ build: false, mediaHosts: ['cdn.example.com'] });
  writer = new Database(server.dbPath);
  writer.pragma('busy_timeout = 5000');
});
afterAll(async () => {
  writer.close();
  await server.close();
});

const refused = (message: string) => ({ code: ResultCode.invalidRequest, message });

/** A minimal IM client of the hub: logs in and collects pushes. */
async function imClient(who: string) {
  // IM tokens are per session: a new sign-in's.
  const { yxAccid: accid, imToken } = await signInForIm(server.call, `${who}@example.com`, SEED_PASSWORD);
  const ws = new WebSocket(server.base.replace(/^http/, 'ws') + RealtimePath.im);
  const frames: { id?: number; ok?: boolean; push?: { type: string; notification?: { from: string; content: unknown } } }[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as (typeof frames)[number]));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  ws.send(JSON.stringify({ id: 1, op: 'login', account: accid, token: imToken }));
  const until = async <T>(find: () => T | undefined): Promise<T> => {
    for (let waited = 0; waited < 2000; waited += 10) {
      const found = find();
      if (found !== undefined) return found;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`Nothing came: ${JSON.stringify(frames)}`);
  };
  await until(() => frames.find((f) => f.id === 1 && f.ok));
  // The login's replay ends with the unread total.
  await until(() => frames.find((f) => f.push?.type === 'unread'));
  const notifications = () => frames.flatMap((f) => (f.push?.type === 'notification' ? [f.push.notification!] : []));
  return { notifications, until, close: () => ws.close() };
}

describe('[§7] /api/index/getUserDetail', () => {
  it('answers another person\'s profile by user id and by IM account alike', async () => {
    const token = await as('user1');
    const byId = await server.call(getUserDetail, { userId: 100002 }, { token });
    expect(byId.data).toEqual({
      userId: 100002, yxAccid: person('host2').accid, nickname: 'Amara', icon: '/avatars/host2.svg', userType: 2,
      userLevel: 2, levelName: 'Lv.2', age: 19, countryId: 2, countryName: 'Philippines', countryCode: 'PH',
      isVip: false, onlineGroupStatus: OnlineGroupStatus.offline, isFollowed: true, living: false, videoPrice: 40,
      tags: [{ id: 12, tagName: 'Popular' }, { id: 22, tagName: 'Dance' }],
      picList: [
        { mediaType: 1, mediaUrl: '/avatars/host2-1.svg' }, { mediaType: 1, mediaUrl: '/avatars/host2-2.svg' },
        { mediaType: 2, mediaUrl: '/avatars/host2-video.svg' },
      ],
      isBlockUser: false,
      // Followed by host1, host6, user1 and user2; follows host3 and host4.
      followerCount: 4,
      followingCount: 2,
    });
    const byAccid = await server.call(getUserDetail, { yxAccid: person('host2').accid }, { token });
    expect(byAccid.data).toEqual(byId.data);
  });

  it('answers the caller\'s own profile (its follower counts), and marks people the caller blocked', async () => {
    const token = await as('host3');
    const own = await server.call(getUserDetail, { userId: 100003 }, { token });
    expect(own.data).toMatchObject({ userId: 100003, isFollowed: false, followerCount: 5, followingCount: 2 });
    await server.call(blockUser, { beBlockUserId: 200004 }, { token });
    expect((await server.call(getUserDetail, { userId: 200004 }, { token })).data).toMatchObject({
      userType: 1, isBlockUser: true, videoPrice: 0, tags: [], picList: [], isVip: true, followerCount: 0, followingCount: 3,
    });
  });

  it('shows presence as onlineGroupStatus', async () => {
    writer.prepare('INSERT INTO user_presence (user_id, status, last_seen_at, updated_at) VALUES (100005, ?, 0, 0)').run(PresenceCode.calling);
    try {
      expect((await server.call(getUserDetail, { userId: 100005 }, { token: await as('user1') })).data!.onlineGroupStatus)
        .toBe(OnlineGroupStatus.busy);
    } finally {
      writer.exec('DELETE FROM user_presence');
    }
  });

  it('[§8] answers no.match.user for anyone who is not an app user; [1000] wants exactly one of the two keys', async () => {
    const token = await as('user1');
    for (const body of [{ userId: 999_999 }, { yxAccid: CUSTOMER_SERVICE.yxAccid }, { yxAccid: 'yx-nobody' }]) {
      expect(await server.call(getUserDetail, body, { token })).toEqual(refused(MESSAGE_NO_MATCH_USER));
    }
    for (const body of [{}, { userId: 100001, yxAccid: person('host1').accid }, { userId: 0 }]) {
      expect(await server.call(getUserDetail, body, { token })).toEqual(refused(TEXT_INVALID_REQUEST));
    }
  });
});

describe('[§7] /api/anchor/checkUserInfo', () => {
  it('finds a seeded host complete, a host without a video or picture not, and a user always complete', async () => {
    expect((await server.call(checkUserInfo, {}, { token: await as('host4') })).data).toEqual({ complete: true, missing: [] });
    const host = await as('host5');
    await server.call(updateUserInfo, { picList: [{ mediaType: 1, mediaUrl: '/avatars/host5-1.svg' }] }, { token: host });
    expect((await server.call(checkUserInfo, {}, { token: host })).data).toEqual({ complete: false, missing: ['video'] });
    await server.call(updateUserInfo, { picList: [] }, { token: host });
    expect((await server.call(checkUserInfo, {}, { token: host })).data).toEqual({ complete: false, missing: ['picture', 'video'] });
    expect((await server.call(checkUserInfo, {}, { token: await as('user3') })).data).toEqual({ complete: true, missing: [] });
  });
});

describe('[§7] /api/user/followUser', () => {
  it('follows once however often asked, sends the followed person -4 once, and unfollows idempotently', async () => {
    const im = await imClient('host6');
    try {
      const token = await as('user3');
      // user3 follows hosts 3, 4, 5 (seed); host6 has host4, host5 and user4 as followers.
      const first = await server.call(followUser, { beFollowUserId: 100006, follow: true }, { token });
      expect(first.data).toEqual({ userId: 100006, yxAccid: person('host6').accid, followed: true, followerCount: 4 });
      const notice = await im.until(() => im.notifications()[0]);
      expect(notice.from).toBe(SYSTEM_SENDER_ACCID);
      expect(FollowerAddedNotice.parse(notice.content)).toEqual({
        attachType: -4, userId: 200003, yxAccid: person('user3').accid, nickname: 'Chris', icon: '/avatars/user3.svg', followerCount: 4,
      });
      const again = await server.call(followUser, { beFollowYxAccid: person('host6').accid, follow: true }, { token });
      expect(again.data).toEqual(first.data);
      expect((await server.call(getUserDetail, { userId: 100006 }, { token })).data).toMatchObject({ isFollowed: true, followerCount: 4 });

      const off = await server.call(followUser, { beFollowUserId: 100006, follow: false }, { token });
      expect(off.data).toMatchObject({ followed: false, followerCount: 3 });
      expect((await server.call(followUser, { beFollowUserId: 100006, follow: false }, { token })).data).toEqual(off.data);
      await new Promise((r) => setTimeout(r, 100));
      expect(im.notifications()).toHaveLength(1);
    } finally {
      im.close();
    }
  });

  it('keeps the -4 for a followed person who is not connected until their next IM login', async () => {
    await server.call(followUser, { beFollowUserId: 100001, follow: true }, { token: await as('user4') });
    const im = await imClient('host1');
    try {
      expect(im.notifications().map((n) => (n.content as { attachType: number; userId: number })))
        .toEqual([expect.objectContaining({ attachType: -4, userId: 200004 })]);
    } finally {
      im.close();
    }
  });

  it('sends no -4 when the followed person blocked the follower, but the follow counts', async () => {
    await server.call(blockUser, { beBlockUserId: 200002 }, { token: await as('host5') });
    const im = await imClient('host5');
    try {
      const res = await server.call(followUser, { beFollowUserId: 100005, follow: true }, { token: await as('user2') });
      expect(res.data!.followed).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
      expect(im.notifications()).toEqual([]);
    } finally {
      im.close();
    }
  });

  it('refuses following oneself, people who are not app users, and a request naming nobody or both', async () => {
    const token = await as('user1');
    expect(await server.call(followUser, { beFollowUserId: 200001, follow: true }, { token })).toEqual(refused(TEXT_CANNOT_FOLLOW_SELF));
    expect(await server.call(followUser, { beFollowYxAccid: person('user1').accid, follow: false }, { token }))
      .toEqual(refused(TEXT_CANNOT_FOLLOW_SELF));
    expect(await server.call(followUser, { beFollowYxAccid: CUSTOMER_SERVICE.yxAccid, follow: true }, { token }))
      .toEqual(refused(MESSAGE_NO_MATCH_USER));
    expect(await server.call(followUser, { beFollowUserId: 123, follow: true }, { token })).toEqual(refused(MESSAGE_NO_MATCH_USER));
    for (const body of [{ follow: true }, { beFollowUserId: 100001 }, { beFollowUserId: 100001, beFollowYxAccid: 'x', follow: true }]) {
      expect(await server.call(followUser, body as never, { token })).toEqual(refused(TEXT_INVALID_REQUEST));
    }
    expect((await server.call(followUser, { beFollowUserId: 100001, follow: true })).code).toBe(ResultCode.authFailed);
  });
});

describe('/api/user/followList', () => {
  it('pages the people the caller follows, newest follow first, without repeats, ending on a short page', async () => {
    const token = await as('user1');
    for (const id of [100006, 100004, 100005]) {
      await server.call(followUser, { beFollowUserId: id, follow: true }, { token });
      // Follow times are milliseconds: keep these three apart so their order is theirs, not the id tie-break.
      await new Promise((r) => setTimeout(r, 5));
    }
    const first = await server.call(followList, { type: 'follows', currentPage: 1, pageSize: 4 }, { token });
    const second = await server.call(followList, { type: 'follows', currentPage: 2, pageSize: 4 }, { token });
    expect(first.data).toMatchObject({ total: 6, currentPage: 1, pageSize: 4 });
    expect(second.data!.list).toHaveLength(2);
    const ids = [...first.data!.list, ...second.data!.list].map((p) => p.userId);
    // The three new follows (newest last made first), then the seeded ones (host3, host2, host1).
    expect(ids).toEqual([100005, 100004, 100006, 100003, 100002, 100001]);
    expect([...first.data!.list, ...second.data!.list].every((p) => p.isFollowed)).toBe(true);
    const times = [...first.data!.list, ...second.data!.list].map((p) => p.followTime);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await server.call(followList, { type: 'follows', currentPage: 3, pageSize: 4 }, { token })).data!.list).toEqual([]);
  });

  it('lists followers with whether the caller follows back', async () => {
    const token = await as('host2');
    const res = await server.call(followList, { type: 'followers', currentPage: 1, pageSize: 10 }, { token });
    // host2 follows host3 and host4; host1, host6, user1 and user2 follow host2.
    expect(res.data!.list.map((p) => [p.userId, p.isFollowed])).toEqual([
      [200002, false], [200001, false], [100006, false], [100001, false],
    ]);
    await server.call(followUser, { beFollowUserId: 200001, follow: true }, { token });
    const after = await server.call(followList, { type: 'followers', currentPage: 1, pageSize: 10 }, { token });
    expect(after.data!.list.find((p) => p.userId === 200001)!.isFollowed).toBe(true);
    const theirs = await server.call(followList, { type: 'followers', currentPage: 1, pageSize: 10 }, { token: await as('user1') });
    expect(theirs.data).toMatchObject({ total: 1, list: [{ userId: 100002, isFollowed: true }] });
  });

  it('[1000] refuses an unknown type and out-of-range pages', async () => {
    const token = await as('user1');
    for (const body of [{ type: 'friends', currentPage: 1, pageSize: 10 }, { type: 'follows', currentPage: 0, pageSize: 10 },
      { type: 'follows', currentPage: 1, pageSize: 101 }]) {
      expect(await server.call(followList, body as never, { token })).toEqual(refused(TEXT_INVALID_REQUEST));
    }
  });
});

describe('[§7] /api/user/updateUserInfo', () => {
  let token: string;
  beforeAll(async () => {
    const res = await server.call(register, { ...device, account: 'editor@example.com', password: 'secret12', nickname: 'Editor' });
    token = res.data!.token;
  });

  it('changes the nickname (trimmed), avatar and picList, answers the whole profile and keeps the rest', async () => {
    const picList = [
      { mediaType: 2 as const, mediaUrl: 'https://cdn.example.com/v.mp4' },
      { mediaType: 1 as const, mediaUrl: '/media/0123456789abcdef0123456789abcdef.jpg' },
      { mediaType: 1 as const, mediaUrl: '/avatars/editor-2.svg' },
    ];
    const res = await server.call(updateUserInfo, { nickname: '  Ed  ', icon: 'https://cdn.example.com/me.png', picList }, { token });
    expect(res.data).toMatchObject({ nickname: 'Ed', icon: 'https://cdn.example.com/me.png', picList });
    const only = await server.call(updateUserInfo, { nickname: 'Edith' }, { token });
    expect(only.data).toMatchObject({ nickname: 'Edith', icon: 'https://cdn.example.com/me.png', picList });
    expect((await server.call(userInfo, {}, { token })).data).toEqual(only.data);
    const detail = await server.call(getUserDetail, { userId: only.data!.userId }, { token: await as('user1') });
    expect(detail.data).toMatchObject({ nickname: 'Edith', picList });
    expect((await server.call(updateUserInfo, { picList: [] }, { token })).data!.picList).toEqual([]);
  });

  it('counts a nickname in characters: 24 emoji are fine, 25 letters are not', async () => {
    expect((await server.call(updateUserInfo, { nickname: '😀'.repeat(24) }, { token })).data!.nickname).toBe('😀'.repeat(24));
    expect(await server.call(updateUserInfo, { nickname: 'a'.repeat(25) }, { token })).toEqual(refused(TEXT_NICKNAME_TOO_LONG));
    expect(await server.call(updateUserInfo, { nickname: '   ' }, { token })).toEqual(refused(TEXT_NICKNAME_EMPTY));
    expect(await server.call(updateUserInfo, { nickname: 'two\nlines' }, { token })).toEqual(refused(TEXT_NICKNAME_INVALID));
    expect(await server.call(updateUserInfo, { nickname: 'zero\u200bwidth' }, { token })).toEqual(refused(TEXT_NICKNAME_INVALID));
  });

  it('takes only same-origin media paths and https links to the media hosts, at most 9, and refuses an empty change', async () => {
    const bad = [
      'http://cdn.example.com/a.png', 'javascript:alert(1)', '//evil.example/a.png', '/api/user/updateUserInfo',
      '/media/../app.db', '/avatars/a b.svg', 'https://', 'data:image/png;base64,AAAA', `https://cdn.example.com/${'a'.repeat(1100)}`,
      // Another server: every viewer of the profile would load it.
      'https://tracker.example.net/pixel.png', 'https://cdn.example.com.evil.example/a.png', 'https://cdn.example.com:8443/a.png',
      'https://user:pass@cdn.example.com/a.png', 'https://sub.cdn.example.com/a.png',
    ];
    for (const url of bad) {
      expect(await server.call(updateUserInfo, { icon: url }, { token })).toEqual(refused(TEXT_MEDIA_URL_INVALID));
      expect(await server.call(updateUserInfo, { picList: [{ mediaType: 1, mediaUrl: url }] }, { token }))
        .toEqual(refused(TEXT_MEDIA_URL_INVALID));
    }
    const ten = Array.from({ length: PIC_LIST_MAX + 1 }, (_, i) => ({ mediaType: 1 as const, mediaUrl: `/avatars/p${i}.svg` }));
    expect(await server.call(updateUserInfo, { picList: ten }, { token })).toEqual(refused(TEXT_PIC_LIST_TOO_LONG));
    expect((await server.call(updateUserInfo, { picList: ten.slice(0, PIC_LIST_MAX) }, { token })).data!.picList).toHaveLength(9);
    expect(await server.call(updateUserInfo, {}, { token })).toEqual(refused(TEXT_NOTHING_TO_UPDATE));
    expect(await server.call(updateUserInfo, { picList: [{ mediaType: 3, mediaUrl: '/avatars/a.svg' }] } as never, { token }))
      .toEqual(refused(TEXT_INVALID_REQUEST));
    // Nothing of a refused change was kept.
    expect((await server.call(userInfo, {}, { token })).data!.picList).toHaveLength(9);
  });
});

describe('[§7] /api/user/anchorGetUserList', () => {
  const usersOf = async (who: string, body: { currentPage: number; pageSize: number; onlineStatus?: 0 | 1 | 2 | 3 }) =>
    (await server.call(anchorGetUserList, body, { token: await as(who) })).data!;

  it('lists users to a host, online first, then VIPs, then by id, leaving out visitors and blocked users', async () => {
    const visitor = await server.call(endpoints.visit, { ...device, deviceId: 'people-visitor' });
    expect(visitor.code).toBe(ResultCode.success);
    const all = await usersOf('host4', { currentPage: 1, pageSize: 50 });
    const seeded = all.list.map((p) => p.userId).filter((id) => id < 1_000_000);
    expect(seeded).toEqual([200002, 200004, 200001, 200003]);
    expect(all.list.every((p) => p.userType === 1)).toBe(true);
    expect(all.list.some((p) => p.nickname.startsWith('Visitor'))).toBe(false);
    // host3 blocked user4 earlier.
    expect((await usersOf('host3', { currentPage: 1, pageSize: 50 })).list.map((p) => p.userId)).not.toContain(200004);

    writer.prepare('INSERT INTO user_presence (user_id, status, last_seen_at, updated_at) VALUES (200003, ?, 0, 0)').run(PresenceCode.foreground);
    try {
      const online = await usersOf('host4', { currentPage: 1, pageSize: 2, onlineStatus: OnlineStatusFilter.onlineOrBusy });
      expect(online).toMatchObject({ total: 1, list: [{ userId: 200003, onlineGroupStatus: 1 }] });
      expect((await usersOf('host4', { currentPage: 1, pageSize: 1 })).list[0]!.userId).toBe(200003);
    } finally {
      writer.exec('DELETE FROM user_presence');
    }
    const pages = [1, 2, 3].map((currentPage) => usersOf('host4', { currentPage, pageSize: 2 }));
    const ids = (await Promise.all(pages)).flatMap((p) => p.list.map((u) => u.userId));
    expect(ids).toEqual(all.list.map((p) => p.userId).slice(0, 6));
  });

  it('says whether the host may call: prime_achor_can_call is 1 and the host level is in achor_hide_button', async () => {
    expect((await usersOf('host1', { currentPage: 1, pageSize: 1 })).canCall).toBe(true);
    // host6 is level 0, outside achor_hide_button.
    expect((await usersOf('host6', { currentPage: 1, pageSize: 1 })).canCall).toBe(false);
    writer.prepare("UPDATE app_config SET value = '0' WHERE key = 'prime_achor_can_call'").run();
    try {
      expect((await usersOf('host1', { currentPage: 1, pageSize: 1 })).canCall).toBe(false);
    } finally {
      writer.prepare("UPDATE app_config SET value = '1' WHERE key = 'prime_achor_can_call'").run();
    }
  });

  it('is for hosts only', async () => {
    expect(await server.call(anchorGetUserList, { currentPage: 1, pageSize: 10 }, { token: await as('user1') }))
      .toEqual(refused(TEXT_HOSTS_ONLY));
  });
});
