/**
 * The local IM on `/realtime/im` (NetEase semantics; SPEC §3 Message and Chat session, §4
 * Message service, §8 codes). One logged-in socket per account: a second login kicks the
 * older socket (push `kicked`, close 4001). Messages and notifications are stored first
 * (im.store.ts) and pushed live when the recipient is connected; a login replays what the
 * client has not seen, then says the unread total, so nothing is lost or doubled across a
 * reconnect.
 *
 * Only the server speaks for the server: it stores system notifications (SPEC §4 attachType)
 * from SYSTEM_SENDER_ACCID, which nobody can log in as, and a client's `notify` whose content
 * reads as a system message (an attachType, however wrapped) is refused with 403.
 */
import { SYSTEM_SENDER_ACCID, systemAttachOf } from '../../machines/system-messages/system-messages';
import { TEXT_VISITOR_REFUSED } from '../../src/api/codes';
import { ImOps, HubClose, HubCode, type ImLoginResult, type ImPush } from '../../src/api/contract/realtime';
import type { ImAccounts } from './accounts';
import type { Blocks } from './blocks';
import type { ImStore } from './im.store';
import { messageView } from './im.store';
import { HubError, op, type Conn, type Service } from './wire';

export interface ImService extends Service {
  /** The socket logged in as `account`, if any. */
  connectionOf(account: string): Conn | undefined;
  /** The hub is stopping: logins are refused from now on. */
  stop(): void;
  /**
   * Hears every new text message a client sent, once it was stored and pushed (a resend of a
   * stored one is not new): the call's chat translation reads it (server/api/call-translation.ts).
   * Answers the unsubscribe.
   */
  onText(listener: (message: SentText) => void): () => void;
}

/** A new p2p text message: the sender's and the recipient's accounts and its text. */
export interface SentText {
  from: string;
  to: string;
  text: string;
}

const notLoggedIn = () => new HubError(HubCode.linkLost, 'Not logged in');

export function createImService({ store, accounts, blocks }: { store: ImStore; accounts: ImAccounts; blocks: Blocks }): ImService {
  const online = new Map<string, Conn>();
  const textListeners = new Set<(message: SentText) => void>();
  let stopping = false;

  const me = (conn: Conn): string => {
    if (!conn.account || online.get(conn.account) !== conn) throw notLoggedIn();
    return conn.account;
  };
  const push = (account: string, payload: ImPush) => online.get(account)?.push(payload);
  const pushUnread = (account: string) => push(account, { type: 'unread', total: store.unreadTotal(account) });
  const pushConversation = (owner: string, peer: string) => {
    const conversation = store.conversation(owner, peer);
    if (conversation) push(owner, { type: 'conversation', conversation });
  };

  return {
    connectionOf: (account) => online.get(account),
    stop() {
      stopping = true;
    },
    onText(listener) {
      textListeners.add(listener);
      return () => {
        textListeners.delete(listener);
      };
    },

    closed(conn) {
      if (conn.account && online.get(conn.account) === conn) online.delete(conn.account);
    },

    ops: {
      login: op(ImOps.login, (conn, { account, token, lastSeq }, ctx): ImLoginResult => {
        if (stopping) throw new HubError(HubCode.serverBusy, 'The server is restarting; log in again shortly');
        if (conn.account && conn.account !== account) {
          throw new HubError(HubCode.loginConflict, 'This socket is logged in as another account');
        }
        // The system sender has no token; refused by name all the same, whatever the accounts hold.
        const verified = account === SYSTEM_SENDER_ACCID ? undefined : accounts.verify(account, token);
        if (!verified) throw new HubError(HubCode.tokenInvalid, 'Account or token invalid');
        // SPEC §6: a visitor may log in and register only, not chat.
        if (verified.visitor) throw new HubError(HubCode.forbidden, TEXT_VISITOR_REFUSED);

        const older = online.get(account);
        if (older && older !== conn) {
          online.delete(account);
          older.push({ type: 'kicked' } satisfies ImPush);
          older.close(HubClose.kicked, 'Logged in on another connection', 'kick');
        }
        conn.account = account;
        // Logout of that session closes this socket (hub.closeSession).
        conn.session = verified.session;
        online.set(account, conn);

        if (lastSeq !== undefined) store.confirm(account, lastSeq);
        const from = lastSeq ?? store.seqs(account).delivered;
        // Read now, sent right after the reply: later messages are pushed live, after these.
        const missed = store.since(account, from);
        ctx.afterReply(() => {
          for (const item of missed) conn.push(item satisfies ImPush);
          conn.push({ type: 'unread', total: store.unreadTotal(account) } satisfies ImPush);
        });
        return { account, seq: store.seqs(account).last, time: Date.now() };
      }),

      logout: op(ImOps.logout, (conn, { lastSeq }) => {
        if (conn.account && online.get(conn.account) === conn) {
          if (lastSeq !== undefined) store.confirm(conn.account, lastSeq);
          online.delete(conn.account);
        }
        conn.account = null;
        return null;
      }),

      ack: op(ImOps.ack, (conn, { seq }) => {
        store.confirm(me(conn), seq);
        return null;
      }),

      send: op(ImOps.send, (conn, args, ctx) => {
        const from = me(conn);
        if (args.type === 'text' && !args.text) throw new HubError(HubCode.badRequest, 'A text message needs text');
        if (args.type === 'custom' && !args.attach) throw new HubError(HubCode.badRequest, 'A custom message needs attach');
        if (args.to === from) throw new HubError(HubCode.badRequest, 'Cannot send to yourself');
        // A resend of a stored message answers with it, whatever changed since (block, content).
        const stored = store.findSent(from, args.idClient);
        if (stored) return messageView(stored, from);
        const recipient = accounts.profile(args.to);
        if (!recipient) throw new HubError(HubCode.notFound, 'No such account');
        if (blocks.blocks(args.to, from)) throw new HubError(HubCode.refused, 'The recipient refused the message');
        const sender = accounts.profile(from);
        const { row, created } = store.send({
          from,
          fromNick: sender?.nick ?? from,
          to: args.to,
          idClient: args.idClient,
          type: args.type,
          text: args.type === 'text' ? args.text : undefined,
          attach: args.attach,
          ext: args.ext,
        });
        if (!created) return messageView(row, from);
        ctx.afterReply(() => {
          push(args.to, { type: 'message', seq: row.to_seq, message: messageView(row, args.to) });
          pushConversation(args.to, from);
          pushUnread(args.to);
          pushConversation(from, args.to);
          if (args.type === 'text' && args.text) for (const listener of [...textListeners]) listener({ from, to: args.to, text: args.text });
        });
        return messageView(row, from);
      }),

      notify: op(ImOps.notify, (conn, { to, content }) => {
        const from = me(conn);
        if (systemAttachOf(content)) {
          throw new HubError(HubCode.forbidden, 'System messages come only from the server: a notification from a client cannot carry an attachType');
        }
        if (!accounts.profile(to)) throw new HubError(HubCode.notFound, 'No such account');
        const item = store.notify(from, to, content);
        push(to, item);
        return null;
      }),

      conversations: op(ImOps.conversations, (conn, { limit }) => store.conversations(me(conn), limit)),

      markRead: op(ImOps.markRead, (conn, { peer }) => {
        const owner = me(conn);
        store.markRead(owner, peer);
        pushConversation(owner, peer);
        pushUnread(owner);
        return null;
      }),

      history: op(ImOps.history, (conn, { peer, limit, before }) => store.history(me(conn), peer, limit, before)),

      clearHistory: op(ImOps.clearHistory, (conn, { peer }) => {
        const owner = me(conn);
        store.clearHistory(owner, peer);
        pushConversation(owner, peer);
        pushUnread(owner);
        return null;
      }),

      ping: op(ImOps.ping, (conn) => {
        me(conn);
        return { time: Date.now() };
      }),
    },
  };
}
