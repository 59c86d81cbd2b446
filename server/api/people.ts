/**
 * Handlers of src/api/contract/people.ts: another person's profile, the caller's profile
 * check and edit, following (with SPEC §4 system message -4 to the followed person), the
 * follow lists and a host's list of users.
 *
 * The -4 notice is an IM custom notification, stored and sequenced like the hub's own (so a
 * followed person who is offline gets it on their next IM login) and pushed at once when they
 * are logged in. It goes through an ImStore of this module over the hub's tables and the hub's
 * live connection of the account (`im.connectionOf`), so the hub needs no API of its own for it.
 */
import type * as z from 'zod/mini';
import { MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import type { people } from '../../src/api/contract';
import { isAllowedMediaUrl } from '../../src/api/contract/media';
import {
  FollowListType, NICKNAME_MAX, OnlineStatusFilter, PIC_LIST_MAX, ProfileItem, TEXT_CANNOT_FOLLOW_SELF, TEXT_HOSTS_ONLY,
  TEXT_MEDIA_URL_INVALID, TEXT_NICKNAME_EMPTY, TEXT_NICKNAME_INVALID, TEXT_NICKNAME_TOO_LONG, TEXT_NOTHING_TO_UPDATE,
  TEXT_PIC_LIST_TOO_LONG, type FollowerAddedNotice, type FollowListItem, type UserDetail,
} from '../../src/api/contract/people';
import { AttachType } from '../../machines/system-messages/system-messages';
import { appConfig } from '../db/app-config';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { createImStore } from '../realtime/im.store';
import { createFollows, UserType, type ProfileChanges, type Users } from '../users/users';
import {
  NOT_BLOCKED_SQL, ONLINE_FILTER_SQL, PERSON_COLUMNS, PERSON_FROM, createTagLookup, pageWindow, toPersonSummary,
  type PersonRow,
} from './person-summary';
import { ApiError, requireSession, TEXT_SESSION_EXPIRED, type HandlersOf } from './transport';

export type PeopleRealtimeDeps = Pick<RealtimeHub, 'im'>;

const refuse = (message: string) => new ApiError(ResultCode.invalidRequest, message);

/** Length in characters as a person counts them (code points, so an emoji is one). */
const length = (text: string) => [...text].length;

interface Target {
  id: number;
  yx_accid: string;
  nickname: string;
  icon: string;
}

export function peopleHandlers(
  { db, users, realtime, mediaHosts }: { db: Db; users: Users; realtime: PeopleRealtimeDeps; mediaHosts: readonly string[] },
): HandlersOf<typeof people> {
  const follows = createFollows(db);
  const imStore = createImStore(db);
  const tagsOf = createTagLookup(db);

  const userById = db.prepare<[number], Target>('SELECT id, yx_accid, nickname, icon FROM users WHERE id = ?');
  const userByAccid = db.prepare<[string], Target>('SELECT id, yx_accid, nickname, icon FROM users WHERE yx_accid = ?');
  const blocks = db.prepare<[number, number], 1>('SELECT 1 FROM user_blocks WHERE blocker_id = ? AND blocked_id = ?').pluck();
  const person = db.prepare<{ caller: number; id: number }, PersonRow>(`SELECT ${PERSON_COLUMNS} FROM ${PERSON_FROM} WHERE u.id = @id`);
  const media = db.prepare<[number], { media_type: 1 | 2; media_url: string }>(
    'SELECT media_type, media_url FROM user_media WHERE user_id = ? ORDER BY sort',
  );
  const configValue = appConfig(db);

  // The follow lists: `fl` is the follow row; newest follow first, then by user id (a total order).
  const followJoin = {
    follows: 'JOIN user_follows fl ON fl.followee_id = u.id AND fl.follower_id = @caller',
    followers: 'JOIN user_follows fl ON fl.follower_id = u.id AND fl.followee_id = @caller',
  } as const;
  const followPage = {
    follows: followPageQuery('follows'),
    followers: followPageQuery('followers'),
  };
  function followPageQuery(type: FollowListType) {
    return db.prepare<{ caller: number; limit: number; offset: number }, PersonRow & { follow_time: number }>(
      `SELECT ${PERSON_COLUMNS}, fl.created_at AS follow_time FROM ${PERSON_FROM} ${followJoin[type]}
        ORDER BY fl.created_at DESC, u.id DESC LIMIT @limit OFFSET @offset`,
    );
  }

  const userListWhere = `u.user_type = ${UserType.user} AND u.is_visitor = 0 AND ${NOT_BLOCKED_SQL}`;
  const userPage = db.prepare<{ caller: number; status: number; limit: number; offset: number }, PersonRow>(
    `SELECT * FROM (SELECT ${PERSON_COLUMNS} FROM ${PERSON_FROM} WHERE ${userListWhere})
      WHERE ${ONLINE_FILTER_SQL} ORDER BY grp, is_vip DESC, id LIMIT @limit OFFSET @offset`,
  );
  const userCount = db.prepare<{ caller: number; status: number }, number>(
    `SELECT count(*) FROM (SELECT ${PERSON_COLUMNS} FROM ${PERSON_FROM} WHERE ${userListWhere}) WHERE ${ONLINE_FILTER_SQL}`,
  ).pluck();

  /** The app user named by id or IM account; 'no.match.user' (SPEC §8) for anyone else, customer service included. */
  function findTarget(id: number | undefined, accid: string | undefined): Target {
    const found = id !== undefined ? userById.get(id) : userByAccid.get(accid ?? '');
    if (!found) throw refuse(MESSAGE_NO_MATCH_USER);
    return found;
  }

  /** SPEC §4 -4 to the followed person, unless they blocked the follower (the IM refuses them too). */
  function announceFollow(follower: Target, followee: Target, followerCount: number): void {
    if (blocks.get(followee.id, follower.id) === 1) return;
    const content: FollowerAddedNotice = {
      attachType: AttachType.followerAdded,
      userId: follower.id,
      yxAccid: follower.yx_accid,
      nickname: follower.nickname,
      icon: follower.icon,
      followerCount,
    };
    const item = imStore.system(followee.yx_accid, content);
    realtime.im.connectionOf(followee.yx_accid)?.push(item);
  }

  function validNickname(raw: string): string {
    const nickname = raw.trim();
    if (nickname === '') throw refuse(TEXT_NICKNAME_EMPTY);
    if (length(nickname) > NICKNAME_MAX) throw refuse(TEXT_NICKNAME_TOO_LONG);
    if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(nickname)) throw refuse(TEXT_NICKNAME_INVALID);
    return nickname;
  }

  const validUrl = (url: string): string => {
    if (!isAllowedMediaUrl(url, mediaHosts)) throw refuse(TEXT_MEDIA_URL_INVALID);
    return url;
  };

  return {
    getUserDetail(ctx) {
      const caller = requireSession(ctx).userId;
      const target = findTarget(ctx.body.userId, ctx.body.yxAccid);
      const row = person.get({ caller, id: target.id })!;
      const detail: z.input<typeof UserDetail> = {
        ...toPersonSummary(row),
        videoPrice: row.video_price,
        tags: tagsOf([row.id]).get(row.id) ?? [],
        picList: media.all(row.id).map((m) => ({ mediaType: m.media_type, mediaUrl: m.media_url })),
        isBlockUser: blocks.get(caller, row.id) === 1,
        ...follows.counts(row.id),
      };
      return detail;
    },

    checkUserInfo(ctx) {
      const session = requireSession(ctx);
      if (session.userType !== UserType.host) return { complete: true, missing: [] };
      const items = media.all(session.userId);
      const missing: ProfileItem[] = [];
      if (!items.some((m) => m.media_type === 1)) missing.push(ProfileItem.picture);
      if (!items.some((m) => m.media_type === 2)) missing.push(ProfileItem.video);
      return { complete: missing.length === 0, missing };
    },

    followUser(ctx) {
      const caller = requireSession(ctx).userId;
      const target = findTarget(ctx.body.beFollowUserId, ctx.body.beFollowYxAccid);
      if (target.id === caller) throw refuse(TEXT_CANNOT_FOLLOW_SELF);
      if (ctx.body.follow) {
        const isNew = follows.follow(caller, target.id);
        const { followerCount } = follows.counts(target.id);
        if (isNew) announceFollow(userById.get(caller)!, target, followerCount);
        return { userId: target.id, yxAccid: target.yx_accid, followed: true, followerCount };
      }
      follows.unfollow(caller, target.id);
      return { userId: target.id, yxAccid: target.yx_accid, followed: false, followerCount: follows.counts(target.id).followerCount };
    },

    followList(ctx) {
      const caller = requireSession(ctx).userId;
      const { type, currentPage, pageSize } = ctx.body;
      const rows = followPage[type].all({ caller, ...pageWindow(currentPage, pageSize) });
      const counts = follows.counts(caller);
      const list = rows.map((row): z.input<typeof FollowListItem> => ({ ...toPersonSummary(row), followTime: row.follow_time }));
      const total = type === FollowListType.follows ? counts.followingCount : counts.followerCount;
      return { list, total, currentPage, pageSize };
    },

    updateUserInfo(ctx) {
      const caller = requireSession(ctx).userId;
      const { nickname, icon, picList } = ctx.body;
      if (nickname === undefined && icon === undefined && picList === undefined) throw refuse(TEXT_NOTHING_TO_UPDATE);
      const changes: ProfileChanges = {};
      if (nickname !== undefined) changes.nickname = validNickname(nickname);
      if (icon !== undefined) changes.icon = validUrl(icon);
      if (picList !== undefined) {
        if (picList.length > PIC_LIST_MAX) throw refuse(TEXT_PIC_LIST_TOO_LONG);
        changes.picList = picList.map((m) => ({ mediaType: m.mediaType, mediaUrl: validUrl(m.mediaUrl) }));
      }
      users.updateProfile(caller, changes);
      const mine = users.mineInfo(caller, requireSession(ctx).imToken);
      if (!mine) throw new ApiError(ResultCode.authFailed, TEXT_SESSION_EXPIRED);
      return mine;
    },

    anchorGetUserList(ctx) {
      const session = requireSession(ctx);
      if (session.userType !== UserType.host) throw refuse(TEXT_HOSTS_ONLY);
      const { currentPage, pageSize, onlineStatus } = ctx.body;
      const filter = { caller: session.userId, status: onlineStatus ?? OnlineStatusFilter.all };
      const rows = userPage.all({ ...filter, ...pageWindow(currentPage, pageSize) });
      const level = users.findById(session.userId)?.user_level ?? 0;
      return {
        list: rows.map(toPersonSummary),
        total: userCount.get(filter) ?? 0,
        currentPage,
        pageSize,
        canCall: configValue.hostCanCall(level),
      };
    },
  };
}
