/**
 * What the call's and the live room's local media adapters (rtc.local.ts, live.local.ts)
 * share: the browser's own WebRTC with the reference server's relay (`/realtime/rtc`,
 * server/realtime/rtc.ts). SPEC §3 media error texts, §9 Video (720p, VP9).
 *
 * - The own camera (1280×720 ideal) and microphone; a refusal is a MediaError whose kind
 *   comes from the DOMException's name (`mediaErrorKind`).
 * - The hub channel: joined on a socket of its own per visit (`joinRelay`), left with a
 *   bounded wait (`leaveRelay`), descriptions and candidates relayed to one peer.
 * - One peer connection with one peer (`PeerLink`): no ICE servers (host candidates only:
 *   loopback / LAN), candidates held until our description is out and until the peer's is
 *   set, VP9 first, the video sender keeping its resolution
 *   (`degradationPreference: 'maintain-resolution'`), the peer's sound played by a detached
 *   audio element and its video shown with its first decoded frame watched (rtc.view.ts
 *   `watchFirstFrame`, with inbound-rtp `framesDecoded` polling as a fallback), and a
 *   `disconnected` that lasts longer than a grace period counted as lost.
 */
import { MediaError, type MediaErrorKind } from '../../machines/ports/call.port';
import type { RtcPush } from '../api/contract/realtime';
import { HubSocket, type WebSocketImpl } from './hub.socket';
import { watchFirstFrame, watchFirstSound, type MediaViewState } from './rtc.view';

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

/** The browser's media devices, or a notSupported MediaError where it has none. */
export function mediaDevices(): MediaDevices {
  const devices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (!devices || typeof devices.getUserMedia !== 'function') throw new MediaError('notSupported');
  return devices;
}

/**
 * Opens the microphone and, with `video`, the camera; a refusal is a MediaError by its name.
 * When `stale()` by then (left while the camera was opening), it goes off again at once and
 * `left` is thrown.
 */
export async function openOwnStream(devices: MediaDevices, video: boolean, stale: () => boolean, left: string): Promise<MediaStream> {
  let stream: MediaStream;
  try {
    stream = await devices.getUserMedia(mediaConstraints(video));
  } catch (error) {
    throw new MediaError(mediaErrorKind(error));
  }
  if (stale()) {
    stopTracks(stream);
    throw new Error(left);
  }
  return stream;
}

/**
 * Opens the microphone and, with `video`, the camera, like `openOwnStream`. When both are
 * allowed already (`allowed`), they are asked for apart: the camera is then not held up by
 * the microphone's set-up, and `onCamera` has it as soon as it is open (a link already made
 * can send it). Otherwise one request, so that a person who is asked is asked once. A refusal
 * of either closes the other and is the MediaError of its name.
 */
export async function openOwnMedia(
  devices: MediaDevices, video: boolean,
  { allowed, stale, left, onCamera }: { allowed: boolean; stale: () => boolean; left: string; onCamera?: (camera: MediaStream) => void },
): Promise<MediaStream> {
  if (!video || !allowed) return openOwnStream(devices, video, stale, left);
  const { audio, video: camera } = mediaConstraints(true);
  const cameraOpen = devices.getUserMedia({ video: camera });
  const microphoneOpen = devices.getUserMedia({ audio });
  cameraOpen.then((stream) => {
    if (!stale()) onCamera?.(stream);
  }, () => undefined);
  const [cam, mic] = await Promise.allSettled([cameraOpen, microphoneOpen]);
  if (cam.status === 'rejected' || mic.status === 'rejected') {
    for (const opened of [cam, mic]) if (opened.status === 'fulfilled') stopTracks(opened.value);
    throw new MediaError(mediaErrorKind(cam.status === 'rejected' ? cam.reason : (mic as PromiseRejectedResult).reason));
  }
  for (const track of mic.value.getTracks()) cam.value.addTrack(track);
  if (stale()) {
    stopTracks(cam.value);
    throw new Error(left);
  }
  return cam.value;
}

function stopTracks(stream: MediaStream): void {
  for (const track of stream.getTracks()) track.stop();
}

/** The own camera and microphone, as the media view shows them. */
export class OwnStream {
  stream: MediaStream | null = null;

  constructor(private readonly media: MediaViewState) {}

  show(stream: MediaStream): void {
    this.stream = stream;
    this.media.setLocal(stream);
  }

  /** Stops the tracks (the camera light goes off). */
  stop(): void {
    if (this.stream) stopTracks(this.stream);
    this.stream = null;
    this.media.setLocal(null);
  }
}

export interface RelayOptions {
  /** ws:// URL of the hub's RTC path (`hubUrl(RealtimePath.rtc)` in the browser). */
  url: string;
  WebSocketImpl?: WebSocketImpl;
  requestTimeoutMs?: number;
}

const LEAVE_TIMEOUT_MS = 2000;

/** A hub socket of its own for one channel visit; its pushes and its drop go to whoever `listen`s. */
export interface RelaySocket {
  socket: HubSocket;
  listen(on: { push(push: RtcPush): void; drop(): void }): void;
}

/** Opens a hub socket for a visit: at the join, or ahead of it (while a call is created or rings) to save a round trip. */
export function openRelaySocket(options: RelayOptions): RelaySocket {
  let on: { push(push: RtcPush): void; drop(): void } | null = null;
  const socket = new HubSocket({
    url: options.url,
    WebSocketImpl: options.WebSocketImpl,
    onPush: (push) => on?.push(push as RtcPush),
    onDrop: () => on?.drop(),
  });
  return { socket, listen: (listener) => { on = listener; } };
}

/**
 * A relay socket kept open for the next join: opening one (the WebSocket's handshake) was the
 * longest step between a ring and the join. `ready` opens one when there is none; `take` hands
 * it over (null when there is none). One that drops or cannot open while it waits is let go,
 * so the join opens its own.
 */
export function spareRelaySocket(options: RelayOptions): { ready(): void; take(): RelaySocket | null } {
  let spare: RelaySocket | null = null;
  const letGo = (relay: RelaySocket) => {
    if (spare === relay) spare = null;
  };
  return {
    ready() {
      if (spare) return;
      let relay: RelaySocket;
      try {
        relay = openRelaySocket(options);
      } catch {
        // No socket now: the join opens its own, and sees why it cannot.
        return;
      }
      spare = relay;
      relay.listen({ push: () => undefined, drop: () => letGo(relay) });
      relay.socket.ready.catch(() => letGo(relay));
    },
    take() {
      const taken = spare;
      spare = null;
      return taken;
    },
  };
}

/**
 * Joins the hub's RTC channel with `params` on a socket of its own (`opened` ahead, or a new
 * one). `setUp` makes the visit from the join's answer (and throws when it is no longer
 * wanted); the hub's pushes and the socket's drop go to the visit once it exists. A failed
 * join closes the socket.
 */
export async function joinRelay<J, V>(
  options: RelayOptions, params: Record<string, unknown>, setUp: (socket: HubSocket, joined: J) => V,
  on: { push(visit: V, push: RtcPush): void; drop(visit: V): void }, opened: RelaySocket = openRelaySocket(options),
): Promise<void> {
  let visit: V | null = null;
  const { socket } = opened;
  opened.listen({
    push: (push) => {
      if (visit !== null) on.push(visit, push);
    },
    drop: () => {
      if (visit !== null) on.drop(visit);
    },
  });
  try {
    await socket.ready;
    const joined = await socket.request<J>('join', params, options.requestTimeoutMs);
    visit = setUp(socket, joined);
  } catch (error) {
    socket.close();
    throw error;
  }
}

/** Leaves the hub's channel (waiting a little for the hub's answer) and closes the socket. */
export async function leaveRelay(socket: HubSocket): Promise<void> {
  if (socket.isOpen) await socket.request('leave', {}, LEAVE_TIMEOUT_MS).catch(() => undefined);
  socket.close();
}

/** Relays to `peer` through the hub. */
export function relayTo(socket: HubSocket, peer: string, requestTimeoutMs?: number): (data: RelayData) => void {
  return (data) => {
    // A relay the hub refuses means the peer is gone; the hub's push about it says so.
    socket.request('relay', { to: peer, data }, requestTimeoutMs).catch(() => undefined);
  };
}

/**
 * Posts through the hub to whoever is (or next comes) into the call's channel: what is posted
 * while alone there waits at the hub for the next joiner's join answer.
 */
export function postAhead(socket: HubSocket, requestTimeoutMs?: number): (data: RelayData) => void {
  return (data) => {
    // A refused post (more than the hub keeps) is lost as a relay to a gone peer is: the link times out.
    socket.request('post', { data }, requestTimeoutMs).catch(() => undefined);
  };
}

/** One peer connection with one peer (or, made ahead, with whoever comes next: `peer` '' until `sendOfferTo`). */
export interface PeerLink {
  peer: string;
  pc: RTCPeerConnection;
  send: (data: RelayData) => void;
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

/**
 * A peer connection with `peer` (the link carries `extra` as well); our candidates are relayed
 * through `send` once our description is out. `on.track` (when given) hears the peer's tracks.
 */
export function openPeerLink<X extends object>(
  peer: string, send: (data: RelayData) => void, extra: X,
  on: { stateChanged(link: PeerLink & X): void; track?(link: PeerLink & X, track: MediaStreamTrack, receiver: RTCRtpReceiver): void },
): PeerLink & X {
  const pc = new RTCPeerConnection({ iceServers: [], bundlePolicy: 'max-bundle', rtcpMuxPolicy: 'require' });
  const link: PeerLink & X = {
    peer, pc, send, described: false, remoteSet: false, outgoing: [], incoming: [], stops: [], over: false, framed: false, disconnected: null,
    ...extra,
  };
  pc.onicecandidate = (event) => {
    if (link.over || !event.candidate) return;
    const candidate = event.candidate.toJSON();
    if (link.described) link.send({ kind: 'candidate', candidate });
    else link.outgoing.push(candidate);
  };
  const { track } = on;
  if (track) pc.ontrack = (event) => track(link, event.track, event.receiver);
  pc.onconnectionstatechange = () => on.stateChanged(link);
  return link;
}

/** Closes the link for good: its timer, what it shows and plays, its handlers and the connection. */
export function shutPeerLink(link: PeerLink): void {
  link.over = true;
  if (link.disconnected !== null) clearTimeout(link.disconnected);
  for (const stop of link.stops.splice(0)) stop();
  link.pc.onicecandidate = null;
  link.pc.ontrack = null;
  link.pc.onconnectionstatechange = null;
  link.pc.close();
}

function sendDescription(link: PeerLink): void {
  const description = link.pc.localDescription;
  if (!description || (description.type !== 'offer' && description.type !== 'answer')) return;
  link.send({ kind: 'description', description: { type: description.type, sdp: description.sdp } });
  link.described = true;
  for (const candidate of link.outgoing.splice(0)) link.send({ kind: 'candidate', candidate });
}

async function addCandidates(link: PeerLink): Promise<void> {
  for (const candidate of link.incoming.splice(0)) await link.pc.addIceCandidate(candidate).catch(() => undefined);
}

/**
 * Offers through the link's `send`: `addTracks` fills the connection (VP9 first); the offer goes
 * out, then the candidates as they are gathered, unless the link closed meanwhile. A link made
 * ahead of its peer posts them for whoever joins next (`sendOfferTo` addresses it then).
 */
export async function offerOn(link: PeerLink, addTracks: (pc: RTCPeerConnection) => void): Promise<void> {
  addTracks(link.pc);
  preferVp9(link.pc);
  await link.pc.setLocalDescription(await link.pc.createOffer());
  if (link.over) return;
  sendDescription(link);
}

/**
 * Addresses a link made ahead to `peer`, through `send` from now on. Its offer and the candidates
 * gathered meanwhile go now, unless they went already (posted for whoever joined next) or the
 * offer is still being made (it goes to `peer` once made).
 */
export function sendOfferTo(link: PeerLink, peer: string, send: (data: RelayData) => void): void {
  link.peer = peer;
  link.send = send;
  if (!link.described) sendDescription(link);
}

/** Answers the peer's offer with what `addTracks` puts in (VP9 first, keeping resolution). */
export async function answerOn(link: PeerLink, offer: { type: 'offer'; sdp: string }, addTracks: (pc: RTCPeerConnection) => void): Promise<void> {
  await giveAnswer(link, await makeAnswer(link, offer, addTracks));
}

/**
 * The answer to the peer's offer, made and kept (`giveAnswer` applies and sends it): the
 * offer is set and the own tracks are in, but nothing starts (no candidates are gathered,
 * no checks are made) and the peer has nothing to connect with until it is given.
 */
export async function makeAnswer(
  link: PeerLink, offer: { type: 'offer'; sdp: string }, addTracks: (pc: RTCPeerConnection) => void,
): Promise<RTCSessionDescriptionInit> {
  await link.pc.setRemoteDescription(offer);
  link.remoteSet = true;
  addTracks(link.pc);
  preferVp9(link.pc);
  return link.pc.createAnswer();
}

/** Applies a `makeAnswer` answer and sends it, with the candidates that follow. */
export async function giveAnswer(link: PeerLink, answer: RTCSessionDescriptionInit): Promise<void> {
  await link.pc.setLocalDescription(answer);
  if (link.over) return;
  sendDescription(link);
  await addCandidates(link);
  await keepResolution(link.pc);
}

/** The peer's answer to our offer. */
export async function acceptAnswer(link: PeerLink, answer: { type: 'answer'; sdp: string }): Promise<void> {
  await link.pc.setRemoteDescription(answer);
  link.remoteSet = true;
  await addCandidates(link);
}

/** A candidate of the peer: added once its description is set. */
export async function takeCandidate(link: PeerLink, candidate: RTCIceCandidateInit): Promise<void> {
  link.incoming.push(candidate);
  if (link.remoteSet) await addCandidates(link);
}

/**
 * Follows the connection's state: `lost()` when it fails or stays `disconnected` for
 * `graceMs`. Returns the state (null when the link is over).
 */
export function connectionChanged(link: PeerLink, graceMs: number, lost: () => void): RTCPeerConnectionState | null {
  if (link.over) return null;
  const state = link.pc.connectionState;
  if (link.disconnected !== null) clearTimeout(link.disconnected);
  link.disconnected = null;
  if (state === 'failed') lost();
  // ICE often recovers from a short outage by itself; only a long one is a lost link.
  else if (state === 'disconnected') link.disconnected = setTimeout(lost, graceMs);
  return state;
}

/**
 * A track of the peer: its sound plays through a detached audio element, its video is
 * `media.remote()`; `onFirstFrame` once, when its first frame is decoded while `current()`.
 */
export function receiveTrack(
  link: PeerLink, track: MediaStreamTrack, receiver: RTCRtpReceiver, media: MediaViewState, current: () => boolean, onFirstFrame: () => void,
  onFirstSound?: () => void,
): void {
  if (link.over) return;
  if (track.kind === 'audio') {
    link.stops.push(playSound(track));
    if (onFirstSound) {
      link.stops.push(watchFirstSound(track, () => {
        if (!link.over && current()) onFirstSound();
      }, () => packetsReceived(receiver)));
    }
    return;
  }
  const stream = new MediaStream([track]);
  media.setRemote(stream);
  link.stops.push(watchFirstFrame(stream, () => {
    if (link.over || link.framed || !current()) return;
    link.framed = true;
    onFirstFrame();
  }, () => framesDecoded(receiver)));
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

/**
 * The video sender drops frames rather than resolution when the network or the CPU is short
 * (also a sending slot whose camera is not in it yet).
 */
export async function keepResolution(pc: RTCPeerConnection): Promise<void> {
  for (const { sender, receiver, direction } of pc.getTransceivers()) {
    if (receiver.track.kind !== 'video' || (direction !== 'sendrecv' && direction !== 'sendonly')) continue;
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

/** Whether the receiver has had any of the peer's sound. */
export async function packetsReceived(receiver: RTCRtpReceiver): Promise<boolean> {
  let received = false;
  (await receiver.getStats()).forEach((entry: unknown) => {
    const r = entry as { type?: string; kind?: string; packetsReceived?: number };
    if (r.type === 'inbound-rtp' && r.kind === 'audio' && (r.packetsReceived ?? 0) > 0) received = true;
  });
  return received;
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
