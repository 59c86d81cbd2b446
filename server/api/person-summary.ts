/**
 * The person card (src/api/contract/people.ts PersonSummary) as SQL, shared by the home,
 * people and live handlers: one SELECT of the user with country, follow state and the online
 * group of the hub's stored presence, so a list is filtered, ordered and shown by the same
 * status within one statement.
 */
import type * as z from 'zod/mini';
import { PresenceCode } from '../../machines/ports/presence.port';
import { OnlineGroupStatus } from '../../src/api/contract/news';
import { OnlineStatusFilter, type PersonSummary, type TagRef } from '../../src/api/contract/people';
import type { Db } from '../db/database';
import { levelNameOf, type UserType } from '../users/users';

/**
 * SPEC §3 onlineGroupStatus of `user_presence p` (LEFT JOINed), the same mapping as
 * news.ts's onlineGroupStatusOf: foreground and call end online, calling busy, anything else
 * (offline, background, never connected) offline.
 */
export const ONLINE_GROUP_SQL = `CASE
  WHEN p.status IN (${PresenceCode.foreground}, ${PresenceCode.callEnd}) THEN ${OnlineGroupStatus.online}
  WHEN p.status = ${PresenceCode.calling} THEN ${OnlineGroupStatus.busy}
  ELSE ${OnlineGroupStatus.offline} END`;

/** Whether user `u` is live now: a live room of theirs on air (the one-live index answers it). */
export const LIVING_SQL = `EXISTS (SELECT 1 FROM live_rooms lr WHERE lr.user_id = u.id AND lr.state = 0)`;

/** Keeps the rows of `grp` the onlineStatus filter `@status` asks for (OnlineStatusFilter). */
export const ONLINE_FILTER_SQL = `(@status = ${OnlineStatusFilter.all}
  OR (@status = ${OnlineStatusFilter.onlineOrBusy} AND grp IN (${OnlineGroupStatus.online}, ${OnlineGroupStatus.busy}))
  OR (@status = ${OnlineStatusFilter.busy} AND grp = ${OnlineGroupStatus.busy})
  OR (@status = ${OnlineStatusFilter.offline} AND grp = ${OnlineGroupStatus.offline}))`;

export interface PersonRow {
  id: number;
  yx_accid: string;
  nickname: string;
  icon: string;
  user_type: UserType;
  user_level: number;
  age: number | null;
  country_id: number | null;
  country_name: string | null;
  country_code: string | null;
  is_vip: 0 | 1;
  video_price: number;
  followed: 0 | 1;
  grp: OnlineGroupStatus;
  living: 0 | 1;
}

/** The columns of PersonRow; needs `@caller`. Add WHERE (on `u`) and more columns after it. */
export const PERSON_COLUMNS = `u.id, u.yx_accid, u.nickname, u.icon, u.user_type, u.user_level, u.age, u.country_id,
  c.name AS country_name, c.code AS country_code, u.is_vip, coalesce(u.video_price, 0) AS video_price,
  EXISTS (SELECT 1 FROM user_follows f WHERE f.follower_id = @caller AND f.followee_id = u.id) AS followed,
  ${ONLINE_GROUP_SQL} AS grp, ${LIVING_SQL} AS living`;

export const PERSON_FROM = `users u
  LEFT JOIN countries c ON c.id = u.country_id
  LEFT JOIN user_presence p ON p.user_id = u.id`;

/** Leaves out the people `@caller` blocked. */
export const NOT_BLOCKED_SQL = 'NOT EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = @caller AND b.blocked_id = u.id)';

export function toPersonSummary(row: PersonRow): z.input<typeof PersonSummary> {
  return {
    userId: row.id,
    yxAccid: row.yx_accid,
    nickname: row.nickname,
    icon: row.icon,
    userType: row.user_type,
    userLevel: row.user_level,
    levelName: levelNameOf(row.user_level),
    age: row.age,
    countryId: row.country_id,
    countryName: row.country_name,
    countryCode: row.country_code,
    isVip: row.is_vip === 1,
    onlineGroupStatus: row.grp,
    isFollowed: row.followed === 1,
    living: row.living === 1,
  };
}

/** The tags of several people at once, each person's in tag id order. */
export function createTagLookup(db: Db): (userIds: readonly number[]) => Map<number, TagRef[]> {
  const rows = db.prepare<[string], { user_id: number; id: number; name: string }>(
    `SELECT ut.user_id, t.id, t.name FROM user_tags ut JOIN tags t ON t.id = ut.tag_id
      WHERE ut.user_id IN (SELECT value FROM json_each(?)) ORDER BY ut.user_id, t.id`,
  );
  return (userIds) => {
    const out = new Map<number, TagRef[]>();
    if (userIds.length === 0) return out;
    for (const r of rows.all(JSON.stringify(userIds))) {
      const list = out.get(r.user_id) ?? [];
      list.push({ id: r.id, tagName: r.name });
      out.set(r.user_id, list);
    }
    return out;
  };
}

/** LIMIT/OFFSET of a 1-based page. */
export const pageWindow = (currentPage: number, pageSize: number) => ({ limit: pageSize, offset: (currentPage - 1) * pageSize });
