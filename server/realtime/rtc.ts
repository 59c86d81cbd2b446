/**
 * WebRTC negotiation relay on `/realtime/rtc`: the local stand-in for Agora's media server
 * (src/adapters/rtc.local.ts is its client; SPEC §7 getAgoraRtmToken's rtcToken, §9 Video).
 * Media itself flows browser to browser; the hub only introduces the two ends of a call.
 *
 * - `join { channelId, account, token }`: the token is the rtcToken issued to the user whose
 *   yxAccid is `account`. A channel holds at most RTC_CHANNEL_LIMIT (2) members; a third is
 *   refused with 403. The reply lists the members already there: a joiner that finds one
 *   makes the offer, and that member is pushed `peerJoined` and waits for it, so the two ends
 *   never offer at once. The same account joining again from another socket takes its place
 *   (the older socket is pushed `kicked`, the other member `peerLeft`).
 * - `relay { to, data }`: hands `data` (offer, answer or ICE candidate; opaque here) to the
 *   other member of the sender's channel (404 when it is not there).
 * - `leave`, or the socket closing, removes the member and pushes `peerLeft` to the other.
 * One channel per socket.
 */
import {
  HubCode, RTC_CHANNEL_LIMIT, RtcOps, type RtcJoinResult, type RtcPush,
} from '../../src/api/contract/realtime';
import type { AgoraTokens } from './tokens';
import { HubError, op, type Conn, type Service } from './wire';

export interface RtcService extends Service {
  /** The accounts in a channel, in joining order (tests and the bench read it). */
  members(channelId: string): string[];
}

export function createRtcService({ tokens }: { tokens: Pick<AgoraTokens, 'checkRtc'> }): RtcService {
  /** channelId → account → socket. */
  const channels = new Map<string, Map<string, Conn>>();
  /** The channel each socket is in. */
  const channelOf = new Map<Conn, string>();

  function remove(conn: Conn, reason: 'left' | 'dropped'): void {
    const channelId = channelOf.get(conn);
    if (channelId === undefined) return;
    channelOf.delete(conn);
    const members = channels.get(channelId);
    const account = conn.account;
    if (!members || account === null || members.get(account) !== conn) return;
    members.delete(account);
    if (members.size === 0) channels.delete(channelId);
    for (const other of members.values()) other.push({ type: 'peerLeft', channelId, account, reason } satisfies RtcPush);
  }

  const peersOf = (channelId: string, account: string): string[] =>
    [...(channels.get(channelId)?.keys() ?? [])].filter((a) => a !== account);

  return {
    members: (channelId) => [...(channels.get(channelId)?.keys() ?? [])],

    closed(conn) {
      remove(conn, 'dropped');
    },

    ops: {
      join: op(RtcOps.join, (conn, { channelId, account, token }, ctx): RtcJoinResult => {
        const check = tokens.checkRtc(account, token);
        if (!check.ok) {
          throw check.reason === 'expired'
            ? new HubError(HubCode.tokenExpired, 'RTC token expired')
            : new HubError(HubCode.tokenInvalid, 'Account or RTC token invalid');
        }
        const current = channelOf.get(conn);
        if (current !== undefined) {
          if (current === channelId && conn.account === account) return { channelId, peers: peersOf(channelId, account) };
          throw new HubError(HubCode.forbidden, 'This socket is already in a channel: leave it first');
        }
        const members = channels.get(channelId) ?? new Map<string, Conn>();
        const older = members.get(account);
        if (!older && members.size >= RTC_CHANNEL_LIMIT) {
          throw new HubError(HubCode.forbidden, `The channel is full: a call has at most ${RTC_CHANNEL_LIMIT} members`);
        }
        if (older) {
          older.push({ type: 'kicked', channelId } satisfies RtcPush);
          remove(older, 'dropped');
        }
        conn.account = account;
        conn.userId = check.userId;
        members.set(account, conn);
        channels.set(channelId, members);
        channelOf.set(conn, channelId);
        const peers = peersOf(channelId, account);
        // After the reply: the joiner learns it is the offerer before anything can reach it.
        ctx.afterReply(() => {
          for (const peer of peers) members.get(peer)?.push({ type: 'peerJoined', channelId, account } satisfies RtcPush);
        });
        return { channelId, peers };
      }),

      relay: op(RtcOps.relay, (conn, { to, data }) => {
        const channelId = channelOf.get(conn);
        if (channelId === undefined || conn.account === null) throw new HubError(HubCode.linkLost, 'Not in a channel');
        const peer = channels.get(channelId)?.get(to);
        if (!peer || peer === conn) throw new HubError(HubCode.notFound, 'The peer is not in the channel');
        peer.push({ type: 'relay', channelId, from: conn.account, data } satisfies RtcPush);
        return null;
      }),

      leave: op(RtcOps.leave, (conn) => {
        remove(conn, 'left');
        return null;
      }),

      ping: op(RtcOps.ping, () => ({ time: Date.now() })),
    },
  };
}
