/**
 * Live rooms (SPEC §2 /liveRoom, /liveSetting, /liveEnds and the live lists; §3 Live info,
 * Live chat record, Gift; §4 Live state, System messages 44/63/64; §6 gag; §7 Calls and live;
 * §8 'set wishlist is failed!'; §9 follow live list 100, live history 5). SPEC §7 names the
 * paths but not their shapes, nor the server's behaviour: the reference server's choices are
 * written down here, once, for the client and the server.
 *
 * Going live (hosts only: anyone else is refused with TEXT_LIVE_HOSTS_ONLY, code 1000, on
 * checkLiveBroadcastPermission and every host call): beginLiveRoom opens a room (a
 * `live_rooms` row with a fresh agoraChannelId, the media channel, and yxRoomId, the hub chat
 * room the server opens with the host as owner). Beginning again while live answers the same
 * room (with the title, cover and private-call switch just given). A host in a call cannot
 * begin (TEXT_LIVE_IN_CALL). The host beats liveHeartBeatV2 every `heartbeatIntervalMs` (both
 * answers carry it; LIVE_HEARTBEAT_INTERVAL_MS by default); a room not beaten for
 * `heartbeatWindowMs` (LIVE_HEARTBEAT_WINDOW_MS; the server's LIVE_HEARTBEAT_WINDOW_MS env
 * shortens it for e2e) ends by itself. endLiveRoom ends the caller's room and answers its
 * LiveStat (again the same stats when it had ended: safe to repeat). Every end is the same:
 * state 1, ended_at, the chat room closed (members get `closed: roomClosed`), the room off the
 * lists; an end the host did not ask for (heartbeat, the service) also sends the host SPEC §4
 * system message 44 {code: 3} (LiveForcedEndNotice) when the host's IM is connected.
 *
 * Watching: getRoomAndJoinRoom (searchValue: the host's user id) answers the host's live room,
 * or the last one with liveRoomState 1 when it ended, as the caller sees it: userStatus 1 while
 * the host has a call in progress (a private call), whoBlock / isBlockUser from the hub (2 the
 * host gagged the caller in this room, 1 the service gagged the caller in every room, 3 both),
 * the wishlist with this room's progress, the host's gift task. A viewer's join counts into
 * joinNum (once per visit: joining again before leaveRoom is a repeat) and into the room's
 * distinct viewers. leaveRoom (a reference-server addition) ends the visit.
 *
 * Gifts in a room: /api/gift/send with `yxRoomId` (src/api/contract/gift.ts) pays the host as
 * any gift does (one transaction, never below zero, never doubled) and counts toward the room's
 * wishlist progress, stats, send rank and the host's daily gift task; after the commit the
 * server posts the gift into the chat room as a message from the sender with attach
 * LiveGiftAttach, to every member (the sender too), so every screen shows the same gifts in
 * the same order.
 *
 * Wishlist: up to WISHLIST_MAX different gifts, each wanted 1…WISH_GIFT_NUM_MAX times, set
 * with setAnchorWishlist (a reference-server addition: SPEC gives no path); anything else is
 * refused with TEXT_SET_WISHLIST_FAILED ('set wishlist is failed!', SPEC §8). compelteGiftNum
 * (SPEC spelling) counts the gifts of that kind the host's current room received, at most
 * giftNum; completed when it reaches giftNum.
 *
 * Gift task (api/wallet/anchor/taskInfo/liveGiftTask): receive `target` diamonds of gifts in
 * live rooms in a UTC day; when a gift reaches it, the same transaction pays `reward` diamonds
 * to the host's income, once a day. Target and reward come from app config LIVE_GIFT_TASK_KEY.
 */
import * as z from 'zod/mini';
import { SYSTEM_SENDER_ACCID } from '../../../machines/system-messages/system-sender';
import { Empty, ImageUrl, defineEndpoint } from './endpoint';
import { Page, PersonSummary, currentPage, pageSize } from './people';

/** SPEC §9: the follow live list is paged by 100; the live list takes no larger page. */
export const LIVE_PAGE_SIZE = 100;
/** How often a live host beats liveHeartBeatV2 (SPEC §9 heartbeat 10 s). */
export const LIVE_HEARTBEAT_INTERVAL_MS = 10_000;
/** A room whose host has not beaten for this long ends by itself (three missed beats). */
export const LIVE_HEARTBEAT_WINDOW_MS = 30_000;
/** The beat interval for a heartbeat window: a third of it, at most LIVE_HEARTBEAT_INTERVAL_MS. */
export const heartbeatIntervalFor = (windowMs: number): number =>
  Math.max(1, Math.min(LIVE_HEARTBEAT_INTERVAL_MS, Math.floor(windowMs / 3)));

export const LIVE_TITLE_MAX = 64;
export const WISHLIST_MAX = 3;
export const WISH_GIFT_NUM_MAX = 999;
export const SEND_RANK_DEFAULT = 10;
export const SEND_RANK_MAX = 100;
/** App config key of the live gift task: JSON {target, reward} (diamonds). */
export const LIVE_GIFT_TASK_KEY = 'live_gift_task';
export const LIVE_GIFT_TASK_DEFAULT = { target: 1000, reward: 100 } as const;
/** The `from` of the live system notifications (44, 63, 64): the server's system sender. */
export const LIVE_SYSTEM_ACCID = SYSTEM_SENDER_ACCID;
/** SPEC §4 system message 44's code: the live was ended by the system. */
export const LIVE_FORCED_END_CODE = 3;

export const TEXT_LIVE_HOSTS_ONLY = 'Only hosts can go live.';
export const TEXT_LIVE_IN_CALL = 'You cannot go live during a call.';
export const TEXT_LIVE_NOT_LIVE = 'You are not live.';
export const TEXT_LIVE_NOT_FOUND = 'This host has no live room.';
export const TEXT_LIVE_ENDED = 'This live has ended.';
export const TEXT_LIVE_COVER_INVALID = 'The cover must be an uploaded picture or an https link to an approved media server.';
/** SPEC §8. */
export const TEXT_SET_WISHLIST_FAILED = 'set wishlist is failed!';

/** SPEC §3 Live info liveRoomState. */
export const LiveRoomState = { live: 0, ended: 1 } as const;
/** SPEC §3 Live info userStatus (the host's): 0 in the room, 1 in a private call. */
export const LiveHostStatus = { inRoom: 0, inCall: 1 } as const;
/** SPEC §3 Live info whoBlock: 1 the service, 2 the host, 3 both. */
export const WhoBlock = { none: 0, service: 1, host: 2, both: 3 } as const;
/** Why a room ended (stored; the stats and 44 say it). */
export const LiveEndCause = { host: 'host', heartbeat: 'heartbeat', service: 'service' } as const;
export type LiveEndCause = (typeof LiveEndCause)[keyof typeof LiveEndCause];

/** A host's user id: a positive integer, or its decimal string (SPEC's `searchValue`s are strings). */
export const HostId = z.union([
  z.int().check(z.positive()),
  z.pipe(z.string().check(z.regex(/^[1-9]\d{0,14}$/)), z.transform(Number)),
]);

/** A live room on the list: its host (as a person card) and the room's SPEC §3 Live info fields. */
export const LiveRoomItem = z.extend(PersonSummary, {
  agoraChannelId: z.string(),
  yxRoomId: z.string(),
  title: z.string(),
  /** Members who joined so far. */
  joinNum: z.number(),
  privateCallOpen: z.boolean(),
  /** When the room went live, milliseconds since the epoch. */
  startTime: z.number(),
});
export type LiveRoomItem = z.output<typeof LiveRoomItem>;

const LivePageRequest = z.object({ currentPage, pageSize: pageSize(LIVE_PAGE_SIZE) });

/** Rooms that are live now, newest first (then by room id), the caller's own and blocked hosts' left out. */
export const queryLiveList = defineEndpoint({
  path: '/api/agora/live/queryLiveList',
  method: 'POST',
  auth: 'session',
  visitors: 'allowed',
  request: LivePageRequest,
  response: Page(LiveRoomItem),
});

/** The same, only rooms of hosts the caller follows. */
export const queryMyFollowLive = defineEndpoint({
  path: '/api/agora/live/queryMyFollowLive',
  method: 'POST',
  auth: 'session',
  request: LivePageRequest,
  response: Page(LiveRoomItem),
});

/** SPEC §3 Live info wishlist: one wish and how far the room got with it (plus the gift, to show it). */
export const LiveWish = z.object({
  giftId: z.number(),
  giftNum: z.number(),
  /** SPEC spelling: gifts of this kind the room received, at most giftNum. */
  compelteGiftNum: z.number(),
  /** compelteGiftNum / giftNum, 0…1. */
  ratio: z.number(),
  completed: z.boolean(),
  giftName: z.string(),
  giftImg: ImageUrl,
  giftPrice: z.number(),
});
export type LiveWish = z.output<typeof LiveWish>;

/** The host's live gift task today (UTC): diamonds of live gifts to receive, received, and the reward. */
export const LiveGiftTask = z.object({
  target: z.number(),
  done: z.number(),
  reward: z.number(),
  completed: z.boolean(),
});
export type LiveGiftTask = z.output<typeof LiveGiftTask>;

/** SPEC §3 Live info, as the caller sees the room. */
export const LiveInfo = z.object({
  /** The host's. */
  userId: z.number(),
  yxAccid: z.string(),
  nickname: z.string(),
  icon: ImageUrl,
  title: z.string(),
  cover: z.nullable(ImageUrl),
  /** The media channel. */
  agoraChannelId: z.string(),
  /** The hub chat room. */
  yxRoomId: z.string(),
  joinNum: z.number(),
  privateCallOpen: z.boolean(),
  wishlist: z.array(LiveWish),
  /** LiveHostStatus. */
  userStatus: z.number(),
  /** LiveRoomState. */
  liveRoomState: z.number(),
  isBlockUser: z.boolean(),
  /** WhoBlock. */
  whoBlock: z.number(),
  giftTask: LiveGiftTask,
  startTime: z.number(),
});
export type LiveInfo = z.output<typeof LiveInfo>;

/** The host's own room, with the heartbeat timing to keep. */
export const HostedLive = z.extend(LiveInfo, {
  heartbeatIntervalMs: z.number(),
  heartbeatWindowMs: z.number(),
});
export type HostedLive = z.output<typeof HostedLive>;

/** /liveEnds: what a room did. */
export const LiveStat = z.object({
  agoraChannelId: z.string(),
  yxRoomId: z.string(),
  liveRoomState: z.number(),
  startTime: z.number(),
  endTime: z.nullable(z.number()),
  /** From its start to its end (or now, while live), whole seconds. */
  durationSec: z.number(),
  /** Distinct viewers who joined. */
  viewers: z.number(),
  /** Gifts received (the sum of giftNum). */
  gifts: z.number(),
  /** Diamonds the gifts paid the host. */
  income: z.number(),
  /** LiveEndCause once ended. */
  endCause: z.nullable(z.string()),
});
export type LiveStat = z.output<typeof LiveStat>;

/** Whether the caller may go live: refused with TEXT_LIVE_HOSTS_ONLY (code 1000) for anyone but a host. */
export const checkLiveBroadcastPermission = defineEndpoint({
  path: '/api/agora/live/checkLiveBroadcastPermission',
  method: 'POST',
  auth: 'session',
  request: Empty,
  response: z.object({ allowed: z.boolean(), living: z.boolean() }),
});

/** Opens the host's room (or answers the one live now, with these settings). */
export const beginLiveRoom = defineEndpoint({
  path: '/api/agora/live/beginLiveRoom',
  method: 'POST',
  auth: 'session',
  request: z.object({
    title: z.string().check(z.trim(), z.maxLength(LIVE_TITLE_MAX)),
    /** A same-origin upload or an https picture on the deployment's media hosts (media.ts `isAllowedMediaUrl`). */
    cover: z.optional(z.string().check(z.maxLength(1024))),
    privateCallOpen: z.boolean(),
  }),
  response: HostedLive,
});

/** Ends the caller's room and answers its stats; with none live, the last room's (safe to repeat). */
export const endLiveRoom = defineEndpoint({
  path: '/api/agora/live/endLiveRoom',
  method: 'POST',
  auth: 'session',
  request: Empty,
  response: LiveStat,
});

/** The caller's room that is live now, or null. */
export const getMyLiveRoomV2 = defineEndpoint({
  path: '/api/agora/live/getMyLiveRoomV2',
  method: 'POST',
  auth: 'session',
  request: Empty,
  response: z.nullable(HostedLive),
});

/** Opens or closes private calls from the live room (TEXT_LIVE_NOT_LIVE when not live). */
export const updatePrivateCall = defineEndpoint({
  path: '/api/agora/live/updatePrivateCall',
  method: 'POST',
  auth: 'session',
  request: z.object({ privateCallOpen: z.boolean() }),
  response: z.object({ privateCallOpen: z.boolean() }),
});

/** A host's wishlist (searchValue: the host's user id; the caller's own without it), with the live room's progress. */
export const getAnchorWishlist = defineEndpoint({
  path: '/api/agora/live/getAnchorWishlist',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: z.optional(HostId) }),
  response: z.array(LiveWish),
});

/**
 * Reference-server addition (SPEC names no path): replaces the caller's wishlist, in order
 * (an empty list clears it). Refused with TEXT_SET_WISHLIST_FAILED unless it is at most
 * WISHLIST_MAX different existing gifts, each 1…WISH_GIFT_NUM_MAX.
 */
export const setAnchorWishlist = defineEndpoint({
  path: '/api/agora/live/setAnchorWishlist',
  method: 'POST',
  auth: 'session',
  request: z.object({
    wishlist: z.array(z.object({ giftId: z.number(), giftNum: z.number() })).check(z.maxLength(100)),
  }),
  response: z.array(LiveWish),
});

/**
 * A room's stats (agoraChannelId: one of the caller's rooms, else TEXT_LIVE_NOT_FOUND; without
 * it the caller's latest, or null when the caller has never gone live: /liveEnds has nothing to show).
 */
export const queryLiveStat = defineEndpoint({
  path: '/api/agora/live/queryLiveStat',
  method: 'POST',
  auth: 'session',
  request: z.object({ agoraChannelId: z.optional(z.string().check(z.minLength(1), z.maxLength(128))) }),
  response: z.nullable(LiveStat),
});

/** Joins the host's room (searchValue: the host's user id); see the file comment. */
export const getRoomAndJoinRoom = defineEndpoint({
  path: '/api/agora/live/getRoomAndJoinRoom',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: HostId }),
  response: LiveInfo,
});

/** Reference-server addition: the caller leaves the host's room (safe to repeat); `left` when a visit ended. */
export const leaveLiveRoom = defineEndpoint({
  path: '/api/agora/live/leaveRoom',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: HostId }),
  response: z.object({ left: z.boolean() }),
});

/**
 * The live host's beat. `yxRoomId`: the room being hosted (without it, the caller's live room).
 * `ended` when that room is not live any more (the host should leave it).
 */
export const liveHeartBeatV2 = defineEndpoint({
  path: '/api/agora/liveHeartBeatV2',
  method: 'POST',
  auth: 'session',
  request: z.object({ yxRoomId: z.optional(z.string().check(z.minLength(1), z.maxLength(128))) }),
  response: z.object({
    ended: z.boolean(),
    heartbeatIntervalMs: z.number(),
    heartbeatWindowMs: z.number(),
  }),
});

export const SendRankItem = z.object({
  rank: z.number(),
  userId: z.number(),
  yxAccid: z.string(),
  nickname: z.string(),
  icon: ImageUrl,
  userLevel: z.number(),
  isVip: z.boolean(),
  /** Diamonds this person's gifts paid in the room. */
  total: z.number(),
});
export type SendRankItem = z.output<typeof SendRankItem>;

/**
 * Top senders of the host's room (searchValue: the host's user id; its live room, or its last
 * one), by diamonds, ties to whoever reached the sum first.
 */
export const sendRank = defineEndpoint({
  path: '/api/live/send/rank/sendRank',
  method: 'POST',
  auth: 'session',
  request: z.object({
    searchValue: HostId,
    limit: z.optional(z.int().check(z.minimum(1), z.maximum(SEND_RANK_MAX))),
  }),
  response: z.array(SendRankItem),
});

/** A host's live gift task today (searchValue: the host's user id; the caller's own without it). */
export const liveGiftTask = defineEndpoint({
  path: '/api/wallet/anchor/taskInfo/liveGiftTask',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: z.optional(HostId) }),
  response: LiveGiftTask,
});

/** The chat-room message attach of a live gift (posted by the server, from the sender). */
export const LiveGiftAttach = z.object({
  giftId: z.number(),
  giftName: z.string(),
  giftImg: z.string(),
  giftNum: z.number(),
  giftPrice: z.number(),
  /** The gift_sends id: one per gift sent, in order. */
  sendId: z.number(),
  /** SPEC §3 Live chat record fields of the sender. */
  isVip: z.boolean(),
  isNewUser: z.boolean(),
  userLevel: z.number(),
});
export type LiveGiftAttach = z.output<typeof LiveGiftAttach>;

/**
 * The chat-room message the server posts from the host when the private-call switch changes
 * (updatePrivateCall), so viewers already in the room learn it: no text, only this attach.
 */
export const LivePrivateCallAttach = z.object({ privateCallOpen: z.boolean() });
export type LivePrivateCallAttach = z.output<typeof LivePrivateCallAttach>;

/** SPEC §4 system message 44: the live was ended by the system (code 3). */
export const LiveForcedEndNotice = z.object({
  attachType: z.literal(44),
  code: z.literal(LIVE_FORCED_END_CODE),
  agoraChannelId: z.string(),
  yxRoomId: z.string(),
  endCause: z.string(),
});
export type LiveForcedEndNotice = z.output<typeof LiveForcedEndNotice>;

/** SPEC §4 system messages 63 (boosting exposure on) and 64 (off). */
export const LiveBoostNotice = z.object({
  attachType: z.union([z.literal(63), z.literal(64)]),
  /** The room live when it was sent, if any. */
  agoraChannelId: z.optional(z.string()),
});
export type LiveBoostNotice = z.output<typeof LiveBoostNotice>;
