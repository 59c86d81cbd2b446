/**
 * The IM port: what the machines need from an instant-messaging service (SPEC §3 Message
 * and Chat session, §4 Message service, §8 message-service codes), in the product's words.
 * Adapters: NetEase IM (production, src/adapters/im.nim.ts) and the reference server's
 * WebSocket hub (local, src/adapters/im.local.ts).
 */

/** The message-service codes of SPEC §8, declared once. */
export const ImCode = {
  /** Refresh the token, then log in again. */
  tokenExpired: -10005,
  tokenInvalid: -10026,
  /** Log in again. */
  linkLost: -10002,
  loginTimeout: -11024,
  serverBusy: -11026,
  loginConflict: -11028,
  /** The peer refused the message (blocked): the message is marked refused. */
  refused: 7101,
  /**
   * Not a service code: the service could not be reached at all (no network, server
   * down or restarting). Nobody refused the login, so it does not count as a failed
   * attempt: the connection waits and tries again (see imConnection's `offline`).
   */
  unreachable: -1,
} as const;

export const TOKEN_REFRESH_CODES: readonly number[] = [ImCode.tokenExpired, ImCode.tokenInvalid];
export const RELOGIN_CODES: readonly number[] = [ImCode.linkLost, ImCode.loginTimeout, ImCode.serverBusy, ImCode.loginConflict];

/** A failure reported by the IM service, with its code. */
export class ImError extends Error {
  override name = 'ImError';
  constructor(readonly code: number, message = `IM error ${code}`) {
    super(message);
  }
}

export type ImMessageType = 'text' | 'image' | 'audio' | 'custom';

/** A peer-to-peer message (SPEC §3 Message). */
export interface ImMessage {
  /** Made by the sender; a resend after a reconnect reuses it, so the server stores it once. */
  idClient: string;
  /** Given by the server; a receiver drops a message whose idServer it has seen. */
  idServer: string;
  from: string;
  to: string;
  fromNick?: string;
  /** The conversation: the peer's account id. */
  sessionId: string;
  scene: 'p2p';
  flow: 'in' | 'out';
  type: ImMessageType;
  /** Text of a text message. */
  text?: string;
  /** Payload of image, audio and custom messages (attachType, giftImg, url, …); untrusted data. */
  attach?: Record<string, unknown>;
  /** Extension (extensionType privateMsg / friendMsg, data); may arrive as a JSON string. */
  ext?: string | Record<string, unknown>;
  time: number;
  status: 'sent' | 'failed' | 'refused';
}

/** A system or custom notification (SPEC §4 System messages): `content` is parsed by the dispatch table. */
export interface ImNotification {
  idServer: string;
  from: string;
  to: string;
  time: number;
  /** Raw content as delivered: an object or a JSON string. */
  content: unknown;
}

/** A conversation (SPEC §3 Chat session). */
export interface ImConversation {
  id: string;
  /** The peer's account id. */
  to: string;
  lastMsg: ImMessage | null;
  updateTime: number;
  unread: number;
}

export type ImEvent =
  | { type: 'message'; message: ImMessage }
  | { type: 'notification'; notification: ImNotification }
  | { type: 'conversation'; conversation: ImConversation }
  /** Total unread count over all conversations changed. */
  | { type: 'unread'; total: number }
  /** The same account logged in elsewhere: this connection is closed for good. */
  | { type: 'kicked' }
  /** The link dropped; the machine decides whether and how to log in again. */
  | { type: 'disconnected'; code?: number };

export interface SendOptions {
  ext?: string | Record<string, unknown>;
  /** Reuse on a retry so the server stores the message once. */
  idClient?: string;
}

export interface ImPort {
  /** Resolves when logged in; rejects with ImError (codes of SPEC §8) otherwise. */
  login(account: string, token: string): Promise<void>;
  logout(): Promise<void>;
  /** Every event of the current and later logins; returns the unsubscribe. */
  subscribe(listener: (event: ImEvent) => void): () => void;
  /** Rejects with ImError; code 7101 when the peer refused the message. */
  sendText(to: string, text: string, options?: SendOptions): Promise<ImMessage>;
  sendCustom(to: string, attach: Record<string, unknown>, options?: SendOptions): Promise<ImMessage>;
  /** A custom system notification to a peer (not stored in the conversation). */
  sendNotification(to: string, content: Record<string, unknown>): Promise<void>;
  /** Newest first, at most `limit` (SPEC §9: up to 200). */
  conversations(limit: number): Promise<ImConversation[]>;
  markRead(conversationId: string): Promise<void>;
  /** Newest first, at most `limit`, older than `before` (ms) when given. */
  history(peer: string, options: { limit: number; before?: number }): Promise<ImMessage[]>;
  clearHistory(peer: string): Promise<void>;
  /** Heartbeat round trip (SPEC §9: every 10 s); rejects when the link is dead. */
  ping(): Promise<void>;
}
