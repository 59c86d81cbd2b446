/**
 * Handlers of the News area's lookups (src/api/contract/news.ts): the mail list (system
 * mail to the caller and station messages to everyone) and the batch profile/online
 * lookups of chat sessions. Online status is the hub's presence (the stored last code of
 * SPEC §4), mapped onto SPEC §3's onlineGroupStatus in `onlineGroupStatusOf`.
 */
import { ResultCode } from '../../src/api/codes';
import type { news } from '../../src/api/contract';
import { MAX_BATCH_IDS, OnlineGroupStatus, TEXT_TOO_MANY_IDS, type MailType, type YxStat } from '../../src/api/contract/news';
import { PresenceCode } from '../../machines/ports/presence.port';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import type { PresenceState } from '../realtime/presence';
import type { UserType } from '../users/users';
import { LIVING_SQL } from './person-summary';
import { ApiError, requireSession, type HandlersOf } from './transport';

export type NewsRealtimeDeps = Pick<RealtimeHub, 'presence'>;

/** SPEC §4 presence code → SPEC §3 onlineGroupStatus; never connected is offline (the default 3). */
export function onlineGroupStatusOf(presence: PresenceState | undefined): OnlineGroupStatus {
  switch (presence?.status) {
    case PresenceCode.foreground:
    case PresenceCode.callEnd:
      return OnlineGroupStatus.online;
    case PresenceCode.calling:
      return OnlineGroupStatus.busy;
    // Background: the app is hidden and its IM is disconnected (SPEC §4 Message service), so it cannot answer.
    default:
      return OnlineGroupStatus.offline;
  }
}

interface MailRow {
  id: number;
  mail_type: MailType;
  title: string;
  content: string;
  created_at: number;
}

interface StatRow {
  id: number;
  yx_accid: string;
  nickname: string;
  icon: string;
  user_type: UserType;
  user_level: number;
  is_vip: 0 | 1;
  blocked: 0 | 1;
  living: 0 | 1;
}

export function newsHandlers({ db, realtime }: { db: Db; realtime: NewsRealtimeDeps }): HandlersOf<typeof news> {
  // `@type` NULL means both kinds; `user_id IS NULL` rows are addressed to everyone.
  const visible = `(user_id = @userId OR user_id IS NULL) AND (@type IS NULL OR mail_type = @type)`;
  const mailPage = db.prepare<{ userId: number; type: MailType | null; limit: number; offset: number }, MailRow>(
    `SELECT id, mail_type, title, content, created_at FROM sys_mail WHERE ${visible}
      ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
  );
  const mailCount = db.prepare<{ userId: number; type: MailType | null }, number>(
    `SELECT count(*) FROM sys_mail WHERE ${visible}`,
  ).pluck();

  // The ids travel as one JSON array parameter, so a batch is one statement whatever its size.
  const statSql = (key: 'id' | 'yx_accid') =>
    `SELECT u.id, u.yx_accid, u.nickname, u.icon, u.user_type, u.user_level, u.is_vip,
            EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = @caller AND b.blocked_id = u.id) AS blocked,
            ${LIVING_SQL} AS living
       FROM users u WHERE u.${key} IN (SELECT value FROM json_each(@ids))`;
  const statsByAccid = db.prepare<{ caller: number; ids: string }, StatRow>(statSql('yx_accid'));
  const statsById = db.prepare<{ caller: number; ids: string }, StatRow>(statSql('id'));

  const toStat = (row: StatRow): YxStat => ({
    userId: row.id,
    yxAccid: row.yx_accid,
    onlineGroupStatus: onlineGroupStatusOf(realtime.presence.statusOf(row.id)),
    nickname: row.nickname,
    icon: row.icon,
    userType: row.user_type,
    userLevel: row.user_level,
    isVip: row.is_vip === 1,
    isBlockUser: row.blocked === 1,
    living: row.living === 1,
  });

  function lookup<K extends string | number>(ids: readonly K[], caller: number, by: 'accid' | 'id'): Record<string, YxStat> {
    if (ids.length > MAX_BATCH_IDS) throw new ApiError(ResultCode.invalidRequest, TEXT_TOO_MANY_IDS);
    const params = { caller, ids: JSON.stringify([...new Set(ids)]) };
    const rows = by === 'accid' ? statsByAccid.all(params) : statsById.all(params);
    return Object.fromEntries(rows.map((row) => [by === 'accid' ? row.yx_accid : String(row.id), toStat(row)]));
  }

  return {
    loadList(ctx) {
      const { currentPage, pageSize, mailType } = ctx.body;
      const who = { userId: requireSession(ctx).userId, type: mailType ?? null };
      const rows = mailPage.all({ ...who, limit: pageSize, offset: (currentPage - 1) * pageSize });
      return {
        list: rows.map((r) => ({ id: r.id, mailType: r.mail_type, title: r.title, content: r.content, createTime: r.created_at })),
        total: mailCount.get(who) ?? 0,
        currentPage,
        pageSize,
      };
    },

    batchQueryYxStat(ctx) {
      return lookup(ctx.body.yxAccids, requireSession(ctx).userId, 'accid');
    },

    batchQueryYxStatByUid(ctx) {
      return lookup(ctx.body.userIds, requireSession(ctx).userId, 'id');
    },
  };
}
