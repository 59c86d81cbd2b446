/**
 * The RTC port on the browser's own WebRTC with the reference server's relay
 * (`/realtime/rtc`, server/realtime/rtc.ts): the local stand-in for Agora RTC (rtc.agora.ts).
 * SPEC §3 media error texts, §9 Video (720p, VP9).
 *
 * - `prepare(video)` opens camera (1280×720 ideal) and microphone; a refusal is a MediaError
 *   whose kind comes from the DOMException's name (`mediaErrorKind`).
 * - `join(channelId, account)` joins the relay's channel with the rtcToken (`options.rtcToken`).
 *   The negotiation rule (`offerTo`): whoever joins second finds the other in the join answer
 *   and offers; the first is pushed `peerJoined` and answers. The hub orders joins, so the two
 *   ends never offer at once. No ICE servers: host candidates only (loopback / LAN).
 * - The video sender keeps its resolution (`degradationPreference: 'maintain-resolution'`);
 *   VP9 is preferred when the browser has it.
 * - Events: `firstRemoteFrame` when the peer's first video frame is decoded (a detached
 *   video element's requestVideoFrameCallback, with inbound-rtp `framesDecoded` polling as a
 *   fallback: rtc.view.ts `watchFirstFrame`); `remoteLeft` on the relay's `peerLeft` or the peer's track ending;
 *   `connectionLost` when the peer connection fails, stays disconnected for
 *   `disconnectedGraceMs`, or the relay link drops; `networkQuality` (Agora's 0–6 scale) from
 *   round-trip time and packet loss, when it changes.
 * - `leave()` leaves the channel, closes the peer connection and stops the camera and
 *   microphone (the camera light goes off).
 * - `media` (CallMediaView): the own stream and the peer's video; the peer's sound is played
 *   by a detached audio element here.
 */
import type { RtcAdapter } from '../../machines/ports/call.media';
import { MediaError, type MediaErrorKind, type RtcEvent } from '../../machines/ports/call.port';
import type { RtcJoinResult, RtcPush } from '../api/contract/realtime';
import { HubSocket, type WebSocketImpl } from './hub.socket';
import { MediaViewState, watchFirstFrame } from './rtc.view';

export interface LocalRtcOptions {
  /** ws:// URL of the hub's RTC path (`hubUrl(RealtimePath.rtc)` in the browser). */
  url: string;
  /** The rtcToken of /api/index/getAgoraRtmToken, asked for at every join. */
  rtcToken(): Promise<string>;
  WebSocketImpl?: WebSocketImpl;
  /** How long the peer connection may stay `disconnected` before the link counts as lost; default 5 s. */
  disconnectedGraceMs?: number;
  /** How often the network quality is measured; default 2 s. */
  qualityIntervalMs?: number;
  requestTimeoutMs?: number;
}

/** SPEC §9 "720p encoder": the camera is asked for 1280×720 (ideal, so a smaller camera still works). */
export const CAMERA_720P = {
  width: { ideal: 1280 },
  height: { ideal: 720 },
  frameRate: { ideal: 30, max: 30 },
} as const satisfies MediaTrackConstraints;

export function mediaConstraints(video: boolean): MediaStreamConstraints {
  return {
    audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    video: video ? CAMERA_720P : false,
  };
}

/**
 * The SPEC §3 media error of a getUserMedia failure, by the error's name (current names and
 * the older Chrome ones). A device that exists but cannot be read (in use elsewhere, a
 * hardware fault) counts as not found: the person has to free or plug in a camera either way.
 */
export function mediaErrorKind(error: unknown): MediaErrorKind {
  const name = error !== null && typeof error === 'object' && 'name' in error ? String(error.name) : '';
  switch (name) {
    // InvalidStateError: the document is not fully active (a frame being torn down), so no permission can be asked.
    case 'NotAllowedError':
    case 'PermissionDeniedError':
    case 'PermissionDismissedError':
    case 'SecurityError':
    case 'InvalidStateError':
      return 'permissionDenied';
    case 'NotFoundError':
    case 'DevicesNotFoundError':
    case 'NotReadableError':
    case 'TrackStartError':
    case 'AbortError':
      return 'deviceNotFound';
    case 'OverconstrainedError':
    case 'ConstraintNotSatisfiedError':
      return 'constraintNotSatisfied';
    // getUserMedia's TypeError: constraints it cannot use (e.g. neither audio nor video).
    case 'TypeError':
      return 'optionInvalid';
    default:
      return 'notSupported';
  }
}

/** The negotiation rule: the member who found the other already in the channel offers to it; otherwise nobody yet. */
export function offerTo(joined: RtcJoinResult): string | null {
  return joined.peers[0] ?? null;
}

/**
 * Agora's network quality scale from what WebRTC measures: 0 unknown, 1 excellent … 5 very
 * bad, 6 down; the worse of round-trip time and packet loss decides.
 */
export function networkQuality(sample: { rttMs?: number; lossRate?: number }): number {
  const { rttMs, lossRate } = sample;
  if (rttMs === undefined && lossRate === undefined) return 0;
  const byRtt = rttMs === undefined ? 1 : rttMs < 100 ? 1 : rttMs < 200 ? 2 : rttMs < 400 ? 3 : rttMs < 800 ? 4 : rttMs < 1500 ? 5 : 6;
  const byLoss = lossRate === undefined ? 1 : lossRate < 0.01 ? 1 : lossRate < 0.03 ? 2 : lossRate < 0.08 ? 3 : lossRate < 0.15 ? 4 : lossRate < 0.3 ? 5 : 6;
  return Math.max(byRtt, byLoss);
}

/** What the two ends relay to each other (untrusted on arrival: `parseRelay`). */
export type RelayData =
  | { kind: 'description'; description: { type: 'offer' | 'answer'; sdp: string } }
  | { kind: 'candidate'; candidate: RTCIceCandidateInit };

export function parseRelay(data: unknown): RelayData | null {
  if (typeof data !== 'object' || data === null) return null;
  const { kind, description, candidate } = data as Record<string, unknown>;
  if (kind === 'description' && typeof description === 'object' && description !== null) {
    const { type, sdp } = description as Record<string, unknown>;
    if ((type === 'offer' || type === 'answer') && typeof sdp === 'string') return { kind, description: { type, sdp } };
  }
  if (kind === 'candidate' && typeof candidate === 'object' && candidate !== null) {
    const c = candidate as Record<string, unknown>;
    if (typeof c.candidate !== 'string') return null;
    return {
      kind,
      candidate: {
        candidate: c.candidate,
        sdpMid: typeof c.sdpMid === 'string' ? c.sdpMid : null,
        sdpMLineIndex: typeof c.sdpMLineIndex === 'number' ? c.sdpMLineIndex : null,
        ...(typeof c.usernameFragment === 'string' ? { usernameFragment: c.usernameFragment } : {}),
      },
    };
  }
  return null;
}

/** One peer connection with one peer. */
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
  measuring: boolean;
  quality: number;
  /** Pending while the connection is `disconnected`: the lost-link timer. */
  disconnected: ReturnType<typeof setTimeout> | null;
}

/** One joined channel. */
interface Call {
  channelId: string;
  socket: HubSocket;
  link: Link | null;
  /** Pushes are handled one after another: an offer's handling is async and candidates follow it. */
  queue: Promise<void>;
}

const LEAVE_TIMEOUT_MS = 2000;
const LEFT = 'The call was left before this finished';

export function createLocalRtcPort(options: LocalRtcOptions): RtcAdapter {
  const graceMs = options.disconnectedGraceMs ?? 5000;
  const qualityMs = options.qualityIntervalMs ?? 2000;
  const listeners = new Set<(event: RtcEvent) => void>();
  const media = new MediaViewState();
  let own: MediaStream | null = null;
  let call: Call | null = null;
  /** Counts leaves: a prepare or join still under way when the call is left must not open anything after it. */
  let leaves = 0;

  const emit = (event: RtcEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  function closeLink(c: Call): void {
    const link = c.link;
    if (!link) return;
    c.link = null;
    link.over = true;
    if (link.disconnected !== null) clearTimeout(link.disconnected);
    for (const stop of link.stops.splice(0)) stop();
    link.pc.onicecandidate = null;
    link.pc.ontrack = null;
    link.pc.onconnectionstatechange = null;
    link.pc.close();
    media.setRemote(null);
  }

  /** The link ends with `event` (once; nothing after it is reported for that link). */
  function linkOver(c: Call, link: Link, event: RtcEvent): void {
    if (link.over || c.link !== link) return;
    closeLink(c);
    emit(event);
  }

  function closeCall(c: Call): void {
    closeLink(c);
    c.socket.close();
    if (call === c) call = null;
  }

  function relay(c: Call, link: Link, data: RelayData): void {
    // A relay the hub refuses means the peer is gone; `peerLeft` says so.
    c.socket.request('relay', { to: link.peer, data }, options.requestTimeoutMs).catch(() => undefined);
  }

  function sendDescription(c: Call, link: Link): void {
    const description = link.pc.localDescription;
    if (!description || (description.type !== 'offer' && description.type !== 'answer')) return;
    relay(c, link, { kind: 'description', description: { type: description.type, sdp: description.sdp } });
    link.described = true;
    for (const candidate of link.outgoing.splice(0)) relay(c, link, { kind: 'candidate', candidate });
  }

  async function addCandidates(link: Link): Promise<void> {
    for (const candidate of link.incoming.splice(0)) await link.pc.addIceCandidate(candidate).catch(() => undefined);
  }

  function newLink(c: Call, peer: string): Link {
    closeLink(c);
    const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
    const link: Link = {
      peer, pc, described: false, remoteSet: false, outgoing: [], incoming: [], stops: [],
      over: false, framed: false, measuring: false, quality: 0, disconnected: null,
    };
    c.link = link;
    pc.onicecandidate = (event) => {
      if (link.over || !event.candidate) return;
      const candidate = event.candidate.toJSON();
      if (link.described) relay(c, link, { kind: 'candidate', candidate });
      else link.outgoing.push(candidate);
    };
    pc.ontrack = (event) => received(c, link, event.track, event.receiver);
    pc.onconnectionstatechange = () => stateChanged(c, link);
    return link;
  }

  /** The own tracks into the link, and a receive-only slot for a kind we do not send (an audio call still hears video). */
  function addOwnTracks(link: Link): void {
    const sent = new Set<string>();
    if (own) {
      for (const track of own.getTracks()) {
        link.pc.addTrack(track, own);
        sent.add(track.kind);
      }
    }
    for (const kind of ['audio', 'video'] as const) {
      const has = link.pc.getTransceivers().some((t) => t.receiver.track.kind === kind);
      if (!sent.has(kind) && !has) link.pc.addTransceiver(kind, { direction: 'recvonly' });
    }
    preferVp9(link.pc);
  }

  async function makeOffer(c: Call, peer: string): Promise<void> {
    const link = newLink(c, peer);
    addOwnTracks(link);
    await link.pc.setLocalDescription(await link.pc.createOffer());
    if (link.over) return;
    sendDescription(c, link);
  }

  async function described(c: Call, from: string, description: { type: 'offer' | 'answer'; sdp: string }): Promise<void> {
    if (description.type === 'offer') {
      // A fresh offer is a fresh link: the peer (re)joined.
      const link = newLink(c, from);
      await link.pc.setRemoteDescription(description);
      link.remoteSet = true;
      addOwnTracks(link);
      await link.pc.setLocalDescription(await link.pc.createAnswer());
      if (link.over) return;
      sendDescription(c, link);
      await addCandidates(link);
      await keepResolution(link.pc);
      return;
    }
    const link = c.link;
    if (!link || link.peer !== from || link.remoteSet) return;
    await link.pc.setRemoteDescription(description);
    link.remoteSet = true;
    await addCandidates(link);
    await keepResolution(link.pc);
  }

  function received(c: Call, link: Link, track: MediaStreamTrack, receiver: RTCRtpReceiver): void {
    if (link.over) return;
    const ended = () => linkOver(c, link, { type: 'remoteLeft' });
    track.addEventListener('ended', ended);
    link.stops.push(() => track.removeEventListener('ended', ended));
    if (track.kind === 'audio') {
      link.stops.push(playSound(track));
      return;
    }
    const stream = new MediaStream([track]);
    media.setRemote(stream);
    link.stops.push(watchFirstFrame(stream, () => {
      if (link.over || link.framed) return;
      link.framed = true;
      emit({ type: 'firstRemoteFrame' });
    }, () => framesDecoded(receiver)));
  }

  function stateChanged(c: Call, link: Link): void {
    if (link.over) return;
    const state = link.pc.connectionState;
    if (link.disconnected !== null) clearTimeout(link.disconnected);
    link.disconnected = null;
    if (state === 'failed') {
      linkOver(c, link, { type: 'connectionLost' });
    } else if (state === 'disconnected') {
      // ICE often recovers from a short outage by itself; only a long one is a lost link.
      link.disconnected = setTimeout(() => linkOver(c, link, { type: 'connectionLost' }), graceMs);
    } else if (state === 'connected' && !link.measuring) {
      link.measuring = true;
      link.stops.push(watchQuality(link));
    }
  }

  function watchQuality(link: Link): () => void {
    let last = { lost: 0, received: 0 };
    const timer = setInterval(() => {
      void link.pc.getStats().then((report) => {
        if (link.over) return;
        const sample = sampleOf(report, last);
        last = sample.totals;
        const quality = networkQuality(sample);
        if (quality !== link.quality) {
          link.quality = quality;
          emit({ type: 'networkQuality', quality });
        }
      }, () => undefined);
    }, qualityMs);
    return () => clearInterval(timer);
  }

  function pushed(c: Call, push: RtcPush): void {
    if (call !== c) return;
    switch (push.type) {
      case 'peerJoined':
        // The newcomer offers (offerTo); this end waits for it.
        return;
      case 'peerLeft':
        if (c.link?.peer === push.account) linkOver(c, c.link, { type: 'remoteLeft' });
        return;
      case 'kicked':
        lost(c);
        return;
      case 'relay': {
        const data = parseRelay(push.data);
        if (!data) return;
        if (data.kind === 'description') {
          c.queue = c.queue.then(() => described(c, push.from, data.description)).catch(() => {
            if (c.link) linkOver(c, c.link, { type: 'connectionLost' });
          });
          return;
        }
        c.queue = c.queue.then(async () => {
          const link = c.link;
          if (!link || link.peer !== push.from) return;
          link.incoming.push(data.candidate);
          if (link.remoteSet) await addCandidates(link);
        }).catch(() => undefined);
        return;
      }
    }
  }

  /** The relay link dropped (or another socket took this account's place): the call's media link is gone. */
  function lost(c: Call): void {
    if (call !== c) return;
    closeCall(c);
    emit({ type: 'connectionLost' });
  }

  async function leaveCall(): Promise<void> {
    const c = call;
    if (!c) return;
    call = null;
    closeLink(c);
    if (c.socket.isOpen) await c.socket.request('leave', {}, LEAVE_TIMEOUT_MS).catch(() => undefined);
    c.socket.close();
  }

  function stopOwn(): void {
    for (const track of own?.getTracks() ?? []) track.stop();
    own = null;
    media.setLocal(null);
  }

  return {
    media,

    async prepare(video) {
      const devices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
      if (!devices || typeof devices.getUserMedia !== 'function') throw new MediaError('notSupported');
      stopOwn();
      const at = leaves;
      let stream: MediaStream;
      try {
        stream = await devices.getUserMedia(mediaConstraints(video));
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
    },

    async join(channelId, account) {
      await leaveCall();
      const at = leaves;
      const token = await options.rtcToken();
      if (at !== leaves) throw new Error(LEFT);
      let c: Call | null = null;
      const socket: HubSocket = new HubSocket({
        url: options.url,
        WebSocketImpl: options.WebSocketImpl,
        onPush: (push) => {
          if (c) pushed(c, push as RtcPush);
        },
        onDrop: () => {
          if (c) lost(c);
        },
      });
      try {
        await socket.ready;
        const joined = await socket.request<RtcJoinResult>('join', { channelId, account, token }, options.requestTimeoutMs);
        if (at !== leaves) throw new Error(LEFT);
        c = { channelId, socket, link: null, queue: Promise.resolve() };
        call = c;
        const peer = offerTo(joined);
        if (peer !== null) {
          const current = c;
          current.queue = current.queue.then(() => makeOffer(current, peer)).catch(() => {
            if (current.link) linkOver(current, current.link, { type: 'connectionLost' });
          });
        }
      } catch (error) {
        socket.close();
        throw error;
      }
    },

    async leave() {
      leaves += 1;
      await leaveCall();
      stopOwn();
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** VP9 first (SPEC §9) where the browser can send and receive it; the rest stay as fallbacks. */
export function preferVp9(pc: RTCPeerConnection): void {
  const codecs = typeof RTCRtpReceiver.getCapabilities === 'function' ? RTCRtpReceiver.getCapabilities('video')?.codecs : undefined;
  if (!codecs) return;
  const isVp9 = (c: RTCRtpCodec) => c.mimeType.toLowerCase() === 'video/vp9';
  if (!codecs.some(isVp9)) return;
  const ordered = [...codecs.filter(isVp9), ...codecs.filter((c) => !isVp9(c))];
  for (const transceiver of pc.getTransceivers()) {
    if (transceiver.receiver.track.kind !== 'video' || typeof transceiver.setCodecPreferences !== 'function') continue;
    try {
      transceiver.setCodecPreferences(ordered);
    } catch {
      // A browser that refuses the list negotiates its own default.
    }
  }
}

/** The video sender drops frames rather than resolution when the network or the CPU is short. */
export async function keepResolution(pc: RTCPeerConnection): Promise<void> {
  for (const sender of pc.getSenders()) {
    if (sender.track?.kind !== 'video') continue;
    const parameters = sender.getParameters();
    parameters.degradationPreference = 'maintain-resolution';
    await sender.setParameters(parameters).catch(() => undefined);
  }
}

/** Plays the peer's sound through a detached audio element; returns the stop. */
export function playSound(track: MediaStreamTrack): () => void {
  const audio = new Audio();
  audio.autoplay = true;
  audio.srcObject = new MediaStream([track]);
  // Blocked autoplay (no tap on the page yet) only means silence until the next play.
  audio.play().catch(() => undefined);
  return () => {
    audio.pause();
    audio.srcObject = null;
  };
}

/** Whether the receiver has decoded a video frame. */
export async function framesDecoded(receiver: RTCRtpReceiver): Promise<boolean> {
  let decoded = false;
  (await receiver.getStats()).forEach((entry: unknown) => {
    const r = entry as { type?: string; kind?: string; framesDecoded?: number };
    if (r.type === 'inbound-rtp' && r.kind === 'video' && (r.framesDecoded ?? 0) > 0) decoded = true;
  });
  return decoded;
}

/** Round-trip time of the connection in use and packet loss since the last sample. */
function sampleOf(report: RTCStatsReport, last: { lost: number; received: number }) {
  let rttMs: number | undefined;
  let lost = 0;
  let received = 0;
  report.forEach((entry: unknown) => {
    const r = entry as {
      type?: string; state?: string; nominated?: boolean; currentRoundTripTime?: number; packetsLost?: number; packetsReceived?: number;
    };
    if (r.type === 'candidate-pair' && r.state === 'succeeded' && r.nominated && typeof r.currentRoundTripTime === 'number') {
      rttMs = r.currentRoundTripTime * 1000;
    } else if (r.type === 'inbound-rtp') {
      lost += r.packetsLost ?? 0;
      received += r.packetsReceived ?? 0;
    }
  });
  const dLost = Math.max(0, lost - last.lost);
  const dReceived = Math.max(0, received - last.received);
  const lossRate = dLost + dReceived > 0 ? dLost / (dLost + dReceived) : undefined;
  return { rttMs, lossRate, totals: { lost, received } };
}
