/**
 * What live rooms need from the world (SPEC §2 /liveRoom, /liveSetting, /liveEnds; §3 Live
 * info; §4 Live state; §7 Calls and live): the live API and the room's media. The room's
 * chat goes through the chat-room port (chatroom.port.ts).
 */

/** SPEC §3 Live info: one wish of the host's wishlist and how far the room got with it. */
export interface LiveWish {
  giftId: number;
  giftNum: number;
  /** SPEC spelling. */
  compelteGiftNum: number;
  /** compelteGiftNum / giftNum, 0…1. */
  ratio: number;
  completed: boolean;
}

/** SPEC §3 Live info `whoBlock`: 0 none, 1 and 3 blocked by the service, 2 gagged by the host. */
export const WhoBlock = { none: 0, service: 1, host: 2, both: 3 } as const;
export type WhoBlock = (typeof WhoBlock)[keyof typeof WhoBlock];

/** SPEC §3 Live info `liveRoomState`: 0 live, 1 ended. */
export const LiveRoomState = { live: 0, ended: 1 } as const;
/** SPEC §3 Live info `userStatus` (the host's): 0 in the room, 1 in a private call. */
export const LiveHostStatus = { inRoom: 0, inCall: 1 } as const;

/** SPEC §3 Live info, as getRoomAndJoinRoom / beginLiveRoom answer it (untrusted beyond its type). */
export interface LiveRoom {
  /** The host's user id. */
  userId: number;
  /** The host's IM / RTC account. */
  yxAccid: string;
  nickname: string;
  icon?: string;
  title: string;
  /** The media channel. */
  agoraChannelId: string;
  /** The chat room. */
  yxRoomId: string;
  joinNum: number;
  privateCallOpen: boolean;
  wishlist: LiveWish[];
  userStatus: number;
  liveRoomState: number;
  isBlockUser: boolean;
  whoBlock: WhoBlock;
  /** The host's live gift task (api/wallet/anchor/taskInfo/liveGiftTask), when there is one. */
  giftTask?: { target: number; done: number; reward: number } | undefined;
  /**
   * The host's own room (beginLiveRoom): how often the server wants liveHeartBeatV2, when it
   * says (a shortened heartbeat window needs faster beats than SPEC §9's 10 s).
   */
  heartbeatIntervalMs?: number | undefined;
}

/** `/liveEnds`: what queryLiveStat answers for the room that just ended. */
export interface LiveStats {
  durationSec: number;
  viewers: number;
  gifts: number;
  income: number;
}

/** Why going live or joining was refused; `message` is the server's text, shown as is. */
export class LiveApiError extends Error {
  override name = 'LiveApiError';
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

export interface LiveApiPort {
  /** checkLiveBroadcastPermission; rejects with LiveApiError when the host may not go live. */
  checkPermission(): Promise<void>;
  /** beginLiveRoom: opens the host's room (title, cover, private-call switch). */
  begin(setting: { title: string; cover?: string; privateCallOpen: boolean }): Promise<LiveRoom>;
  /** liveHeartBeatV2 while living; answers `ended` when the service closed the room. */
  heartbeat(roomId: string): Promise<{ ended: boolean }>;
  /** updatePrivateCall. */
  setPrivateCall(open: boolean): Promise<void>;
  /** endLiveRoom then queryLiveStat; safe to repeat. */
  end(): Promise<LiveStats>;
  /** getRoomAndJoinRoom (searchValue = the host's user id). */
  join(hostUserId: number): Promise<LiveRoom>;
  /** Leaves the room on the server (audience count); safe to repeat. */
  leave(hostUserId: number): Promise<void>;
}

export type LiveMediaEvent =
  /** A viewer decoded the host's first frame (SPEC: seeing is a decoded frame, not a join). */
  | { type: 'firstRemoteFrame' }
  /** The host left the media channel (a private call took them) — viewers show calling. */
  | { type: 'hostLeft' }
  /** The host is back in the channel. */
  | { type: 'hostJoined' }
  /** The link to the media server is gone for good. */
  | { type: 'connectionLost' };

/**
 * The live room's media (local: browser WebRTC one-to-many through the hub; production:
 * Agora in live mode). One instance per room visit; the call's RTC is separate.
 */
export interface LiveMediaPort {
  /** Host: opens camera and microphone (rejects with MediaError of call.port.ts) and publishes to the channel. */
  publish(channelId: string, account: string): Promise<void>;
  /** Viewer: joins the channel as audience and plays the host's media. */
  watch(channelId: string, account: string): Promise<void>;
  /** Leaves the channel (host: stops publishing and closes the camera); safe to repeat. */
  leave(): Promise<void>;
  subscribe(listener: (event: LiveMediaEvent) => void): () => void;
}
