/**
 * The IM's persistent state (migration 2): p2p messages, custom notifications, each
 * account's conversations and sequence numbers.
 *
 * - A message's server id is its row id. `(from, idClient)` is unique: sending again with
 *   an idClient already stored returns the stored message and changes nothing.
 * - Every message and notification gets the next number of its recipient's sequence; a
 *   client that logs in with the last number it saw is sent everything after it, in order.
 *   `delivered_seq` is the highest number a client confirmed (login, ack, logout): a login
 *   without a number starts after it (NetEase's offline messages).
 * - Message times are unique and increasing (one millisecond apart at least), so paging
 *   history by `before` never skips a message that shares a millisecond with another.
 * - Clearing history is per account: it hides older messages from that account only.
 * - System notifications (SPEC §4 attachType) are stored from SYSTEM_SENDER_ACCID only
 *   (`system`), whomever they concern: the app obeys no other sender.
 */
import type { ImConversation, ImMessage, ImNotification } from '../../machines/ports/im.port';
import { SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-sender';
import type { Db } from '../db/database';

export interface MessageRow {
  id: number;
  from_accid: string;
  to_accid: string;
  id_client: string;
  type: ImMessage['type'];
  text: string | null;
  attach: string | null;
  ext: string | null;
  from_nick: string;
  time: number;
  to_seq: number;
}

interface NotificationRow {
  id: number;
  from_accid: string;
  to_accid: string;
  content: string;
  time: number;
  to_seq: number;
}

interface ConversationRow {
  peer: string;
  update_time: number;
  unread: number;
  cleared_at: number;
  last_msg_id: number | null;
}

export interface NewMessage {
  from: string;
  fromNick: string;
  to: string;
  idClient: string;
  type: 'text' | 'custom';
  text?: string;
  attach?: Record<string, unknown>;
  ext?: string | Record<string, unknown>;
}

export type Synced =
  | { type: 'message'; seq: number; message: ImMessage }
  | { type: 'notification'; seq: number; notification: ImNotification };

/** The message as `owner` sees it (flow and sessionId depend on the side). */
export function messageView(row: MessageRow, owner: string): ImMessage {
  const out = row.from_accid === owner;
  const message: ImMessage = {
    idClient: row.id_client,
    idServer: String(row.id),
    from: row.from_accid,
    to: row.to_accid,
    fromNick: row.from_nick,
    sessionId: out ? row.to_accid : row.from_accid,
    scene: 'p2p',
    flow: out ? 'out' : 'in',
    type: row.type,
    time: row.time,
    status: 'sent',
  };
  if (row.text !== null) message.text = row.text;
  if (row.attach !== null) message.attach = JSON.parse(row.attach) as Record<string, unknown>;
  if (row.ext !== null) message.ext = JSON.parse(row.ext) as string | Record<string, unknown>;
  return message;
}

function notificationView(row: NotificationRow): ImNotification {
  return {
    idServer: `n${row.id}`,
    from: row.from_accid,
    to: row.to_accid,
    time: row.time,
    content: JSON.parse(row.content) as unknown,
  };
}

export type ImStore = ReturnType<typeof createImStore>;

export function createImStore(db: Db) {
  const q = {
    byClientId: db.prepare<[string, string], MessageRow>('SELECT * FROM im_messages WHERE from_accid = ? AND id_client = ?'),
    byId: db.prepare<[number], MessageRow>('SELECT * FROM im_messages WHERE id = ?'),
    nextSeq: db.prepare<[string], number>(
      `INSERT INTO im_accounts (accid, last_seq) VALUES (?, 1)
       ON CONFLICT (accid) DO UPDATE SET last_seq = last_seq + 1 RETURNING last_seq`,
    ).pluck(),
    seqs: db.prepare<[string], { last_seq: number; delivered_seq: number }>(
      'SELECT last_seq, delivered_seq FROM im_accounts WHERE accid = ?',
    ),
    confirm: db.prepare(
      `UPDATE im_accounts SET delivered_seq = min(last_seq, max(delivered_seq, @seq)) WHERE accid = @accid`,
    ),
    insertMessage: db.prepare(
      `INSERT INTO im_messages (from_accid, to_accid, id_client, type, text, attach, ext, from_nick, time, to_seq)
       VALUES (@from, @to, @idClient, @type, @text, @attach, @ext, @fromNick, @time, @seq)`,
    ),
    insertNotification: db.prepare(
      'INSERT INTO im_notifications (from_accid, to_accid, content, time, to_seq) VALUES (?, ?, ?, ?, ?)',
    ),
    touchConversation: db.prepare(
      `INSERT INTO im_conversations (owner, peer, last_msg_id, update_time, unread) VALUES (@owner, @peer, @id, @time, @unread)
       ON CONFLICT (owner, peer) DO UPDATE SET last_msg_id = @id, update_time = @time, unread = unread + @unread`,
    ),
    messagesSince: db.prepare<[string, number], MessageRow>(
      'SELECT * FROM im_messages WHERE to_accid = ? AND to_seq > ? ORDER BY to_seq',
    ),
    notificationsSince: db.prepare<[string, number], NotificationRow>(
      'SELECT * FROM im_notifications WHERE to_accid = ? AND to_seq > ? ORDER BY to_seq',
    ),
    conversation: db.prepare<[string, string], ConversationRow>(
      'SELECT peer, update_time, unread, cleared_at, last_msg_id FROM im_conversations WHERE owner = ? AND peer = ?',
    ),
    conversations: db.prepare<[string, number], ConversationRow>(
      `SELECT peer, update_time, unread, cleared_at, last_msg_id FROM im_conversations
        WHERE owner = ? ORDER BY update_time DESC, peer LIMIT ?`,
    ),
    unreadTotal: db.prepare<[string], number>('SELECT coalesce(sum(unread), 0) FROM im_conversations WHERE owner = ?').pluck(),
    markRead: db.prepare('UPDATE im_conversations SET unread = 0 WHERE owner = ? AND peer = ?'),
    clear: db.prepare(
      `INSERT INTO im_conversations (owner, peer, last_msg_id, update_time, unread, cleared_at) VALUES (@owner, @peer, NULL, @time, 0, @time)
       ON CONFLICT (owner, peer) DO UPDATE SET unread = 0, cleared_at = @time`,
    ),
    history: db.prepare<{ owner: string; peer: string; after: number; before: number; limit: number }, MessageRow>(
      `SELECT * FROM im_messages
        WHERE ((from_accid = @owner AND to_accid = @peer) OR (from_accid = @peer AND to_accid = @owner))
          AND time > @after AND time < @before
        ORDER BY time DESC, id DESC LIMIT @limit`,
    ),
    lastTime: db.prepare<[], number>(
      'SELECT max(coalesce((SELECT max(time) FROM im_messages), 0), coalesce((SELECT max(time) FROM im_notifications), 0))',
    ).pluck(),
  };

  let lastTime = q.lastTime.get() ?? 0;
  /** Unique, increasing times, starting after the newest stored one (a restart keeps the order). */
  const now = (): number => {
    lastTime = Math.max(Date.now(), lastTime + 1);
    return lastTime;
  };

  function conversationView(owner: string, row: ConversationRow): ImConversation {
    const last = row.last_msg_id === null ? undefined : q.byId.get(row.last_msg_id);
    return {
      id: row.peer,
      to: row.peer,
      lastMsg: last && last.time > row.cleared_at ? messageView(last, owner) : null,
      updateTime: row.update_time,
      unread: row.unread,
    };
  }

  const sendTx = db.transaction((m: NewMessage): { row: MessageRow; created: boolean } => {
    const existing = q.byClientId.get(m.from, m.idClient);
    if (existing) return { row: existing, created: false };
    const seq = q.nextSeq.get(m.to)!;
    const time = now();
    const { lastInsertRowid } = q.insertMessage.run({
      from: m.from,
      to: m.to,
      idClient: m.idClient,
      type: m.type,
      text: m.text ?? null,
      attach: m.attach === undefined ? null : JSON.stringify(m.attach),
      ext: m.ext === undefined ? null : JSON.stringify(m.ext),
      fromNick: m.fromNick,
      time,
      seq,
    });
    const id = Number(lastInsertRowid);
    q.touchConversation.run({ owner: m.from, peer: m.to, id, time, unread: 0 });
    q.touchConversation.run({ owner: m.to, peer: m.from, id, time, unread: 1 });
    return { row: q.byId.get(id)!, created: true };
  });

  const notifyTx = db.transaction((from: string, to: string, content: Record<string, unknown>): Synced => {
    const seq = q.nextSeq.get(to)!;
    const time = now();
    const { lastInsertRowid } = q.insertNotification.run(from, to, JSON.stringify(content), time, seq);
    const row: NotificationRow = { id: Number(lastInsertRowid), from_accid: from, to_accid: to, content: JSON.stringify(content), time, to_seq: seq };
    return { type: 'notification', seq, notification: notificationView(row) };
  });

  return {
    /** The message `from` sent with this idClient, if stored. */
    findSent: (from: string, idClient: string): MessageRow | undefined => q.byClientId.get(from, idClient),

    /** Stores a message once per (from, idClient); `created` is false for a resend. */
    send(m: NewMessage): { row: MessageRow; created: boolean } {
      return sendTx(m);
    },

    /** A client's custom notification (no system message: the hub refuses those from clients). */
    notify: (from: string, to: string, content: Record<string, unknown>): Synced => notifyTx(from, to, content),

    /** A system notification of SPEC §4 (attachType), always from the server's system sender. */
    system: (to: string, content: Record<string, unknown>): Synced => notifyTx(SYSTEM_SENDER_ACCID, to, content),

    /** Everything addressed to `accid` after sequence number `after`, in sequence order. */
    since(accid: string, after: number): Synced[] {
      const messages: Synced[] = q.messagesSince.all(accid, after).map((row) => ({
        type: 'message', seq: row.to_seq, message: messageView(row, accid),
      }));
      const notifications: Synced[] = q.notificationsSince.all(accid, after).map((row) => ({
        type: 'notification', seq: row.to_seq, notification: notificationView(row),
      }));
      return [...messages, ...notifications].sort((a, b) => a.seq - b.seq);
    },

    seqs(accid: string): { last: number; delivered: number } {
      const row = q.seqs.get(accid);
      return { last: row?.last_seq ?? 0, delivered: row?.delivered_seq ?? 0 };
    },

    /** A client of `accid` has everything up to `seq`. */
    confirm(accid: string, seq: number): void {
      q.confirm.run({ accid, seq });
    },

    conversation(owner: string, peer: string): ImConversation | null {
      const row = q.conversation.get(owner, peer);
      return row ? conversationView(owner, row) : null;
    },

    /** Newest first. */
    conversations: (owner: string, limit: number): ImConversation[] =>
      q.conversations.all(owner, limit).map((row) => conversationView(owner, row)),

    unreadTotal: (owner: string): number => q.unreadTotal.get(owner) ?? 0,

    markRead(owner: string, peer: string): void {
      q.markRead.run(owner, peer);
    },

    /** Newest first, older than `before` when given, never older than the account's last clear. */
    history(owner: string, peer: string, limit: number, before?: number): ImMessage[] {
      const after = q.conversation.get(owner, peer)?.cleared_at ?? 0;
      return q.history
        .all({ owner, peer, after, before: before ?? Number.MAX_SAFE_INTEGER, limit })
        .map((row) => messageView(row, owner));
    },

    /** Hides the conversation's messages so far from `owner` (the peer keeps them) and zeroes its unread count. */
    clearHistory(owner: string, peer: string): void {
      q.clear.run({ owner, peer, time: now() });
    },
  };
}
