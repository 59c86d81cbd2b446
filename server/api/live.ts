/**
 * Handlers of the live lists (src/api/contract/live.ts) over `live_rooms` (migration 4).
 * Nothing writes that table yet, so both lists answer empty pages until going live exists.
 */
import type * as z from 'zod/mini';
import type { live } from '../../src/api/contract';
import type { LiveRoomItem } from '../../src/api/contract/live';
import type { Db } from '../db/database';
import { NOT_BLOCKED_SQL, PERSON_COLUMNS, PERSON_FROM, pageWindow, toPersonSummary, type PersonRow } from './person-summary';
import { requireSession, type HandlersOf } from './transport';

interface RoomRow extends PersonRow {
  agora_channel_id: string;
  yx_room_id: string;
  title: string;
  join_num: number;
  private_call_open: 0 | 1;
  started_at: number;
}

export function liveHandlers({ db }: { db: Db }): HandlersOf<typeof live> {
  const where = (followedOnly: boolean) => `r.state = 0 AND u.id <> @caller AND ${NOT_BLOCKED_SQL}${
    followedOnly ? ' AND EXISTS (SELECT 1 FROM user_follows f2 WHERE f2.follower_id = @caller AND f2.followee_id = u.id)' : ''}`;
  const page = (followedOnly: boolean) => db.prepare<{ caller: number; limit: number; offset: number }, RoomRow>(
    `SELECT ${PERSON_COLUMNS}, r.agora_channel_id, r.yx_room_id, r.title, r.join_num, r.private_call_open, r.started_at
       FROM ${PERSON_FROM} JOIN live_rooms r ON r.user_id = u.id
      WHERE ${where(followedOnly)}
      ORDER BY r.started_at DESC, r.id DESC LIMIT @limit OFFSET @offset`,
  );
  const count = (followedOnly: boolean) => db.prepare<{ caller: number }, number>(
    `SELECT count(*) FROM users u JOIN live_rooms r ON r.user_id = u.id WHERE ${where(followedOnly)}`,
  ).pluck();
  const queries = {
    all: { page: page(false), count: count(false) },
    followed: { page: page(true), count: count(true) },
  };

  const item = (row: RoomRow): z.input<typeof LiveRoomItem> => ({
    ...toPersonSummary(row),
    agoraChannelId: row.agora_channel_id,
    yxRoomId: row.yx_room_id,
    title: row.title,
    joinNum: row.join_num,
    privateCallOpen: row.private_call_open === 1,
    startTime: row.started_at,
  });

  function list(which: keyof typeof queries, caller: number, currentPage: number, pageSize: number) {
    const rows = queries[which].page.all({ caller, ...pageWindow(currentPage, pageSize) });
    return { list: rows.map(item), total: queries[which].count.get({ caller }) ?? 0, currentPage, pageSize };
  }

  return {
    queryLiveList(ctx) {
      return list('all', requireSession(ctx).userId, ctx.body.currentPage, ctx.body.pageSize);
    },
    queryMyFollowLive(ctx) {
      return list('followed', requireSession(ctx).userId, ctx.body.currentPage, ctx.body.pageSize);
    },
  };
}
