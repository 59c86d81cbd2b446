/**
 * The chat-room port (live rooms' chat, SPEC §3 Live chat record, §7 chat-room calls):
 * enter, leave, send, member query with a limit (500), history with a limit (5), member
 * enter/exit and gag notices.
 */

export interface ChatroomMessage {
  idServer: string;
  roomId: string;
  from: string;
  fromNick: string;
  text?: string;
  /** Custom payload (gifts: giftImg, giftNum; highlights: isVip, isNewUser, userLevel); untrusted. */
  attach?: Record<string, unknown>;
  time: number;
}

export interface ChatroomMember {
  account: string;
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
