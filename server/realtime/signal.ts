/**
 * Call signalling on `/realtime/signal` (the local stand-in for Agora RTM; SPEC §3 Call
 * enums: signalling actions, §4 Call status). Login is the user's yxAccid with the rtm
 * token of /api/index/getAgoraRtmToken. One socket per account: a second login kicks the
 * older one (push `kicked`, close 4001). A signal goes only to a peer that is connected
 * now (404 otherwise: the caller decides what an unreachable peer means); each carries a
 * unique id so a redelivered one is recognised.
 *
 * A signal goes only between the two parties of the call whose channel it names (every call
 * signal of the app does: a call, from the home list or from a live room, exists through
 * createCall before its first ring); any other is refused with 403, ended calls included in
 * the pair's own (a hang-up is signalled after endCall). The signals a party sends are heard
 * (`onSent`) before they are passed on, delivered or not: who ended a call is the party whose end
 * reached the server first, and a ring that found no connection of the callee is a call she
 * could not take (src/api/contract/call.ts).
 */
import { randomUUID } from 'node:crypto';
import type { CallSignal } from '../../machines/ports/signalling.port';
import { HubClose, HubCode, SignalOps, type SignalPush } from '../../src/api/contract/realtime';
import type { ChannelLookup } from './channels';
import type { AgoraTokens } from './tokens';
import { HubError, op, type Conn, type Service } from './wire';

export interface SignalService extends Service {
  isOnline(account: string): boolean;
  /**
   * A signal the server sends on a party's behalf (a call the server ended: server/api/billing.ts);
   * false when `to` is not connected. The payload should say so (`byServer: true`).
   */
  deliver(from: string, to: string, signal: Pick<CallSignal, 'action' | 'channelId' | 'payload'>): boolean;
  /**
   * Hears every signal a party sends between the two parties of a call, before it is passed on,
   * with whether the peer was there to take it (the call engine reads the ends and the rings that
   * found nobody from it: server/api/billing.ts). Answers the unsubscribe.
   */
  onSent(listener: (sent: SentSignal) => void): () => void;
}

/** A signal a logged-in party sent to the other party of a call (`from`: the sender's account, as its socket logged in). */
export interface SentSignal extends Pick<CallSignal, 'action' | 'channelId' | 'from' | 'to' | 'payload'> {
  /** The peer was connected, so the signal was passed on. */
  delivered: boolean;
}

export function createSignalService({ tokens, channels }: { tokens: AgoraTokens; channels: Pick<ChannelLookup, 'call'> }): SignalService {
  const online = new Map<string, Conn>();
  const listeners = new Set<(sent: SentSignal) => void>();

  const me = (conn: Conn): string => {
    if (!conn.account || online.get(conn.account) !== conn) throw new HubError(HubCode.linkLost, 'Not logged in');
    return conn.account;
  };

  const signalOf = (from: string, to: string, { action, channelId, payload }: Pick<CallSignal, 'action' | 'channelId' | 'payload'>): CallSignal => ({
    id: randomUUID(),
    action,
    channelId,
    from,
    to,
    time: Date.now(),
    ...(payload !== undefined ? { payload } : {}),
  });

  return {
    isOnline: (account) => online.has(account),

    onSent(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },

    deliver(from, to, signal) {
      const peer = online.get(to);
      if (!peer) return false;
      peer.push({ type: 'signal', signal: signalOf(from, to, signal) } satisfies SignalPush);
      return true;
    },

    closed(conn) {
      if (conn.account && online.get(conn.account) === conn) online.delete(conn.account);
    },

    ops: {
      login: op(SignalOps.login, (conn, { account, token }) => {
        if (conn.account && conn.account !== account) {
          throw new HubError(HubCode.loginConflict, 'This socket is logged in as another account');
        }
        const check = tokens.checkRtm(account, token);
        if (!check.ok) {
          throw check.reason === 'expired'
            ? new HubError(HubCode.tokenExpired, 'RTM token expired')
            : new HubError(HubCode.tokenInvalid, 'Account or RTM token invalid');
        }
        const older = online.get(account);
        if (older && older !== conn) {
          older.push({ type: 'kicked' } satisfies SignalPush);
          older.close(HubClose.kicked, 'Logged in on another connection', 'kick');
        }
        conn.account = account;
        conn.userId = check.userId;
        // The rtm token's session: its logout closes this socket (hub.closeSession).
        conn.session = check.session;
        online.set(account, conn);
        return { account };
      }),

      logout: op(SignalOps.logout, (conn) => {
        if (conn.account && online.get(conn.account) === conn) online.delete(conn.account);
        conn.account = null;
        return null;
      }),

      send: op(SignalOps.send, (conn, { to, action, channelId, payload }) => {
        const from = me(conn);
        const parties = channels.call(channelId)?.parties;
        if (!parties || from === to || !parties.includes(from) || !parties.includes(to)) {
          throw new HubError(HubCode.forbidden, 'A signal goes only between the two parties of the call it names');
        }
        const peer = online.get(to);
        // Heard before it is passed on: the server records an end before the peer can answer it.
        for (const listener of [...listeners]) listener({ action, channelId, from, to, payload, delivered: peer !== undefined });
        if (!peer) throw new HubError(HubCode.notFound, 'The peer is not connected');
        const signal = signalOf(from, to, { action, channelId, payload });
        peer.push({ type: 'signal', signal } satisfies SignalPush);
        return signal;
      }),

      ping: op(SignalOps.ping, (conn) => {
        me(conn);
        return { time: Date.now() };
      }),
    },
  };
}
