/**
 * The live-room engine of the reference server: rooms going live and ending, the host's
 * heartbeat deadline, viewers, wishlists, the live gift task and the service's gags. The rules
 * are written down in src/api/contract/live.ts; the handlers (live.ts, and gift.ts for live
 * gifts) validate requests and call into it.
 *
 * Every end goes through `end`: one UPDATE that only a live room passes (so a room ends once,
 * whoever asks), then, after the commit, the hub chat room closes and, for an end the host did
 * not ask for, the host gets system message 44 when the host's IM is connected (a stored 44
 * replayed at a later login could end the host's next live).
 *
 * Time: each live room has one timer, set to its absolute deadline (last beat + window); a
 * beat moves it. Nothing here holds state that the database does not: on start the live rooms'
 * chat rooms are opened again with the host's gags and their deadlines set (a room whose
 * deadline passed while the server was down ends at once), and the service gags are handed to
 * the hub again. A host's gag or ungag in a chat room is written down as it happens.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { AttachType } from '../../machines/system-messages/system-messages';
import {
  LIVE_FORCED_END_CODE, LIVE_GIFT_TASK_DEFAULT, LIVE_GIFT_TASK_KEY, LIVE_HEARTBEAT_WINDOW_MS, LiveEndCause,
  LiveRoomState, WISH_GIFT_NUM_MAX, WISHLIST_MAX, heartbeatIntervalFor,
  type LiveBoostNotice, type LiveForcedEndNotice, type LiveGiftAttach, type LivePrivateCallAttach, type LiveGiftTask, type LiveStat, type LiveWish,
} from '../../src/api/contract/live';
import { appConfig } from '../db/app-config';
import type { Db } from '../db/database';
import type { RealtimeHub } from '../realtime/hub';
import { createImStore } from '../realtime/im.store';
import { createWallets } from '../users/users';
import { giftIconUrl, type GiftPicture } from '../web/gifts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live-room engine (server/api/live.rooms.ts); tests and the dev shell reach it here. */
    live: LiveEngine;
  }
}

export interface LiveOptions {
  /** A room whose host has not beaten for this long ends; default LIVE_HEARTBEAT_WINDOW_MS. */
  heartbeatWindowMs?: number;
}

export type LiveRealtimeDeps = Pick<RealtimeHub, 'im' | 'chatrooms'>;

/** The wallet flow reason of the gift task's reward (wallet_flows.reason). */
export const LIVE_TASK_FLOW_REASON = 'live.giftTask';

export interface LiveRoomRow {
  id: number;
  user_id: number;
  agora_channel_id: string;
  yx_room_id: string;
  title: string;
  cover: string | null;
  state: 0 | 1;
  join_num: number;
  private_call_open: 0 | 1;
  started_at: number;
  ended_at: number | null;
  last_heartbeat_at: number | null;
  end_cause: LiveEndCause | null;
  host_accid: string;
}

export interface LiveSetting {
  title: string;
  cover: string | null;
  privateCallOpen: boolean;
}

interface WishRow {
  gift_id: number;
  gift_num: number;
  received: number;
  name: string;
  price: number;
  img_key: GiftPicture;
}

/** The sender and gift of a live gift, as the chat room shows them (SPEC §3 Live chat record). */
export interface LiveGiftPost {
  sender: { yx_accid: string; nickname: string; is_vip: 0 | 1; is_new_user: 0 | 1; user_level: number };
  gift: { id: number; name: string; price: number; img_key: GiftPicture };
  num: number;
  sendId: number;
}

const DAY_MS = 86_400_000;
const dayOf = (time: number) => Math.floor(time / DAY_MS) * DAY_MS;
const newId = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;

export type LiveEngine = ReturnType<typeof createLiveEngine>;

export function createLiveEngine(
  { db, realtime, log }: { db: Db; realtime: LiveRealtimeDeps; log?: FastifyBaseLogger },
  options: LiveOptions = {},
) {
  const heartbeatWindowMs = options.heartbeatWindowMs ?? LIVE_HEARTBEAT_WINDOW_MS;
  if (!Number.isSafeInteger(heartbeatWindowMs) || heartbeatWindowMs <= 0) {
    throw new RangeError(`live.heartbeatWindowMs must be a positive integer of ms, not ${heartbeatWindowMs}.`);
  }
  const heartbeatIntervalMs = heartbeatIntervalFor(heartbeatWindowMs);
  const wallets = createWallets(db);
  const imStore = createImStore(db);

  const ROOM_SELECT = 'SELECT r.*, u.yx_accid AS host_accid FROM live_rooms r JOIN users u ON u.id = r.user_id';
  const config = appConfig(db);
  const q = {
    byId: db.prepare<[number], LiveRoomRow>(`${ROOM_SELECT} WHERE r.id = ?`),
    liveOf: db.prepare<[number], LiveRoomRow>(`${ROOM_SELECT} WHERE r.user_id = ? AND r.state = 0`),
    latestOf: db.prepare<[number], LiveRoomRow>(`${ROOM_SELECT} WHERE r.user_id = ? ORDER BY r.state, r.started_at DESC, r.id DESC LIMIT 1`),
    byChannel: db.prepare<[string], LiveRoomRow>(`${ROOM_SELECT} WHERE r.agora_channel_id = ?`),
    liveByYxRoom: db.prepare<[string], LiveRoomRow>(`${ROOM_SELECT} WHERE r.yx_room_id = ? AND r.state = 0`),
    allLive: db.prepare<[], LiveRoomRow>(`${ROOM_SELECT} WHERE r.state = 0 ORDER BY r.id`),
    insert: db.prepare<{ user: number; channel: string; room: string; title: string; cover: string | null; open: number; time: number }>(
      `INSERT INTO live_rooms (user_id, agora_channel_id, yx_room_id, title, cover, state, join_num, private_call_open, started_at, last_heartbeat_at)
       VALUES (@user, @channel, @room, @title, @cover, 0, 0, @open, @time, @time)`,
    ),
    resume: db.prepare<{ id: number; title: string; cover: string | null; open: number; time: number }>(
      'UPDATE live_rooms SET title = @title, cover = @cover, private_call_open = @open, last_heartbeat_at = @time WHERE id = @id AND state = 0',
    ),
    beat: db.prepare<{ id: number; time: number }>('UPDATE live_rooms SET last_heartbeat_at = @time WHERE id = @id AND state = 0'),
    privateCall: db.prepare<{ id: number; open: number }>('UPDATE live_rooms SET private_call_open = @open WHERE id = @id AND state = 0'),
    end: db.prepare<{ id: number; time: number; cause: string }>(
      'UPDATE live_rooms SET state = 1, ended_at = @time, end_cause = @cause WHERE id = @id AND state = 0',
    ),
    viewersGone: db.prepare<[number]>('UPDATE live_room_viewers SET present = 0 WHERE room_id = ?'),
    viewer: db.prepare<[number, number], { present: 0 | 1 }>('SELECT present FROM live_room_viewers WHERE room_id = ? AND user_id = ?'),
    addViewer: db.prepare<{ room: number; user: number; time: number }>(
      `INSERT INTO live_room_viewers (room_id, user_id, first_joined_at, last_joined_at) VALUES (@room, @user, @time, @time)
       ON CONFLICT (room_id, user_id) DO UPDATE SET present = 1, joins = joins + 1, last_joined_at = @time`,
    ),
    countJoin: db.prepare<[number]>('UPDATE live_rooms SET join_num = join_num + 1 WHERE id = ?'),
    leave: db.prepare<[number, number]>('UPDATE live_room_viewers SET present = 0 WHERE room_id = ? AND user_id = ? AND present = 1'),
    stat: db.prepare<{ id: number }, { viewers: number; gifts: number; income: number }>(
      `SELECT (SELECT count(*) FROM live_room_viewers WHERE room_id = @id) AS viewers,
              coalesce((SELECT sum(gift_num) FROM gift_sends WHERE live_room_id = @id), 0) AS gifts,
              coalesce((SELECT sum(value) FROM gift_sends WHERE live_room_id = @id), 0) AS income`,
    ),
    wishes: db.prepare<{ host: number; room: number | null }, WishRow>(
      `SELECT w.gift_id, w.gift_num, g.name, g.price, g.img_key,
              coalesce((SELECT sum(s.gift_num) FROM gift_sends s WHERE s.live_room_id = @room AND s.gift_id = w.gift_id), 0) AS received
         FROM host_wishlists w JOIN gifts g ON g.id = w.gift_id
        WHERE w.host_id = @host ORDER BY w.sort`,
    ),
    clearWishes: db.prepare<[number]>('DELETE FROM host_wishlists WHERE host_id = ?'),
    addWish: db.prepare<[number, number, number, number]>('INSERT INTO host_wishlists (host_id, sort, gift_id, gift_num) VALUES (?, ?, ?, ?)'),
    giftExists: db.prepare<[number], 1>('SELECT 1 FROM gifts WHERE id = ? AND enabled = 1').pluck(),

    taskDone: db.prepare<{ host: number; from: number; to: number }, number>(
      `SELECT coalesce(sum(value), 0) FROM gift_sends
        WHERE host_id = @host AND live_room_id IS NOT NULL AND created_at >= @from AND created_at < @to`,
    ).pluck(),
    payTask: db.prepare<{ host: number; day: number; target: number; reward: number; time: number }>(
      `INSERT INTO live_gift_task_rewards (host_id, day, target, reward, paid_at) VALUES (@host, @day, @target, @reward, @time)
       ON CONFLICT DO NOTHING`,
    ),
    serviceGags: db.prepare<[], string>('SELECT u.yx_accid FROM live_service_gags g JOIN users u ON u.id = g.user_id').pluck(),
    addServiceGag: db.prepare<[number, number]>('INSERT INTO live_service_gags (user_id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING'),
    removeServiceGag: db.prepare<[number]>('DELETE FROM live_service_gags WHERE user_id = ?'),
    accidOf: db.prepare<[number], string>('SELECT yx_accid FROM users WHERE id = ?').pluck(),
    idOfAccid: db.prepare<[string], number>('SELECT id FROM users WHERE yx_accid = ?').pluck(),
    roomGags: db.prepare<[number], string>(
      'SELECT u.yx_accid FROM live_room_gags g JOIN users u ON u.id = g.user_id WHERE g.live_room_id = ? ORDER BY g.created_at',
    ).pluck(),
    addRoomGag: db.prepare<[number, number, number]>(
      'INSERT INTO live_room_gags (live_room_id, user_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
    ),
    removeRoomGag: db.prepare<[number, number]>('DELETE FROM live_room_gags WHERE live_room_id = ? AND user_id = ?'),
    clearRoomGags: db.prepare<[number]>('DELETE FROM live_room_gags WHERE live_room_id = ?'),
  };

  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  let stopped = false;

  const deadlineOf = (room: LiveRoomRow) => (room.last_heartbeat_at ?? room.started_at) + heartbeatWindowMs;

  function clearTimer(id: number): void {
    clearTimeout(timers.get(id));
    timers.delete(id);
  }

  function schedule(room: LiveRoomRow): void {
    clearTimer(room.id);
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(room.id);
      if (stopped) return;
      try {
        expire(room.id);
      } catch (err) {
        log?.error({ err, roomId: room.id }, 'live heartbeat timer failed');
      }
    }, Math.max(0, deadlineOf(room) - Date.now()));
    timer.unref();
    timers.set(room.id, timer);
  }

  /** The room's deadline came: it ends unless a beat moved the deadline since. */
  function expire(id: number): void {
    const room = q.byId.get(id);
    if (!room || room.state !== LiveRoomState.live) return;
    if (Date.now() >= deadlineOf(room)) end(room, LiveEndCause.heartbeat);
    else schedule(room);
  }

  const endTx = db.transaction((room: LiveRoomRow, cause: LiveEndCause, time: number): boolean => {
    if (q.end.run({ id: room.id, time, cause }).changes === 0) return false;
    q.viewersGone.run(room.id);
    q.clearRoomGags.run(room.id);
    return true;
  });

  /** Ends a live room (false when it was not live); see the file comment. */
  function end(room: LiveRoomRow, cause: LiveEndCause): boolean {
    if (!endTx(room, cause, Date.now())) return false;
    clearTimer(room.id);
    realtime.chatrooms.close(room.yx_room_id);
    if (cause !== LiveEndCause.host) {
      const connection = realtime.im.connectionOf(room.host_accid);
      if (connection) {
        const notice: LiveForcedEndNotice = {
          attachType: AttachType.liveForcedEnd, code: LIVE_FORCED_END_CODE,
          agoraChannelId: room.agora_channel_id, yxRoomId: room.yx_room_id, endCause: cause,
        };
        connection.push(imStore.system(room.host_accid, notice));
      }
    }
    return true;
  }

  const beginTx = db.transaction((hostId: number, setting: LiveSetting, time: number): LiveRoomRow => {
    const live = q.liveOf.get(hostId);
    const fields = { title: setting.title, cover: setting.cover, open: setting.privateCallOpen ? 1 : 0, time };
    if (live) {
      q.resume.run({ id: live.id, ...fields });
      return q.byId.get(live.id)!;
    }
    const id = Number(q.insert.run({ user: hostId, channel: newId('live_'), room: newId('room_'), ...fields }).lastInsertRowid);
    return q.byId.get(id)!;
  });

  const joinTx = db.transaction((room: LiveRoomRow, userId: number, time: number): boolean => {
    if (q.viewer.get(room.id, userId)?.present === 1) return false;
    q.addViewer.run({ room: room.id, user: userId, time });
    q.countJoin.run(room.id);
    return true;
  });

  const setWishlistTx = db.transaction((hostId: number, wishes: readonly { giftId: number; giftNum: number }[]) => {
    q.clearWishes.run(hostId);
    wishes.forEach((w, k) => q.addWish.run(hostId, k + 1, w.giftId, w.giftNum));
  });

  function taskConfig(): { target: number; reward: number } {
    try {
      const raw = JSON.parse(config.get(LIVE_GIFT_TASK_KEY) ?? 'null') as { target?: unknown; reward?: unknown } | null;
      const target = Number(raw?.target);
      const reward = Number(raw?.reward);
      if (Number.isSafeInteger(target) && target > 0 && Number.isSafeInteger(reward) && reward >= 0) return { target, reward };
    } catch {
      // An unreadable value: the default task.
    }
    return { ...LIVE_GIFT_TASK_DEFAULT };
  }

  /** Opens the chat rooms and sets the deadlines of the rooms a previous run left live. */
  function resume(): void {
    for (const account of q.serviceGags.all()) realtime.chatrooms.setServiceGagged(account, true);
    for (const room of q.allLive.all()) {
      if (Date.now() >= deadlineOf(room)) {
        end(room, LiveEndCause.heartbeat);
        continue;
      }
      realtime.chatrooms.open(room.yx_room_id, room.host_accid, q.roomGags.all(room.id));
      schedule(room);
    }
  }

  /** A host's gag or ungag in the chat room of a live room is kept with the room. */
  function keepGag(yxRoomId: string, account: string, gagged: boolean): void {
    const room = q.liveByYxRoom.get(yxRoomId);
    const userId = q.idOfAccid.get(account);
    if (!room || userId === undefined) return;
    if (gagged) q.addRoomGag.run(room.id, userId, Date.now());
    else q.removeRoomGag.run(room.id, userId);
  }

  const stopKeepingGags = realtime.chatrooms.onGag((roomId, account, gagged) => {
    try {
      keepGag(roomId, account, gagged);
    } catch (err) {
      log?.error({ err, roomId }, 'keeping a host gag failed');
    }
  });
  resume();

  return {
    heartbeatWindowMs,
    heartbeatIntervalMs,

    byChannel: (agoraChannelId: string): LiveRoomRow | undefined => q.byChannel.get(agoraChannelId),
    /** The host's room that is live now. */
    liveOf: (hostId: number): LiveRoomRow | undefined => q.liveOf.get(hostId),
    /** The host's room that is live now, else the latest one. */
    latestOf: (hostId: number): LiveRoomRow | undefined => q.latestOf.get(hostId),
    /** The live room with this chat room. */
    liveByYxRoom: (yxRoomId: string): LiveRoomRow | undefined => q.liveByYxRoom.get(yxRoomId),

    /** Opens the host's room, or takes these settings for the one live now; its chat room opens and its deadline is set. */
    begin(hostId: number, setting: LiveSetting): LiveRoomRow {
      const room = beginTx(hostId, setting, Date.now());
      realtime.chatrooms.open(room.yx_room_id, room.host_accid);
      schedule(room);
      return room;
    },

    /** The host's beat: moves the deadline; `ended` when the room (the given one, or any) is not live. */
    beat(hostId: number, yxRoomId: string | undefined): { ended: boolean } {
      const room = q.liveOf.get(hostId);
      if (!room || (yxRoomId !== undefined && room.yx_room_id !== yxRoomId)) return { ended: true };
      q.beat.run({ id: room.id, time: Date.now() });
      schedule(q.byId.get(room.id)!);
      return { ended: false };
    },

    /** The switch, and the room's viewers told (a notice in the chat from the host); false when not live. */
    setPrivateCall(room: LiveRoomRow, open: boolean): boolean {
      if (q.privateCall.run({ id: room.id, open: open ? 1 : 0 }).changes !== 1) return false;
      const attach: LivePrivateCallAttach = { privateCallOpen: open };
      realtime.chatrooms.post(room.yx_room_id, { from: room.host_accid, fromNick: '', attach });
      return true;
    },

    /** Ends the room; false when it was not live. */
    end,

    /** Ends the host's live room for the service (SPEC §4 44); false when the host was not live. */
    forceEnd(hostId: number): boolean {
      const room = q.liveOf.get(hostId);
      return room !== undefined && end(room, LiveEndCause.service);
    },

    /** A viewer's join: true when it counted (a new visit). */
    join: (room: LiveRoomRow, userId: number): boolean => joinTx(room, userId, Date.now()),
    /** A viewer's leave: true when a visit ended. */
    leave: (room: LiveRoomRow, userId: number): boolean => q.leave.run(room.id, userId).changes === 1,

    stat(room: LiveRoomRow): LiveStat {
      const { viewers, gifts, income } = q.stat.get({ id: room.id })!;
      const endTime = room.ended_at;
      return {
        agoraChannelId: room.agora_channel_id,
        yxRoomId: room.yx_room_id,
        liveRoomState: room.state,
        startTime: room.started_at,
        endTime,
        durationSec: Math.max(0, Math.floor(((endTime ?? Date.now()) - room.started_at) / 1000)),
        viewers,
        gifts,
        income,
        endCause: room.end_cause,
      };
    },

    /** The host's wishlist, with the progress of `room` (none without one). */
    wishlist(hostId: number, room: LiveRoomRow | undefined): LiveWish[] {
      return q.wishes.all({ host: hostId, room: room?.id ?? null }).map((w) => {
        const done = Math.min(w.received, w.gift_num);
        return {
          giftId: w.gift_id, giftNum: w.gift_num, compelteGiftNum: done, ratio: done / w.gift_num, completed: done >= w.gift_num,
          giftName: w.name, giftImg: giftIconUrl(w.img_key), giftPrice: w.price,
        };
      });
    },

    /** Replaces the host's wishlist; false (nothing changed) unless it is valid (see the contract). */
    setWishlist(hostId: number, wishes: readonly { giftId: number; giftNum: number }[]): boolean {
      const ids = new Set(wishes.map((w) => w.giftId));
      const valid = wishes.length <= WISHLIST_MAX && ids.size === wishes.length && wishes.every((w) =>
        Number.isSafeInteger(w.giftId) && w.giftId > 0 && q.giftExists.get(w.giftId) === 1
        && Number.isInteger(w.giftNum) && w.giftNum >= 1 && w.giftNum <= WISH_GIFT_NUM_MAX);
      if (valid) setWishlistTx(hostId, wishes);
      return valid;
    },

    giftTask(hostId: number, time = Date.now()): LiveGiftTask {
      const { target, reward } = taskConfig();
      const day = dayOf(time);
      const done = q.taskDone.get({ host: hostId, from: day, to: day + DAY_MS }) ?? 0;
      return { target, done, reward, completed: done >= target };
    },

    /**
     * Inside the transaction of a live gift, after its gift_sends row: pays the day's reward
     * when the gifts reached the target and it was not paid yet (the rewards' key admits one).
     */
    payGiftTask(hostId: number, time: number): void {
      const { target, reward } = taskConfig();
      const day = dayOf(time);
      const done = q.taskDone.get({ host: hostId, from: day, to: day + DAY_MS }) ?? 0;
      if (done < target || reward <= 0) return;
      if (q.payTask.run({ host: hostId, day, target, reward, time }).changes === 1) {
        wallets.earn(hostId, 'income', reward, LIVE_TASK_FLOW_REASON, null);
      }
    },

    /** After a live gift's commit: the gift into the room's chat, from the sender. */
    postGift(room: LiveRoomRow, { sender, gift, num, sendId }: LiveGiftPost): void {
      const attach: LiveGiftAttach = {
        giftId: gift.id, giftName: gift.name, giftImg: giftIconUrl(gift.img_key), giftNum: num, giftPrice: gift.price, sendId,
        isVip: sender.is_vip === 1, isNewUser: sender.is_new_user === 1, userLevel: sender.user_level,
      };
      realtime.chatrooms.post(room.yx_room_id, { from: sender.yx_accid, fromNick: sender.nickname, attach });
    },

    /** SPEC §4 63 / 64 to the host (stored, and pushed when connected). */
    boost(hostId: number, on: boolean): LiveBoostNotice | undefined {
      const accid = q.accidOf.get(hostId);
      if (accid === undefined) return undefined;
      const room = q.liveOf.get(hostId);
      const notice: LiveBoostNotice = {
        attachType: on ? AttachType.boostingOn : AttachType.boostingOff,
        ...(room ? { agoraChannelId: room.agora_channel_id } : {}),
      };
      const item = imStore.system(accid, notice);
      realtime.im.connectionOf(accid)?.push(item);
      return notice;
    },

    /** Gags (or ungags) a person in every live room for the service (whoBlock 1). */
    setServiceGag(userId: number, gagged: boolean): boolean {
      const accid = q.accidOf.get(userId);
      if (accid === undefined) return false;
      if (gagged) q.addServiceGag.run(userId, Date.now());
      else q.removeServiceGag.run(userId);
      realtime.chatrooms.setServiceGagged(accid, gagged);
      return true;
    },

    /** Live rooms with a deadline timer (tests). */
    timerCount: () => timers.size,

    /** The server is stopping: no deadline runs from now on; live rooms stay live for the next start. */
    stop(): void {
      stopped = true;
      stopKeepingGags();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
