/**
 * Handlers of src/api/contract/live.ts: the live lists over `live_rooms`, going live and
 * ending, the heartbeat, joining and leaving a room, wishlists, stats, the send rank and the
 * live gift task. The rules are in the contract's comment; rooms, deadlines and the hub's
 * chat rooms are the live engine's (live.rooms.ts). Gifts in a room are sent through
 * /api/gift/send (gift.ts).
 */
import type * as z from 'zod/mini';
import { MESSAGE_NO_MATCH_USER, ResultCode } from '../../src/api/codes';
import type { live as liveContract } from '../../src/api/contract';
import { CallStatus } from '../../src/api/contract/call';
import {
  LiveHostStatus, LiveRoomState, SEND_RANK_DEFAULT, TEXT_LIVE_COVER_INVALID, TEXT_LIVE_HOSTS_ONLY, TEXT_LIVE_IN_CALL, TEXT_LIVE_NOT_FOUND,
  TEXT_LIVE_NOT_LIVE, TEXT_SET_WISHLIST_FAILED, LiveEndCause, WhoBlock,
  type HostedLive, type LiveInfo, type LiveRoomItem, type SendRankItem,
} from '../../src/api/contract/live';
import { isAllowedMediaUrl } from '../../src/api/contract/media';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { UserType } from '../users/users';
import type { CallEngine } from './billing';
import type { LiveEngine, LiveRoomRow } from './live.rooms';
import { NOT_BLOCKED_SQL, PERSON_COLUMNS, PERSON_FROM, pageWindow, toPersonSummary, type PersonRow } from './person-summary';
import { ApiError, requireSession, type HandlersOf } from './transport';

export type LiveHandlerRealtimeDeps = Pick<RealtimeHub, 'chatrooms'>;

const refuse = (message: string) => new ApiError(ResultCode.invalidRequest, message);

interface RoomRow extends PersonRow {
  agora_channel_id: string;
  yx_room_id: string;
  title: string;
  join_num: number;
  private_call_open: 0 | 1;
  started_at: number;
}

interface Person {
  id: number;
  user_type: UserType;
  yx_accid: string;
  nickname: string;
  icon: string;
}

interface RankRow {
  id: number;
  yx_accid: string;
  nickname: string;
  icon: string;
  user_level: number;
  is_vip: 0 | 1;
  total: number;
}

export function liveHandlers(
  { db, live, calls, realtime, mediaHosts }: {
    db: Db; live: LiveEngine; calls: CallEngine; realtime: LiveHandlerRealtimeDeps; mediaHosts: readonly string[];
  },
): HandlersOf<typeof liveContract> {
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
  const personById = db.prepare<[number], Person>('SELECT id, user_type, yx_accid, nickname, icon FROM users WHERE id = ?');
  const rank = db.prepare<{ room: number; limit: number }, RankRow>(
    `SELECT u.id, u.yx_accid, u.nickname, u.icon, u.user_level, u.is_vip, s.total
       FROM (SELECT sender_id, sum(value) AS total, max(id) AS last FROM gift_sends WHERE live_room_id = @room GROUP BY sender_id) s
       JOIN users u ON u.id = s.sender_id
      ORDER BY s.total DESC, s.last, u.id LIMIT @limit`,
  );

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

  /** The caller, who must be a host. */
  function requireHost(ctx: Parameters<typeof requireSession>[0]): number {
    const session = requireSession(ctx);
    if (session.userType !== UserType.host) throw refuse(TEXT_LIVE_HOSTS_ONLY);
    return session.userId;
  }

  /** A host by id; 'no.match.user' for anyone else. */
  function hostById(id: number): Person {
    const host = personById.get(id);
    if (!host || host.user_type !== UserType.host) throw refuse(MESSAGE_NO_MATCH_USER);
    return host;
  }

  /** SPEC §3 Live info of `room` as `viewer` sees it. */
  function infoFor(room: LiveRoomRow, viewer: Person): z.input<typeof LiveInfo> {
    const host = personById.get(room.user_id)!;
    let whoBlock: number = WhoBlock.none;
    if (viewer.id !== host.id) {
      if (realtime.chatrooms.isServiceGagged(viewer.yx_accid)) whoBlock |= WhoBlock.service;
      if (realtime.chatrooms.isGagged(room.yx_room_id, viewer.yx_accid)) whoBlock |= WhoBlock.host;
    }
    const hostCall = calls.openCallOf(host.id);
    return {
      userId: host.id,
      yxAccid: host.yx_accid,
      nickname: host.nickname,
      icon: host.icon,
      title: room.title,
      cover: room.cover,
      agoraChannelId: room.agora_channel_id,
      yxRoomId: room.yx_room_id,
      joinNum: room.join_num,
      privateCallOpen: room.private_call_open === 1,
      wishlist: live.wishlist(host.id, room),
      userStatus: hostCall?.status === CallStatus.inProgress ? LiveHostStatus.inCall : LiveHostStatus.inRoom,
      liveRoomState: room.state,
      isBlockUser: whoBlock !== WhoBlock.none,
      whoBlock,
      giftTask: live.giftTask(host.id),
      startTime: room.started_at,
    };
  }

  const hosted = (room: LiveRoomRow): z.input<typeof HostedLive> => ({
    ...infoFor(room, personById.get(room.user_id)!),
    heartbeatIntervalMs: live.heartbeatIntervalMs,
    heartbeatWindowMs: live.heartbeatWindowMs,
  });

  return {
    queryLiveList(ctx) {
      return list('all', requireSession(ctx).userId, ctx.body.currentPage, ctx.body.pageSize);
    },
    queryMyFollowLive(ctx) {
      return list('followed', requireSession(ctx).userId, ctx.body.currentPage, ctx.body.pageSize);
    },

    checkLiveBroadcastPermission(ctx) {
      const me = requireHost(ctx);
      return { allowed: true, living: live.liveOf(me) !== undefined };
    },

    beginLiveRoom(ctx) {
      const me = requireHost(ctx);
      const { title, cover, privateCallOpen } = ctx.body;
      if (cover !== undefined && cover !== '' && !isAllowedMediaUrl(cover, mediaHosts)) throw refuse(TEXT_LIVE_COVER_INVALID);
      // A private call from the live room keeps the room; any other call comes first.
      if (!live.liveOf(me) && calls.openCallOf(me)) throw refuse(TEXT_LIVE_IN_CALL);
      return hosted(live.begin(me, { title, cover: cover || null, privateCallOpen }));
    },

    endLiveRoom(ctx) {
      const me = requireHost(ctx);
      const room = live.liveOf(me);
      if (room) live.end(room, LiveEndCause.host);
      const last = live.latestOf(me);
      if (!last) throw refuse(TEXT_LIVE_NOT_LIVE);
      return live.stat(last);
    },

    getMyLiveRoomV2(ctx) {
      const room = live.liveOf(requireSession(ctx).userId);
      return room ? hosted(room) : null;
    },

    updatePrivateCall(ctx) {
      const room = live.liveOf(requireHost(ctx));
      if (!room || !live.setPrivateCall(room, ctx.body.privateCallOpen)) throw refuse(TEXT_LIVE_NOT_LIVE);
      return { privateCallOpen: ctx.body.privateCallOpen };
    },

    getAnchorWishlist(ctx) {
      const hostId = ctx.body.searchValue ?? requireHost(ctx);
      hostById(hostId);
      return live.wishlist(hostId, live.liveOf(hostId));
    },

    setAnchorWishlist(ctx) {
      const me = requireHost(ctx);
      if (!live.setWishlist(me, ctx.body.wishlist)) throw refuse(TEXT_SET_WISHLIST_FAILED);
      return live.wishlist(me, live.liveOf(me));
    },

    queryLiveStat(ctx) {
      const me = requireHost(ctx);
      const { agoraChannelId } = ctx.body;
      if (agoraChannelId === undefined) {
        // Never live: nothing to show, which is no error.
        const latest = live.latestOf(me);
        return latest ? live.stat(latest) : null;
      }
      const room = live.byChannel(agoraChannelId);
      if (!room || room.user_id !== me) throw refuse(TEXT_LIVE_NOT_FOUND);
      return live.stat(room);
    },

    getRoomAndJoinRoom(ctx) {
      const viewer = personById.get(requireSession(ctx).userId)!;
      let room = live.latestOf(ctx.body.searchValue);
      if (!room) throw refuse(TEXT_LIVE_NOT_FOUND);
      if (room.state === LiveRoomState.live && viewer.id !== room.user_id && live.join(room, viewer.id)) room = live.liveOf(room.user_id) ?? room;
      return infoFor(room, viewer);
    },

    leaveLiveRoom(ctx) {
      const me = requireSession(ctx).userId;
      const room = live.liveOf(ctx.body.searchValue);
      return { left: room !== undefined && live.leave(room, me) };
    },

    liveHeartBeatV2(ctx) {
      const beat = live.beat(requireHost(ctx), ctx.body.yxRoomId);
      return { ...beat, heartbeatIntervalMs: live.heartbeatIntervalMs, heartbeatWindowMs: live.heartbeatWindowMs };
    },

    sendRank(ctx) {
      requireSession(ctx);
      const room = live.latestOf(ctx.body.searchValue);
      if (!room) return [];
      return rank.all({ room: room.id, limit: ctx.body.limit ?? SEND_RANK_DEFAULT }).map((r, k): z.input<typeof SendRankItem> => ({
        rank: k + 1, userId: r.id, yxAccid: r.yx_accid, nickname: r.nickname, icon: r.icon, userLevel: r.user_level,
        isVip: r.is_vip === 1, total: r.total,
      }));
    },

    liveGiftTask(ctx) {
      const hostId = ctx.body.searchValue ?? requireHost(ctx);
      hostById(hostId);
      return live.giftTask(hostId);
    },
  };
}
