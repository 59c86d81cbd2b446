/**
 * The chat-room port (live rooms' chat, SPEC §3 Live chat record, §7 chat-room calls):
 * enter, leave, send, member query with a limit (500), history with a limit (5), member
 * enter/exit and gag notices. Members speak for themselves only: their nick and avatar are the
 * service's record, their messages carry no gift, and what the service posts says so.
 */

/**
 * The attach keys a member's own message may carry: the profile it shows with (isVip,
 * isNewUser, userLevel). Anything else (a gift's giftId, giftImg, giftNum, sendId…, the host's
 * privateCallOpen) comes only from the service itself, and a member's send with it is refused.
 */
export const MEMBER_ATTACH_KEYS: readonly string[] = ['isVip', 'isNewUser', 'userLevel'];

export interface ChatroomMessage {
  idServer: string;
  roomId: string;
  from: string;
  /** The service's record of the sender's nickname, never what a member entered with. */
  fromNick: string;
  text?: string;
  /** Custom payload (gifts: giftImg, giftNum; highlights: isVip, isNewUser, userLevel); untrusted. */
  attach?: Record<string, unknown>;
  /**
   * True when the service itself posted it (a paid gift, the host's private-call switch): only
   * such a message is a gift or a notice. A member's own message never has it.
   */
  fromServer?: boolean;
  time: number;
}

export interface ChatroomMember {
  account: string;
  /** The service's record of the member (nickname, avatar), never what it entered with. */
  nick: string;
  avatar?: string;
  gagged: boolean;
  /** The profile the member entered with (ChatroomEntry.ext: isVip, isNewUser, userLevel); untrusted. */
  ext?: Record<string, unknown>;
}

export type ChatroomEvent =
  | { type: 'message'; message: ChatroomMessage }
  | { type: 'memberEnter'; member: ChatroomMember }
  | { type: 'memberExit'; account: string }
  | { type: 'gag'; account: string; gagged: boolean }
  /** The room closed (host ended the live) or this member was removed. */
  | { type: 'closed'; reason: 'roomClosed' | 'kicked' };

export interface ChatroomEntry {
  account: string;
  token: string;
  /** What the member would show as; the reference hub shows its record of the account instead (NetEase takes it as given). */
  nick: string;
  avatar?: string;
  /** Extra profile shown to the room (isVip, isNewUser, userLevel). */
  ext?: Record<string, unknown>;
}

export interface ChatroomPort {
  enter(roomId: string, entry: ChatroomEntry): Promise<void>;
  leave(roomId: string): Promise<void>;
  send(roomId: string, message: { text?: string; attach?: Record<string, unknown> }): Promise<ChatroomMessage>;
  members(roomId: string, limit: number): Promise<ChatroomMember[]>;
  history(roomId: string, limit: number): Promise<ChatroomMessage[]>;
  /** The room's host gags or ungags a member. */
  setGagged(roomId: string, account: string, gagged: boolean): Promise<void>;
  subscribe(roomId: string, listener: (event: ChatroomEvent) => void): () => void;
}
