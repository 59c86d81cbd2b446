/**
 * WebRTC negotiation relay on `/realtime/rtc`: the local stand-in for Agora's media server
 * (src/adapters/rtc.local.ts and live.local.ts are its clients; SPEC §7 getAgoraRtmToken's
 * rtcToken, §9 Video). Media itself flows browser to browser; the hub only introduces the
 * ends to each other. A channel is a call's or a live room's from its first join to its
 * last leave; the other kind of join is refused with 403.
 *
 * Admission follows the database (channels.ts), not who came first: a call's channel admits
 * its caller and callee only, while the call rings or is in progress; a live channel admits as
 * its host only the host whose room it is, and anyone as audience, while the room is live.
 * Everything else is refused with 403 and a reason, so nobody can take a host's place in her
 * live or hold her channel against her, nor listen in on a call.
 *
 * Calls (`join { channelId, account, token }`): the token is the rtcToken issued to the user
 * whose yxAccid is `account`. A channel holds at most RTC_CHANNEL_LIMIT (2) members; a third
 * is refused with 403. The reply lists the members already there, and that member is pushed
 * `peerJoined`: it offers (an offer it made as it joined), and the joiner that found it waits
 * for that offer, so the two ends never offer at once. A member alone in a call's channel may
 * `post` its offer and candidates ahead: the hub keeps them (at most RTC_POST_LIMIT; more is
 * refused with 403) and hands them to the next joiner in its join reply (`waiting`); a post once
 * the other member is there is relayed to it. What a member kept goes when it leaves.
 *
 * Live rooms (`join { channelId, account, token, role }`, same token check): one host
 * (another account joining as host is refused with 403) and up to LIVE_AUDIENCE_LIMIT viewers
 * (then 403). A viewer's reply names the host when it is there: the viewer offers to it (one
 * peer connection per viewer). The host joining pushes `hostJoined` to every viewer (who
 * offers again), the host leaving `hostLeft`; a viewer leaving is `peerLeft` for the host
 * only. Viewers are never told about each other.
 *
 * - `relay { to, data }`: hands `data` (offer, answer or ICE candidate; opaque here) to another
 *   member of the sender's channel (404 when it is not there). In a live room a viewer relays
 *   to the host only (403 otherwise, 404 while there is no host); the host to any viewer.
 * - `leave`, or the socket closing, removes the member and tells the others as above.
 * - The same account joining again from another socket takes its place (the older socket is
 *   pushed `kicked`, the others hear that it left). One channel per socket.
 */
import {
  HubCode, LIVE_AUDIENCE_LIMIT, RTC_CHANNEL_LIMIT, RTC_POST_LIMIT, RtcOps, type LiveRole, type RtcJoinResult,
  type RtcLiveJoinResult, type RtcPosted, type RtcPush,
} from '../../src/api/contract/realtime';
import type { ChannelLookup } from './channels';
import type { AgoraTokens } from './tokens';
import { HubError, op, type Conn, type Service } from './wire';

export interface RtcService extends Service {
  /** The accounts in a channel, in joining order (tests and the bench read it). */
  members(channelId: string): string[];
}

export interface RtcServiceOptions {
  tokens: Pick<AgoraTokens, 'checkRtc'>;
  /** Whose each channel is (the calls and live rooms of the database). */
  channels: ChannelLookup;
  /** Viewers a live channel holds besides its host; default LIVE_AUDIENCE_LIMIT. */
  liveAudienceLimit?: number;
}

interface Channel {
  kind: 'call' | 'live';
  /** account → socket, in joining order. */
  members: Map<string, Conn>;
  /** Live: the host's account while it is in the channel. */
  host: string | null;
  /** Call: what its one member posted for whoever joins next (`post`), oldest first. */
  waiting: RtcPosted[];
}

export function createRtcService({ tokens, channels: owners, liveAudienceLimit = LIVE_AUDIENCE_LIMIT }: RtcServiceOptions): RtcService {
  const channels = new Map<string, Channel>();
  /** The channel each socket is in. */
  const channelOf = new Map<Conn, string>();

  const viewersOf = (channel: Channel): Conn[] =>
    [...channel.members].filter(([account]) => account !== channel.host).map(([, conn]) => conn);

  /** The channel `conn` is in, and its account there; refused when it is in none. */
  function memberOf(conn: Conn): { channelId: string; channel: Channel; from: string } {
    const channelId = channelOf.get(conn);
    const channel = channelId === undefined ? undefined : channels.get(channelId);
    if (channelId === undefined || !channel || conn.account === null) throw new HubError(HubCode.linkLost, 'Not in a channel');
    return { channelId, channel, from: conn.account };
  }

  function remove(conn: Conn, reason: 'left' | 'dropped'): void {
    const channelId = channelOf.get(conn);
    if (channelId === undefined) return;
    channelOf.delete(conn);
    const channel = channels.get(channelId);
    const account = conn.account;
    if (!channel || account === null || channel.members.get(account) !== conn) return;
    channel.members.delete(account);
    channel.waiting = channel.waiting.filter((posted) => posted.from !== account);
    if (channel.members.size === 0) channels.delete(channelId);
    if (channel.kind === 'call') {
      for (const other of channel.members.values()) other.push({ type: 'peerLeft', channelId, account, reason } satisfies RtcPush);
    } else if (channel.host === account) {
      channel.host = null;
      for (const viewer of channel.members.values()) viewer.push({ type: 'hostLeft', channelId, account, reason } satisfies RtcPush);
    } else if (channel.host !== null) {
      channel.members.get(channel.host)?.push({ type: 'peerLeft', channelId, account, reason } satisfies RtcPush);
    }
  }

  const peersOf = (channelId: string, account: string): string[] =>
    [...(channels.get(channelId)?.members.keys() ?? [])].filter((a) => a !== account);

  const roleIn = (channel: Channel | undefined, account: string): LiveRole | undefined =>
    channel?.kind !== 'live' ? undefined : channel.host === account ? 'host' : 'audience';

  /** Refuses a join the database does not allow: only a call's parties while it is open; only a live room's host publishes, anyone watches while it is live. */
  function belongs(channelId: string, account: string, role: LiveRole | undefined): void {
    if (role === undefined) {
      const call = owners.call(channelId);
      if (!call) throw new HubError(HubCode.forbidden, 'No call has this channel');
      if (!call.parties.includes(account)) throw new HubError(HubCode.forbidden, "Only the call's two parties may join its channel");
      if (!call.open) throw new HubError(HubCode.forbidden, 'This call has ended');
      return;
    }
    const live = owners.live(channelId);
    if (!live) throw new HubError(HubCode.forbidden, 'No live room has this channel');
    if (role === 'host' && live.host !== account) throw new HubError(HubCode.forbidden, 'Only the host of this live room may publish in it');
    if (!live.live) throw new HubError(HubCode.forbidden, 'This live has ended');
  }

  /** Refuses a join that the channel's kind or limits do not allow. */
  function admit(channel: Channel | undefined, account: string, role: LiveRole | undefined): void {
    if (!channel) return;
    const rejoining = channel.members.has(account);
    if (channel.kind === 'call') {
      if (role !== undefined) throw new HubError(HubCode.forbidden, 'This channel is a call, not a live room');
      if (!rejoining && channel.members.size >= RTC_CHANNEL_LIMIT) {
        throw new HubError(HubCode.forbidden, `The channel is full: a call has at most ${RTC_CHANNEL_LIMIT} members`);
      }
      return;
    }
    if (role === undefined) throw new HubError(HubCode.forbidden, 'This channel is a live room: join it as host or audience');
    if (role === 'host' && channel.host !== null && channel.host !== account) {
      throw new HubError(HubCode.forbidden, 'This live room already has a host');
    }
    const viewers = channel.members.size - (channel.host === null ? 0 : 1);
    if (role === 'audience' && !rejoining && viewers >= liveAudienceLimit) {
      throw new HubError(HubCode.forbidden, `The live room is full: at most ${liveAudienceLimit} viewers`);
    }
  }

  return {
    members: (channelId) => [...(channels.get(channelId)?.members.keys() ?? [])],

    closed(conn) {
      remove(conn, 'dropped');
    },

    ops: {
      join: op(RtcOps.join, (conn, { channelId, account, token, role }, ctx): RtcJoinResult | RtcLiveJoinResult => {
        const check = tokens.checkRtc(account, token);
        if (!check.ok) {
          throw check.reason === 'expired'
            ? new HubError(HubCode.tokenExpired, 'RTC token expired')
            : new HubError(HubCode.tokenInvalid, 'Account or RTC token invalid');
        }
        const current = channelOf.get(conn);
        if (current !== undefined) {
          const channel = channels.get(current);
          if (current === channelId && conn.account === account && roleIn(channel, account) === role) {
            return role === undefined ? { channelId, peers: peersOf(channelId, account), waiting: [] } : { channelId, role, host: channel?.host ?? null };
          }
          throw new HubError(HubCode.forbidden, 'This socket is already in a channel: leave it first');
        }
        belongs(channelId, account, role);
        admit(channels.get(channelId), account, role);
        const older = channels.get(channelId)?.members.get(account);
        if (older) {
          older.push({ type: 'kicked', channelId } satisfies RtcPush);
          remove(older, 'dropped');
        }
        // After `remove`, which drops a channel it empties.
        const channel: Channel = channels.get(channelId) ?? { kind: role === undefined ? 'call' : 'live', members: new Map(), host: null, waiting: [] };
        conn.account = account;
        conn.userId = check.userId;
        // The rtc token's session: its logout closes this socket (hub.closeSession).
        conn.session = check.session;
        channel.members.set(account, conn);
        channels.set(channelId, channel);
        channelOf.set(conn, channelId);

        if (role === undefined) {
          const peers = peersOf(channelId, account);
          // What the member there posted is this joiner's (a poster rejoining took its own away as
          // its older socket was removed above).
          const { waiting } = channel;
          channel.waiting = [];
          // After the reply: the joiner knows its peer before that peer's offer can reach it.
          ctx.afterReply(() => {
            for (const peer of peers) channel.members.get(peer)?.push({ type: 'peerJoined', channelId, account } satisfies RtcPush);
          });
          return { channelId, peers, waiting };
        }
        if (role === 'host') {
          channel.host = account;
          const viewers = viewersOf(channel);
          // After the reply: the host is ready for the offers that `hostJoined` sets off.
          ctx.afterReply(() => {
            for (const viewer of viewers) viewer.push({ type: 'hostJoined', channelId, account } satisfies RtcPush);
          });
        }
        return { channelId, role, host: channel.host };
      }),

      relay: op(RtcOps.relay, (conn, { to, data }) => {
        const { channelId, channel, from } = memberOf(conn);
        if (channel.kind === 'live' && from !== channel.host) {
          if (channel.host === null) throw new HubError(HubCode.notFound, 'The host is not in the live room');
          if (to !== channel.host) throw new HubError(HubCode.forbidden, 'In a live room a viewer relays to the host only');
        }
        const peer = channel.members.get(to);
        if (!peer || peer === conn) throw new HubError(HubCode.notFound, 'The peer is not in the channel');
        peer.push({ type: 'relay', channelId, from, data } satisfies RtcPush);
        return null;
      }),

      post: op(RtcOps.post, (conn, { data }) => {
        const { channelId, channel, from } = memberOf(conn);
        if (channel.kind !== 'call') throw new HubError(HubCode.forbidden, 'In a live room, relay to one member');
        const peer = [...channel.members].find(([account]) => account !== from)?.[1];
        if (peer) {
          peer.push({ type: 'relay', channelId, from, data } satisfies RtcPush);
          return null;
        }
        if (channel.waiting.length >= RTC_POST_LIMIT) {
          throw new HubError(HubCode.forbidden, `At most ${RTC_POST_LIMIT} posts are kept for a member not yet here`);
        }
        channel.waiting.push({ from, data });
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
