/**
 * The live room's media (LiveMediaPort) on the browser's own WebRTC with the reference
 * server's relay (`/realtime/rtc` live channels, server/realtime/rtc.ts): the local stand-in
 * for Agora in live mode (live.agora.ts). SPEC §2 /liveRoom, §9 Video (720p, VP9).
 *
 * - `publish(channelId, account)` (host) opens camera (1280×720 ideal) and microphone — a
 *   refusal is a MediaError (webrtc.shared.ts `mediaErrorKind`) — and joins the channel as host.
 *   Every viewer offers to the host on its own peer connection (receive only); the host
 *   answers each with the same camera and microphone tracks, keeping resolution over frame
 *   rate (`degradationPreference: 'maintain-resolution'`), VP9 first. A viewer that goes
 *   (`peerLeft`) takes its connection with it.
 * - `watch(channelId, account)` (viewer) joins as audience and offers to the host when the
 *   hub names one, and again on each `hostJoined`. The host's sound plays through a detached
 *   audio element; its video is `media.remote()`.
 * - Viewer events: `firstRemoteFrame` when a frame of the host's video is decoded (a detached
 *   video element's requestVideoFrameCallback, with inbound-rtp `framesDecoded` polling as a
 *   fallback), once per host appearance; `hostJoined` whenever the host is seen in the channel
 *   after not being seen — when watching begins with the host there, when it arrives, and
 *   when it is back after a `hostLeft` (the same rule as live.agora.ts, where the SDK cannot
 *   tell a host that was already there from one that arrives, so a viewer that started
 *   watching while the host was away always hears it come); `hostLeft` when the host that was
 *   seen goes; `connectionLost` when the relay link drops, another socket takes
 *   this account's place, or the peer connection to the host fails or stays `disconnected`
 *   for `disconnectedGraceMs`. The host hears `connectionLost` when its relay link drops or is
 *   taken; one viewer's failing connection is that viewer's matter.
 * - `leave()` leaves the channel, closes every peer connection and (host) stops the camera
 *   and microphone; safe to repeat, and a publish or watch still under way when it comes
 *   opens nothing after it. One socket per room visit.
 *
 * The media, hub and peer connection plumbing it shares with the call's local adapter is in
 * webrtc.shared.ts.
 */
import type { CallMediaView } from '../../machines/ports/call.media';
import type { LiveMediaEvent, LiveMediaPort } from '../../machines/ports/live.port';
import type { LiveRole, RtcLiveJoinResult, RtcPush } from '../api/contract/realtime';
import type { HubSocket } from './hub.socket';
import { eventFanOut } from './media.events';
import { MediaViewState } from './rtc.view';
import {
  acceptAnswer, answerOn, connectionChanged, joinRelay, leaveRelay, mediaDevices, offerOn, openOwnStream, openPeerLink, OwnStream,
  parseRelay, receiveTrack, relayTo, shutPeerLink, takeCandidate, type PeerLink, type RelayOptions,
} from './webrtc.shared';

/** A live media adapter: the port the live machines use and the view the live room screen shows. */
export type LiveMediaAdapter = LiveMediaPort & { readonly media: CallMediaView };

export interface LocalLiveMediaOptions extends RelayOptions {
  /** The rtcToken of /api/index/getAgoraRtmToken, asked for at every publish and watch. */
  rtcToken(): Promise<string>;
  /** How long the viewer's connection to the host may stay `disconnected` before it counts as lost; default 5 s. */
  disconnectedGraceMs?: number;
}

/** One room visit. */
interface Room {
  role: LiveRole;
  socket: HubSocket;
  /** Host: one per viewer; viewer: the one with the host. */
  links: Map<string, PeerLink>;
  /** Pushes are handled in order per peer: a description's handling is async and candidates follow it. */
  queues: Map<string, Promise<void>>;
  /** Viewer: whether the host is seen in the channel (what decides hostJoined / hostLeft). */
  host: 'present' | 'absent';
}

const LEFT = 'The live room was left before this finished';

export function createLocalLiveMedia(options: LocalLiveMediaOptions): LiveMediaAdapter {
  const graceMs = options.disconnectedGraceMs ?? 5000;
  const events = eventFanOut<LiveMediaEvent>();
  const { emit } = events;
  const media = new MediaViewState();
  const own = new OwnStream(media);
  let room: Room | null = null;
  /** Counts leaves: a publish or watch still under way when the room is left must not open anything after it. */
  let leaves = 0;

  function closeLink(r: Room, link: PeerLink): void {
    if (link.over) return;
    if (r.links.get(link.peer) === link) r.links.delete(link.peer);
    shutPeerLink(link);
    if (r.role === 'audience') media.setRemote(null);
  }

  function closeRoom(r: Room): void {
    for (const link of [...r.links.values()]) closeLink(r, link);
    r.socket.close();
    if (room === r) room = null;
  }

  /** The viewer's connection to the media is gone: the room is over for it. */
  function lost(r: Room): void {
    if (room !== r) return;
    closeRoom(r);
    emit({ type: 'connectionLost' });
  }

  /** The connection with one viewer (host) or with the host (viewer). */
  function newLink(r: Room, peer: string): PeerLink {
    const old = r.links.get(peer);
    if (old) closeLink(r, old);
    const link = openPeerLink(peer, relayTo(r.socket, peer, options.requestTimeoutMs), {}, {
      stateChanged: (l) => stateChanged(r, l),
      ...(r.role === 'audience' ? { track: (l: PeerLink, track: MediaStreamTrack, receiver: RTCRtpReceiver) => received(r, l, track, receiver) } : {}),
    });
    r.links.set(peer, link);
    return link;
  }

  /** Viewer: a receive-only offer to the host (audio and video; VP9 first). */
  function offer(r: Room, host: string): Promise<void> {
    return offerOn(newLink(r, host), (pc) => {
      pc.addTransceiver('audio', { direction: 'recvonly' });
      pc.addTransceiver('video', { direction: 'recvonly' });
    });
  }

  /** Host: a viewer's offer is answered with the camera and microphone (a fresh offer is a fresh connection). */
  function answer(r: Room, viewer: string, description: { type: 'offer'; sdp: string }): Promise<void> {
    // The offer's receive-only slots take the tracks: the answer sends on them.
    return answerOn(newLink(r, viewer), description, (pc) => {
      const { stream } = own;
      for (const track of stream?.getTracks() ?? []) if (stream) pc.addTrack(track, stream);
    });
  }

  async function answered(r: Room, host: string, description: { type: 'answer'; sdp: string }): Promise<void> {
    const link = r.links.get(host);
    if (!link || link.remoteSet) return;
    await acceptAnswer(link, description);
  }

  function received(r: Room, link: PeerLink, track: MediaStreamTrack, receiver: RTCRtpReceiver): void {
    receiveTrack(link, track, receiver, media, () => room === r, () => emit({ type: 'firstRemoteFrame' }));
  }

  function stateChanged(r: Room, link: PeerLink): void {
    // The host's connection with one viewer failing is that viewer's matter.
    connectionChanged(link, graceMs, r.role === 'audience' ? () => lost(r) : () => closeLink(r, link));
  }

  /** Runs `task` after what is queued for `peer`, unless the room was left by then; a failure ends that peer's connection. */
  function enqueue(r: Room, peer: string, task: () => Promise<void> | void): void {
    const next = (r.queues.get(peer) ?? Promise.resolve()).then(() => (room === r ? task() : undefined)).catch(() => {
      const link = r.links.get(peer);
      if (!link) return;
      if (r.role === 'audience') lost(r);
      else closeLink(r, link);
    });
    r.queues.set(peer, next);
    void next.then(() => {
      if (r.queues.get(peer) === next) r.queues.delete(peer);
    });
  }

  /** Closes the connection with `peer` once what is queued for it is done. */
  function peerGone(r: Room, peer: string): void {
    enqueue(r, peer, () => {
      const link = r.links.get(peer);
      if (link) closeLink(r, link);
    });
  }

  /** Viewer: the host went (in order with the negotiation under way). */
  function hostGone(r: Room, host: string): void {
    peerGone(r, host);
    enqueue(r, host, () => {
      if (r.host !== 'present') return;
      r.host = 'absent';
      emit({ type: 'hostLeft' });
    });
  }

  /** Viewer: the host is there; a fresh offer to it. */
  function hostHere(r: Room, host: string): void {
    enqueue(r, host, () => {
      if (r.host === 'absent') {
        r.host = 'present';
        emit({ type: 'hostJoined' });
      }
      return offer(r, host);
    });
  }

  function pushed(r: Room, push: RtcPush): void {
    if (room !== r) return;
    switch (push.type) {
      case 'hostJoined':
        if (r.role === 'audience') hostHere(r, push.account);
        return;
      case 'hostLeft':
        if (r.role === 'audience') hostGone(r, push.account);
        return;
      case 'peerLeft':
        if (r.role === 'host') peerGone(r, push.account);
        return;
      case 'kicked':
        lost(r);
        return;
      case 'relay': {
        const data = parseRelay(push.data);
        if (!data) return;
        const { from } = push;
        if (data.kind === 'candidate') {
          enqueue(r, from, async () => {
            const link = r.links.get(from);
            if (link) await takeCandidate(link, data.candidate);
          });
          return;
        }
        const { description } = data;
        if (r.role === 'host' && description.type === 'offer') enqueue(r, from, () => answer(r, from, { type: 'offer', sdp: description.sdp }));
        else if (r.role === 'audience' && description.type === 'answer') enqueue(r, from, () => answered(r, from, { type: 'answer', sdp: description.sdp }));
        return;
      }
      case 'peerJoined':
        // Calls only.
        return;
    }
  }

  /** Joins the channel in `role` on a socket of its own; `at` is the leave count when the visit began. */
  async function enter(channelId: string, account: string, role: LiveRole, at: number): Promise<void> {
    const token = await options.rtcToken();
    if (at !== leaves) throw new Error(LEFT);
    await joinRelay<RtcLiveJoinResult, Room>(options, { channelId, account, token, role }, (socket, joined) => {
      if (at !== leaves) throw new Error(LEFT);
      const r: Room = { role, socket, links: new Map(), queues: new Map(), host: 'absent' };
      room = r;
      if (role === 'audience' && joined.host !== null) hostHere(r, joined.host);
      return r;
    }, { push: pushed, drop: lost });
  }

  async function leaveRoom(): Promise<void> {
    const r = room;
    if (!r) return;
    room = null;
    for (const link of [...r.links.values()]) closeLink(r, link);
    await leaveRelay(r.socket);
  }

  return {
    media,

    async publish(channelId, account) {
      // Counted from the call: a leave that comes while the last visit is being left cancels this one.
      const at = leaves;
      await leaveRoom();
      own.stop();
      const stream = await openOwnStream(mediaDevices(), true, () => at !== leaves, LEFT);
      own.show(stream);
      try {
        await enter(channelId, account, 'host', at);
      } catch (error) {
        // Not on the air: the camera goes off (unless a later publish owns it by now).
        if (own.stream === stream) own.stop();
        throw error;
      }
    },

    async watch(channelId, account) {
      const at = leaves;
      await leaveRoom();
      own.stop();
      await enter(channelId, account, 'audience', at);
    },

    async leave() {
      leaves += 1;
      await leaveRoom();
      own.stop();
      media.setRemote(null);
    },

    subscribe: events.subscribe,
  };
}
