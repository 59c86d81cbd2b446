/**
 * The realtime part of the contract: the three endpoints that hand out realtime
 * credentials and addresses (SPEC §7), and the wire protocol of the reference server's
 * WebSocket hub (server/realtime), shared by the hub and the local adapters
 * (src/adapters/*.local.ts) so that the two sides cannot drift.
 *
 * Wire protocol, on every path: one JSON object per text frame, at most MAX_FRAME_BYTES.
 *   request  `{ id, op, ...args }`            (id: a number or a string chosen by the client)
 *   reply    `{ id, ok: true, result }` or `{ id, ok: false, code, message }`, exactly one per request
 *   push     `{ push: { type, ... } }`        (server → client, unasked)
 * A frame that is not a JSON object with an id is answered with `id: null` and code
 * `badRequest`; the connection stays open. A frame over the limit closes the socket with
 * 1009 and a reason naming the limit.
 *
 * Limits on every socket: frames come at most as fast as HUB_FRAME_RATE says for the path (a
 * token bucket: `perSecond` sustained, `burst` at once; every frame counts, malformed ones
 * too), else the socket is closed with HubClose.tooManyFrames and a reason naming the rate.
 * The app's own traffic stays far below it, and its adapters reconnect only after their usual
 * delays (hub.socket.ts never reconnects by itself). A socket that leaves more unread than the
 * hub keeps for its path (server/realtime/wire.ts: 256 KiB in chat rooms, 8 MiB elsewhere) is
 * cut without a closing handshake, as a dropped link; its client comes back as after one.
 */
import * as z from 'zod/mini';
import type { CallSignal } from '../../../machines/ports/signalling.port';
import type { ChatroomMember, ChatroomMessage } from '../../../machines/ports/chatroom.port';
import type { ImConversation, ImMessage, ImNotification } from '../../../machines/ports/im.port';
import { ImCode } from '../../../machines/ports/im.port';
import { PresenceCode } from '../../../machines/ports/presence.port';
import { SignalAction } from '../../../machines/ports/signalling.port';
import { Empty, ImageUrl, defineEndpoint } from './endpoint';

// ---- endpoints ----

/** SPEC §7: the session user's Agora tokens; locally the hub's signalling login accepts the rtmToken. */
export const getAgoraRtmToken = defineEndpoint({
  path: '/api/index/getAgoraRtmToken',
  method: 'POST',
  auth: 'session',
  request: Empty,
  response: z.object({ rtmToken: z.string(), rtcToken: z.string() }),
});

/** SPEC §7: the chat-room addresses of a live room (`searchValue`: its yxRoomId); locally the hub's chat-room path. */
export const getChatRoomAddress = defineEndpoint({
  path: '/api/agora/live/getChatRoomAddress',
  method: 'POST',
  auth: 'session',
  request: z.object({ searchValue: z.string().check(z.trim(), z.minLength(1), z.maxLength(128)) }),
  response: z.array(z.string()),
});

export const CustomerService = z.object({
  /** The IM account (yxAccid) to chat with. */
  imId: z.string(),
  nickname: z.string(),
  icon: ImageUrl,
});

/** SPEC §7: the customer-service IM accounts. */
export const getCustomerServiceList = defineEndpoint({
  path: '/api/im/getCustomerServiceList',
  method: 'POST',
  auth: 'session',
  request: Empty,
  response: z.array(CustomerService),
});

// ---- the hub's wire protocol ----

export const RealtimePath = {
  im: '/realtime/im',
  chatroom: '/realtime/chatroom',
  signal: '/realtime/signal',
  presence: '/realtime/presence',
  /** WebRTC negotiation relay for the local RTC adapter (the stand-in for Agora's media server). */
  rtc: '/realtime/rtc',
} as const;
export type RealtimePath = (typeof RealtimePath)[keyof typeof RealtimePath];

/** Largest frame the hub reads (bytes of UTF-8); a larger one closes the socket with 1009. */
export const MAX_FRAME_BYTES = 64 * 1024;

/**
 * Error codes of replies. The IM login and link codes are NetEase's, taken from the port's
 * `ImCode`, so that the imConnection machine's SPEC §8 rules apply to the local hub exactly as
 * to NetEase: a wrong or unknown account/token is `tokenInvalid` (refresh the token, log in
 * again); an expired rtm token `tokenExpired`; a request on a socket that is not logged in,
 * or a link that dropped under a request (client side), `linkLost` (log in again); a login
 * without an answer in time (client side) `loginTimeout`; a hub that is shutting down
 * `serverBusy`; a second login of another account on one socket `loginConflict`; a message
 * to someone who blocked the sender `refused` (7101). The rest follow NetEase's general
 * codes: 414 bad parameters or frame, 404 no such op/peer/room (or peer not connected),
 * 403 not allowed, 13004 gagged in a chat room, 500 server fault.
 */
export const HubCode = {
  tokenExpired: ImCode.tokenExpired,
  tokenInvalid: ImCode.tokenInvalid,
  linkLost: ImCode.linkLost,
  loginTimeout: ImCode.loginTimeout,
  serverBusy: ImCode.serverBusy,
  loginConflict: ImCode.loginConflict,
  refused: ImCode.refused,
  badRequest: 414,
  notFound: 404,
  forbidden: 403,
  gagged: 13004,
  internal: 500,
} as const;

/** WebSocket close codes the hub uses (4000–4999 are the application's). */
export const HubClose = {
  /** The server is stopping. */
  goingAway: 1001,
  frameTooLarge: 1009,
  /** The same account logged in on another socket (pushed `kicked` first). */
  kicked: 4001,
  /** Presence: the session token was refused. */
  unauthenticated: 4401,
  /** The socket sent frames faster than HUB_FRAME_RATE allows on its path. */
  tooManyFrames: 4029,
} as const;

export type RequestId = number | string;

export type HubReply =
  | { id: RequestId | null; ok: true; result: unknown }
  | { id: RequestId | null; ok: false; code: number; message: string };

const account = z.string().check(z.minLength(1), z.maxLength(64));
const secret = z.string().check(z.minLength(1), z.maxLength(256));
const seq = z.int().check(z.minimum(0));
const payload = z.record(z.string(), z.unknown());
const limit = (max: number) => z.int().check(z.minimum(1), z.maximum(max));

/** Arguments of each op, by path. Extra keys are ignored. */
export const ImOps = {
  /** `lastSeq`: the last sequence number this client has seen; without it, the last one a client confirmed. */
  login: z.object({ account, token: secret, lastSeq: z.optional(seq) }),
  logout: z.object({ lastSeq: z.optional(seq) }),
  /** Confirms that the client has everything up to `seq` (what a later login without lastSeq starts after). */
  ack: z.object({ seq }),
  send: z.object({
    to: account,
    idClient: z.string().check(z.minLength(1), z.maxLength(128)),
    type: z.enum(['text', 'custom']),
    text: z.optional(z.string().check(z.maxLength(5000))),
    attach: z.optional(payload),
    ext: z.optional(z.union([z.string().check(z.maxLength(8192)), payload])),
  }),
  /**
   * A client's custom notification. It may not be a system message (SPEC §4: content with an
   * attachType, however wrapped): those come only from the server's system sender, so the hub
   * refuses them with `forbidden`.
   */
  notify: z.object({ to: account, content: payload }),
  conversations: z.object({ limit: limit(1000) }),
  markRead: z.object({ peer: account }),
  history: z.object({ peer: account, limit: limit(1000), before: z.optional(z.number()) }),
  clearHistory: z.object({ peer: account }),
  ping: z.object({}),
} as const;

export const ChatroomOps = {
  /** `nick` and `avatar` are taken but not shown: members show as the server records their account. */
  enter: z.object({
    roomId: z.string().check(z.minLength(1), z.maxLength(128)),
    account,
    token: secret,
    nick: z.string().check(z.maxLength(64)),
    avatar: z.optional(z.string().check(z.maxLength(1024))),
    ext: z.optional(payload),
  }),
  leave: z.object({ roomId: z.string() }),
  /** `attach` carries the member's profile only (MEMBER_ATTACH_KEYS); gifts and notices come from the server, marked `fromServer`. */
  send: z.object({
    roomId: z.string(),
    text: z.optional(z.string().check(z.maxLength(2000))),
    attach: z.optional(payload),
  }),
  members: z.object({ roomId: z.string(), limit: limit(1000) }),
  history: z.object({ roomId: z.string(), limit: limit(100) }),
  setGagged: z.object({ roomId: z.string(), account, gagged: z.boolean() }),
  ping: z.object({}),
} as const;

const signalActions = Object.values(SignalAction) as SignalAction[];

export const SignalOps = {
  login: z.object({ account, token: secret }),
  logout: z.object({}),
  send: z.object({
    to: account,
    action: z.union(signalActions.map((a) => z.literal(a)) as unknown as [z.ZodMiniLiteral<SignalAction>]),
    channelId: z.string().check(z.minLength(1), z.maxLength(128)),
    payload: z.optional(payload),
  }),
  ping: z.object({}),
} as const;

const presenceCodes = Object.values(PresenceCode) as PresenceCode[];

export const PresenceOps = {
  /** The app session token (the `x-login-token` value); or give it as `?token=` on the URL. */
  auth: z.object({ token: secret }),
  status: z.object({
    code: z.union(presenceCodes.map((c) => z.literal(c)) as unknown as [z.ZodMiniLiteral<PresenceCode>]),
  }),
  ping: z.object({}),
} as const;

/** At most this many members in an RTC channel (a one-to-one call). */
export const RTC_CHANNEL_LIMIT = 2;

/** At most this many posts are kept for a call's next joiner (an offer and its candidates are a handful). */
export const RTC_POST_LIMIT = 64;

/** The two roles of a live channel: one host publishes, the audience watches (SPEC §2 /liveRoom). */
export const LiveRole = { host: 'host', audience: 'audience' } as const;
export type LiveRole = (typeof LiveRole)[keyof typeof LiveRole];

/** At most this many viewers in a live channel besides its host (SPEC §9 Paging: audience query 500). */
export const LIVE_AUDIENCE_LIMIT = 500;

/**
 * At most this many members besides its owner in a chat room (a live room's audience, as its
 * channel holds); one more `enter` is refused with `forbidden`. The owner always gets in.
 */
export const CHATROOM_AUDIENCE_LIMIT = LIVE_AUDIENCE_LIMIT;

/**
 * Frames a socket may send, per path: `burst` at once, `perSecond` sustained. What the app
 * sends is far below: presence every 5 s, an IM ping every 10 s and an ack at most every
 * 200 ms, chat lines as people type, a call's offer and candidates (at most RTC_POST_LIMIT
 * posted ahead). A live host answers every viewer's offer and candidates at once when she comes
 * back from a private call (hostJoined), hence the relay's burst of eight frames a viewer.
 */
export const HUB_FRAME_RATE: Readonly<Record<RealtimePath, { perSecond: number; burst: number }>> = {
  [RealtimePath.im]: { perSecond: 20, burst: 100 },
  [RealtimePath.chatroom]: { perSecond: 20, burst: 100 },
  [RealtimePath.signal]: { perSecond: 20, burst: 100 },
  [RealtimePath.presence]: { perSecond: 20, burst: 100 },
  [RealtimePath.rtc]: { perSecond: 100, burst: 8 * (LIVE_AUDIENCE_LIMIT + 1) },
};

/**
 * `/realtime/rtc`: `join` with the rtcToken of getAgoraRtmToken (account = the user's yxAccid);
 * `relay` hands an offer, answer or ICE candidate (`data`, opaque to the hub) to the other
 * member; `leave` (or a closed socket) tells the other member `peerLeft`. One channel per socket.
 * In a call's channel, `post` hands `data` to the other member, or, while the sender is alone
 * there, keeps it (up to RTC_POST_LIMIT) for whoever joins next: the joiner finds it in its
 * join answer (`waiting`, in the order posted), so an offer made ahead reaches the callee with
 * her join rather than a round trip through the caller after it.
 *
 * A `join` with a `role` is to a live channel instead of a call's: one host and up to
 * LIVE_AUDIENCE_LIMIT viewers. Each viewer has its own peer connection with the host: a
 * viewer offers to the host (receive only), the host answers with its tracks, and relays go
 * between the host and a viewer only. The audience is pushed `hostLeft` / `hostJoined` as the
 * host goes and comes (a viewer offers again on `hostJoined`); the host is pushed `peerLeft`
 * when a viewer goes. A channel is a call's or a live one from its first join to its last leave.
 */
export const RtcOps = {
  join: z.object({
    channelId: z.string().check(z.minLength(1), z.maxLength(128)),
    account,
    token: secret,
    role: z.optional(z.enum([LiveRole.host, LiveRole.audience])),
  }),
  relay: z.object({ to: account, data: payload }),
  post: z.object({ data: payload }),
  leave: z.object({}),
  ping: z.object({}),
} as const;

/** Results of the ops that answer with more than `null`. */
export interface ImLoginResult {
  account: string;
  /** The account's last sequence number when the login was answered. */
  seq: number;
  time: number;
}
/** `join`: the members already in the channel, and what they posted for the joiner while alone there (oldest first). */
export interface RtcJoinResult {
  channelId: string;
  peers: string[];
  waiting: RtcPosted[];
}
/** What a member posted (`post`) while alone in a call's channel. */
export interface RtcPosted {
  from: string;
  data: Record<string, unknown>;
}
/** `join` with a role: the live channel's host when there is one (a viewer offers to it), else null. */
export interface RtcLiveJoinResult {
  channelId: string;
  role: LiveRole;
  host: string | null;
}
export interface PresenceStatusResult {
  code: PresenceCode;
  time: number;
}

export type ImPush =
  /** `seq`: the recipient's sequence number; after a login, everything after `lastSeq` comes first, in order. */
  | { type: 'message'; seq: number; message: ImMessage }
  | { type: 'notification'; seq: number; notification: ImNotification }
  | { type: 'conversation'; conversation: ImConversation }
  | { type: 'unread'; total: number }
  /** Another socket logged in as this account; this one closes with HubClose.kicked. */
  | { type: 'kicked' };

export type ChatroomPush =
  | { type: 'message'; roomId: string; message: ChatroomMessage }
  | { type: 'memberEnter'; roomId: string; member: ChatroomMember }
  | { type: 'memberExit'; roomId: string; account: string }
  | { type: 'gag'; roomId: string; account: string; gagged: boolean }
  | { type: 'closed'; roomId: string; reason: 'roomClosed' | 'kicked' };

export type SignalPush = { type: 'signal'; signal: CallSignal } | { type: 'kicked' };

export type RtcPush =
  /** Another member joined: this one offers to it (what this one posted while alone went to it with its join). */
  | { type: 'peerJoined'; channelId: string; account: string }
  /** The other member left (`left`), or its socket closed (`dropped`); in a live channel, to the host: a viewer went. */
  | { type: 'peerLeft'; channelId: string; account: string; reason: 'left' | 'dropped' }
  /** What the other member relayed (offer, answer or candidate). */
  | { type: 'relay'; channelId: string; from: string; data: Record<string, unknown> }
  /** The same account joined the channel from another socket; this one is out of the channel. */
  | { type: 'kicked'; channelId: string }
  /** Live channel, to the audience: the host joined (each viewer offers to it again). */
  | { type: 'hostJoined'; channelId: string; account: string }
  /** Live channel, to the audience: the host left (`left`) or its socket closed (`dropped`). */
  | { type: 'hostLeft'; channelId: string; account: string; reason: 'left' | 'dropped' };

/** Presence pushes `ready` once a `?token=` on the URL was accepted. */
export type PresencePush = { type: 'ready'; userId: number };
