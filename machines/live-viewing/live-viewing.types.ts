/**
 * Watching a live room: the codes, texts and shapes (SPEC §3 Live info, §4 Live state: the
 * viewing front status), declared once for the machine, its screens and tests.
 */
import type { ChatroomEntry } from '../ports/chatroom.port';
import type { LiveMediaEvent, LiveRoom } from '../ports/live.port';
import { LiveHostStatus, LiveRoomState } from '../ports/live.port';
import { whoBlockOf, wishlistOf } from '../live-chat/live-chat.types';

export { LiveHostStatus, LiveRoomState };

/** SPEC §4 Live state: the viewing front status. */
export const LiveFrontStatus = { loading: 1, live: 2, liveEnd: 3, calling: 5 } as const;
export type LiveFrontStatus = (typeof LiveFrontStatus)[keyof typeof LiveFrontStatus];

export const TEXT_JOIN_FAILED = 'Could not enter this live room. Please try again.';
export const TEXT_PRIVATE_CALL_CLOSED = 'The host is not taking private calls right now.';

export interface LiveViewingInput {
  /** The host whose room is watched. */
  hostUserId: number;
  /** How this viewer enters the chat room (IM account and token, nick, avatar, ext: isVip, isNewUser, userLevel). */
  entry: ChatroomEntry;
}

export interface LiveViewingContext extends LiveViewingInput {
  /** The room as the join answered it (made safe), once joined. */
  room: LiveRoom | null;
  /** Why joining failed, or what the viewer was last told. */
  notice: string | null;
}

/** The host, as a private call from the room calls them (the session's `call.start`). */
export interface LiveCallPeer {
  account: string;
  userId: number;
  nickname: string;
  icon?: string;
}

export type LiveViewingEvent =
  | { type: 'live.leave' }
  | { type: 'live.retry' }
  /** Try the video again after the media link was lost. */
  | { type: 'video.retry' }
  /** SPEC §2 /liveRoom: a viewer starts a private call with the host (when privateCallOpen); `online` as the device says now. */
  | { type: 'live.privateCall'; online: boolean }
  | { type: 'media.event'; event: LiveMediaEvent }
  /** The host switched private calls while this viewer is in the room (the room chat's notice). */
  | { type: 'room.privateCallChanged'; open: boolean };

export type LiveViewingEmitted =
  /** Asks the owner to call the host (the session's call). */
  | { type: 'live.callHost'; peer: LiveCallPeer; online: boolean }
  | { type: 'live.toast'; text: string };

const num = (v: unknown, fallback = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The join's answer made safe: numbers numbers, codes known, the wishlist well-formed. */
export function roomOf(raw: LiveRoom): LiveRoom {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Partial<Record<keyof LiveRoom, unknown>>;
  return {
    ...(raw as LiveRoom),
    userId: num(r.userId),
    yxAccid: text(r.yxAccid),
    nickname: text(r.nickname),
    title: text(r.title),
    agoraChannelId: text(r.agoraChannelId),
    yxRoomId: text(r.yxRoomId),
    joinNum: Math.max(0, Math.trunc(num(r.joinNum))),
    privateCallOpen: r.privateCallOpen === true,
    wishlist: wishlistOf(r.wishlist),
    userStatus: num(r.userStatus) === LiveHostStatus.inCall ? LiveHostStatus.inCall : LiveHostStatus.inRoom,
    liveRoomState: num(r.liveRoomState) === LiveRoomState.ended ? LiveRoomState.ended : LiveRoomState.live,
    isBlockUser: r.isBlockUser === true,
    whoBlock: whoBlockOf(r.whoBlock, r.isBlockUser),
  };
}
