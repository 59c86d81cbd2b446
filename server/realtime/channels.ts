/**
 * Who a channel belongs to, read from the database: the hub's WebRTC relay (rtc.ts) admits a
 * member, and its signalling (signal.ts) relays a signal, only where the two belong.
 *
 * - A call's channel is `calls.channel_id` (createCall made it): its parties are its caller
 *   and callee; it is open while ringing (1) or in progress (3).
 * - A live channel is `live_rooms.agora_channel_id` (beginLiveRoom made it): its host is the
 *   room's user; it is live while the room's state is 0.
 *
 * Read at each join or signal (one indexed row each), so an ended call or live admits no one
 * from the moment it ends, without the hub being told.
 */
import { CallStatus } from '../../src/api/contract/call';
import { LiveRoomState } from '../../src/api/contract/live';
import type { Db } from '../db/database';

export interface CallChannel {
  /** The IM accounts (yxAccid) of the caller and the callee. */
  parties: readonly [string, string];
  /** Ringing or in progress. */
  open: boolean;
}

export interface LiveChannel {
  /** The IM account (yxAccid) of the room's host. */
  host: string;
  /** The room has not ended. */
  live: boolean;
}

export interface ChannelLookup {
  /** The call whose channel this is, if any. */
  call(channelId: string): CallChannel | undefined;
  /** The live room whose channel this is, if any. */
  live(channelId: string): LiveChannel | undefined;
}

export function createChannelLookup(db: Db): ChannelLookup {
  const call = db.prepare<[string], { caller: string; callee: string; status: number }>(
    `SELECT a.yx_accid AS caller, b.yx_accid AS callee, c.status
       FROM calls c JOIN users a ON a.id = c.caller_id JOIN users b ON b.id = c.callee_id
      WHERE c.channel_id = ?`,
  );
  const live = db.prepare<[string], { host: string; state: number }>(
    'SELECT u.yx_accid AS host, r.state FROM live_rooms r JOIN users u ON u.id = r.user_id WHERE r.agora_channel_id = ?',
  );
  return {
    call(channelId) {
      const row = call.get(channelId);
      if (!row) return undefined;
      return { parties: [row.caller, row.callee], open: row.status === CallStatus.calling || row.status === CallStatus.inProgress };
    },
    live(channelId) {
      const row = live.get(channelId);
      return row && { host: row.host, live: row.state === LiveRoomState.live };
    },
  };
}
