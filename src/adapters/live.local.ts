/**
 * The live room's media (LiveMediaPort) on the browser's own WebRTC with the reference
 * server's relay (`/realtime/rtc` live channels, server/realtime/rtc.ts): the local stand-in
 * for Agora in live mode (live.agora.ts). SPEC §2 /liveRoom, §9 Video (720p, VP9).
 *
 * - `publish(channelId, account)` (host) opens camera (1280×720 ideal) and microphone — a
 *   refusal is a MediaError (rtc.local.ts `mediaErrorKind`) — and joins the channel as host.
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
 */
import type { CallMediaView } from '../../machines/ports/call.media';
import { MediaError } from '../../machines/ports/call.port';
import type { LiveMediaEvent, LiveMediaPort } from '../../machines/ports/live.port';
import type { LiveRole, RtcLiveJoinResult, RtcPush } from '../api/contract/realtime';
import { HubSocket, type WebSocketImpl } from './hub.socket';
import {
  framesDecoded, keepResolution, mediaConstraints, mediaErrorKind, parseRelay, playSound, preferVp9, type RelayData,
} from './rtc.local';
import { MediaViewState, watchFirstFrame } from './rtc.view';

/** A live media adapter: the port the live machines use and the view the live room screen shows. */
export type LiveMediaAdapter = LiveMediaPort & { readonly media: CallMediaView };

export interface LocalLiveMediaOptions {
  /** ws:// URL of the hub's RTC path (`hubUrl(RealtimePath.rtc)` in the browser). */
  url: string;
  /** The rtcToken of /api/index/getAgoraRtmToken, asked for at every publish and watch. */
  rtcToken(): Promise<string>;
  WebSocketImpl?: WebSocketImpl;
  /** How long the viewer's connection to the host may stay `disconnected` before it counts as lost; default 5 s. */
  disconnectedGraceMs?: number;
  requestTimeoutMs?: number;
}

/** One peer connection: the host's with one viewer, or a viewer's with the host. */
interface Link {
  peer: string;
  pc: RTCPeerConnection;
  /** Our description went out: candidates may follow it. */
  described: boolean;
  /** The peer's description is set: its candidates can be added. */
  remoteSet: boolean;
  outgoing: RTCIceCandidateInit[];
  incoming: RTCIceCandidateInit[];
  stops: (() => void)[];
  over: boolean;
  framed: boolean;
  /** Pending while the connection is `disconnected`: the lost-link timer. */
  disconnected: ReturnType<typeof setTimeout> | null;
}

/** One room visit. */
interface Room {
  role: LiveRole;
  socket: HubSocket;
  /** Host: one per viewer; viewer: the one with the host. */
  links: Map<string, Link>;
  /** Pushes are handled in order per peer: a description's handling is async and candidates follow it. */
  queues: Map<string, Promise<void>>;
  /** Viewer: whether the host is seen in the channel (what decides hostJoined / hostLeft). */
  host: 'present' | 'absent';
}

const LEAVE_TIMEOUT_MS = 2000;
const LEFT = 'The live room was left before this finished';

export function createLocalLiveMedia(options: LocalLiveMediaOptions): LiveMediaAdapter {
  const graceMs = options.disconnectedGraceMs ?? 5000;
  const listeners = new Set<(event: LiveMediaEvent) => void>();
  const media = new MediaViewState();
  let own: MediaStream | null = null;
  let room: Room | null = null;
  /** Counts leaves: a publish or watch still under way when the room is left must not open anything after it. */
  let leaves = 0;

  const emit = (event: LiveMediaEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  function closeLink(r: Room, link: Link): void {
    if (link.over) return;
    link.over = true;
    if (r.links.get(link.peer) === link) r.links.delete(link.peer);
    if (link.disconnected !== null) clearTimeout(link.disconnected);
    for (const stop of link.stops.splice(0)) stop();
    link.pc.onicecandidate = null;
    link.pc.ontrack = null;
    link.pc.onconnectionstatechange = null;
    link.pc.close();
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

  function relay(r: Room, link: Link, data: RelayData): void {
    // A relay the hub refuses means the peer is gone; `peerLeft` / `hostLeft` says so.
    r.socket.request('relay', { to: link.peer, data }, options.requestTimeoutMs).catch(() => undefined);
  }

  function sendDescription(r: Room, link: Link): void {
    const description = link.pc.localDescription;
    if (!description || (description.type !== 'offer' && description.type !== 'answer')) return;
    relay(r, link, { kind: 'description', description: { type: description.type, sdp: description.sdp } });
    link.described = true;
    for (const candidate of link.outgoing.splice(0)) relay(r, link, { kind: 'candidate', candidate });
  }

  async function addCandidates(link: Link): Promise<void> {
    for (const candidate of link.incoming.splice(0)) await link.pc.addIceCandidate(candidate).catch(() => undefined);
  }

  function newLink(r: Room, peer: string): Link {
    const old = r.links.get(peer);
    if (old) closeLink(r, old);
    const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
    const link: Link = {
      peer, pc, described: false, remoteSet: false, outgoing: [], incoming: [], stops: [], over: false, framed: false, disconnected: null,
    };
    r.links.set(peer, link);
    pc.onicecandidate = (event) => {
      if (link.over || !event.candidate) return;
      const candidate = event.candidate.toJSON();
      if (link.described) relay(r, link, { kind: 'candidate', candidate });
      else link.outgoing.push(candidate);
    };
    pc.onconnectionstatechange = () => stateChanged(r, link);
    if (r.role === 'audience') pc.ontrack = (event) => received(r, link, event.track, event.receiver);
    return link;
  }

  /** Viewer: a receive-only offer to the host (audio and video; VP9 first). */
  async function offer(r: Room, host: string): Promise<void> {
    const link = newLink(r, host);
    link.pc.addTransceiver('audio', { direction: 'recvonly' });
    link.pc.addTransceiver('video', { direction: 'recvonly' });
    preferVp9(link.pc);
    await link.pc.setLocalDescription(await link.pc.createOffer());
    if (link.over) return;
    sendDescription(r, link);
  }

  /** Host: a viewer's offer is answered with the camera and microphone (a fresh offer is a fresh connection). */
  async function answer(r: Room, viewer: string, description: { type: 'offer'; sdp: string }): Promise<void> {
    const link = newLink(r, viewer);
    await link.pc.setRemoteDescription(description);
    link.remoteSet = true;
    // The offer's receive-only slots take the tracks: the answer sends on them.
    const stream = own;
    for (const track of stream?.getTracks() ?? []) if (stream) link.pc.addTrack(track, stream);
    preferVp9(link.pc);
    await link.pc.setLocalDescription(await link.pc.createAnswer());
    if (link.over) return;
    sendDescription(r, link);
    await addCandidates(link);
    await keepResolution(link.pc);
  }

  async function answered(r: Room, host: string, description: { type: 'answer'; sdp: string }): Promise<void> {
    const link = r.links.get(host);
    if (!link || link.remoteSet) return;
    await link.pc.setRemoteDescription(description);
    link.remoteSet = true;
    await addCandidates(link);
  }

  function received(r: Room, link: Link, track: MediaStreamTrack, receiver: RTCRtpReceiver): void {
    if (link.over) return;
    if (track.kind === 'audio') {
      link.stops.push(playSound(track));
      return;
    }
    const stream = new MediaStream([track]);
    media.setRemote(stream);
    link.stops.push(watchFirstFrame(stream, () => {
      if (link.over || link.framed || room !== r) return;
      link.framed = true;
      emit({ type: 'firstRemoteFrame' });
    }, () => framesDecoded(receiver)));
  }

  function stateChanged(r: Room, link: Link): void {
    if (link.over) return;
    const state = link.pc.connectionState;
    if (link.disconnected !== null) clearTimeout(link.disconnected);
    link.disconnected = null;
    // The host's connection with one viewer failing is that viewer's matter.
    const failed = r.role === 'audience' ? () => lost(r) : () => closeLink(r, link);
    if (state === 'failed') failed();
    // ICE often recovers from a short outage by itself; only a long one is a lost link.
    else if (state === 'disconnected') link.disconnected = setTimeout(failed, graceMs);
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
            if (!link) return;
            link.incoming.push(data.candidate);
            if (link.remoteSet) await addCandidates(link);
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
    let r: Room | null = null;
    const socket: HubSocket = new HubSocket({
      url: options.url,
      WebSocketImpl: options.WebSocketImpl,
      onPush: (push) => {
        if (r) pushed(r, push as RtcPush);
      },
      onDrop: () => {
        if (r) lost(r);
      },
    });
    try {
      await socket.ready;
      const joined = await socket.request<RtcLiveJoinResult>('join', { channelId, account, token, role }, options.requestTimeoutMs);
      if (at !== leaves) throw new Error(LEFT);
      r = { role, socket, links: new Map(), queues: new Map(), host: 'absent' };
      room = r;
      if (role === 'audience' && joined.host !== null) hostHere(r, joined.host);
    } catch (error) {
      socket.close();
      throw error;
    }
  }

  async function leaveRoom(): Promise<void> {
    const r = room;
    if (!r) return;
    room = null;
    for (const link of [...r.links.values()]) closeLink(r, link);
    if (r.socket.isOpen) await r.socket.request('leave', {}, LEAVE_TIMEOUT_MS).catch(() => undefined);
    r.socket.close();
  }

  function stopOwn(): void {
    for (const track of own?.getTracks() ?? []) track.stop();
    own = null;
    media.setLocal(null);
  }

  return {
    media,

    async publish(channelId, account) {
      // Counted from the call: a leave that comes while the last visit is being left cancels this one.
      const at = leaves;
      await leaveRoom();
      stopOwn();
      const devices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
      if (!devices || typeof devices.getUserMedia !== 'function') throw new MediaError('notSupported');
      let stream: MediaStream;
      try {
        stream = await devices.getUserMedia(mediaConstraints(true));
      } catch (error) {
        throw new MediaError(mediaErrorKind(error));
      }
      if (at !== leaves) {
        // Left while the camera was opening: it goes off again at once.
        for (const track of stream.getTracks()) track.stop();
        throw new Error(LEFT);
      }
      own = stream;
      media.setLocal(stream);
      try {
        await enter(channelId, account, 'host', at);
      } catch (error) {
        // Not on the air: the camera goes off (unless a later publish owns it by now).
        if (own === stream) stopOwn();
        throw error;
      }
    },

    async watch(channelId, account) {
      const at = leaves;
      await leaveRoom();
      stopOwn();
      await enter(channelId, account, 'audience', at);
    },

    async leave() {
      leaves += 1;
      await leaveRoom();
      stopOwn();
      media.setRemote(null);
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
