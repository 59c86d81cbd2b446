/**
 * The RTC port on the browser's own WebRTC with the reference server's relay
 * (`/realtime/rtc`, server/realtime/rtc.ts): the local stand-in for Agora RTC (rtc.agora.ts).
 * SPEC §3 media error texts, §9 Video (720p, VP9).
 *
 * - `prepare(video)` opens camera (1280×720 ideal) and microphone; a refusal is a MediaError
 *   whose kind comes from the DOMException's name (`mediaErrorKind`), also said as `mediaFailed`
 *   (a caller rings without waiting for them when `mediaAllowed`: the Permissions API says both
 *   are granted). When both are allowed already, camera and microphone are asked for apart, so
 *   that a link made meanwhile sends
 *   the camera as soon as it opens (`openOwnMedia`). One preparation per call
 *   (media.prepare.ts): a second prepare answers with the first. Beside the camera it asks for
 *   the rtcToken and opens the relay's socket, so that the join is one round trip. Both are kept
 *   between calls (a spare socket is opened as a call is left; the token is reused while young,
 *   `keptToken`), so a ring does not wait for a WebSocket handshake or a request.
 * - `join(channelId, account)` joins the relay's channel with the rtcToken (`options.rtcToken`,
 *   the one asked for by prepare when there is one).
 *   The negotiation rule (`offersAhead`): whoever joins first (the caller, before it rings) makes
 *   its offer then and posts it to the hub with its candidates (`post`: kept for whoever joins
 *   next); the newcomer finds them in its join answer (`waiting`) and answers. So once the callee
 *   joins, only her answer is left to make, and the offer does not wait for the caller's page to
 *   hear `peerJoined` and send it then (a round trip through a page busy showing the call). The
 *   hub orders joins, so the two ends never offer at once; a member pushed `peerJoined` again
 *   (the peer rejoined) offers afresh. No ICE servers: host candidates only (loopback / LAN).
 * - A callee's `prepare(video, ringing)` joins the channel while she is rung: the caller's offer
 *   is answered then, but the answer is kept, and she offers nothing, until she takes the call
 *   (`join` of that channel). Nothing of hers (no answer, no candidate, so no media) reaches the
 *   caller before; taking the call sends what was made. Leaving (a refusal) leaves the channel.
 * - The video sender keeps its resolution (`degradationPreference: 'maintain-resolution'`);
 *   VP9 is preferred when the browser has it.
 * - Events: `firstRemoteFrame` when the peer's first video frame is decoded (a detached
 *   video element's requestVideoFrameCallback, with inbound-rtp `framesDecoded` polling as a
 *   fallback: rtc.view.ts `watchFirstFrame`); `firstRemoteAudio` when the peer's sound first
 *   arrives (its track's `unmute`, or inbound-rtp `packetsReceived`: `watchFirstSound`); `remoteLeft` on the relay's `peerLeft` or the peer's track ending;
 *   `connectionLost` when the peer connection fails, stays disconnected for
 *   `disconnectedGraceMs`, or the relay link drops; `networkQuality` (Agora's 0–6 scale) from
 *   round-trip time and packet loss, when it changes.
 * - `leave()` leaves the channel, closes the peer connection and stops the camera and
 *   microphone (the camera light goes off).
 * - `media` (CallMediaView): the own stream and the peer's video; the peer's sound is played
 *   by a detached audio element here.
 *
 * The media, hub and peer connection plumbing it shares with the live room's local adapter
 * is in webrtc.shared.ts.
 */
import type { RtcAdapter } from '../../machines/ports/call.media';
import type { RtcEvent, RtcRinging } from '../../machines/ports/call.port';
import type { RtcJoinResult, RtcPush } from '../api/contract/realtime';
import type { HubSocket } from './hub.socket';
import { eventFanOut } from './media.events';
import { keptToken, onePreparation, watchMediaAllowed } from './media.prepare';
import { MediaViewState } from './rtc.view';
import { networkQuality, sampleOf } from './rtc.quality';
import {
  acceptAnswer, connectionChanged, giveAnswer, makeAnswer, joinRelay, keepResolution, leaveRelay, mediaDevices, offerOn, openOwnMedia,
  openPeerLink, openRelaySocket, OwnStream, parseRelay, postAhead, receiveTrack, relayTo, sendOfferTo, shutPeerLink, spareRelaySocket, takeCandidate,
  type PeerLink, type RelayOptions,
} from './webrtc.shared';

/** Tested with the call's adapter (rtc.local.test.ts). */
export { mediaConstraints, mediaErrorKind, parseRelay } from './webrtc.shared';
export { networkQuality } from './rtc.quality';

export interface LocalRtcOptions extends RelayOptions {
  /**
   * The rtcToken of /api/index/getAgoraRtmToken, asked for with the first prepare and kept for
   * the joins of the next `tokenMaxAgeMs` (asked for again after it, or when a join fails).
   */
  rtcToken(): Promise<string>;
  /** How long an rtcToken is reused for; default 10 minutes (the server's tokens live a day). */
  tokenMaxAgeMs?: number;
  /** How long the peer connection may stay `disconnected` before the link counts as lost; default 5 s. */
  disconnectedGraceMs?: number;
  /** How often the network quality is measured; default 2 s. */
  qualityIntervalMs?: number;
}

/** The negotiation rule: the first member in the channel makes its offer ahead (and sends it to whoever joins); a newcomer waits for it. */
export function offersAhead(joined: RtcJoinResult): boolean {
  return joined.peers.length === 0;
}

/** The peer connection with the other person, measuring its network quality once connected. */
type Link = PeerLink & { measuring: boolean; quality: number };

/** One joined channel. */
interface Call {
  channelId: string;
  socket: HubSocket;
  link: Link | null;
  /** Pushes are handled one after another: an offer's handling is async and candidates follow it. */
  queue: Promise<void>;
  /**
   * Joined while the callee is rung: an offer is answered but the answer is kept (`held`) until
   * she takes the call, and she offers nothing herself (a peer who joins meanwhile, `newcomer`,
   * is offered to then): nothing of hers reaches the caller before she takes it.
   */
  ringing: boolean;
  held: { link: Link; answer: RTCSessionDescriptionInit } | null;
  newcomer: string | null;
}

const LEFT = 'The call was left before this finished';

export function createLocalRtcPort(options: LocalRtcOptions): RtcAdapter {
  const graceMs = options.disconnectedGraceMs ?? 5000;
  const qualityMs = options.qualityIntervalMs ?? 2000;
  const events = eventFanOut<RtcEvent>();
  const { emit } = events;
  const media = new MediaViewState();
  const own = new OwnStream(media);
  let call: Call | null = null;
  /** Counts leaves: a prepare or join still under way when the call is left must not open anything after it. */
  let leaves = 0;
  /** Whether camera and microphone are allowed already (then they open apart, the camera first to be sent). */
  const mediaAllowed = watchMediaAllowed();
  /** Whether the own media being prepared (or prepared) has a camera; null before the first prepare of a call. */
  let ownVideo: boolean | null = null;
  /**
   * Whether this end is being rung (a callee). Only a callee's camera opens apart from her
   * microphone (when both are allowed already): her link may be made before they are open, and
   * her camera is sent as soon as it is. A caller asks for both in one request, which opens
   * them sooner than two (41 against 50 ms after the tap in a traced call); her link sends
   * them once they are open, and her ring does not wait for them when they are allowed.
   */
  let rung = false;
  // A failed preparation is said as an event too: a call that rang without waiting for the camera (`mediaAllowed`) hears it so.
  const preparation = onePreparation(async (video) => {
    const devices = mediaDevices();
    own.stop();
    const at = leaves;
    const stream = await openOwnMedia(devices, video, {
      allowed: rung && mediaAllowed(), stale: () => at !== leaves, left: LEFT,
      // A link made while the camera opened sends it at once, before the microphone is there too.
      onCamera: (camera) => { if (call?.link) attachOwn(call.link, camera); },
    });
    own.show(stream);
    if (call?.link) attachOwn(call.link, stream);
  }, (error) => emit({ type: 'mediaFailed', error }));
  /** What the join needs, got ready by prepare: the rtcToken and an open socket to the relay (kept between calls). */
  const readyToken = keptToken(options.rtcToken, options.tokenMaxAgeMs);
  /** Joins under way. */
  let entering = 0;
  /** The channel joined (or being joined) while rung, until the callee takes the call or it is left. */
  let early: (RtcRinging & { joined: Promise<void> }) | null = null;
  const readySocket = spareRelaySocket(options);

  function closeLink(c: Call): void {
    const link = c.link;
    if (!link) return;
    c.link = null;
    shutPeerLink(link);
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

  /** A new link with `peer`, or (null) with whoever joins next: its offer is made ahead and sent then. */
  function newLink(c: Call, peer: string | null): Link {
    closeLink(c);
    // Made ahead (no peer yet): posted for whoever joins next (`offerToNewcomer` addresses it then).
    const send = peer === null ? postAhead(c.socket, options.requestTimeoutMs) : relayTo(c.socket, peer, options.requestTimeoutMs);
    const link = openPeerLink(peer ?? '', send, { measuring: false, quality: 0 }, {
      track: (l, track, receiver) => received(c, l, track, receiver),
      stateChanged: (l) => stateChanged(c, l),
    });
    c.link = link;
    return link;
  }

  /**
   * The own tracks into the link; while the camera is still opening (a callee who accepted at
   * once), sending slots that it goes into when it opens (`attachOwn`), so that the link is
   * made meanwhile. A receive-only slot for a kind this call does not send (an audio call still
   * hears video).
   */
  function addOwnTracks(pc: RTCPeerConnection): void {
    const stream = own.stream;
    if (stream) for (const track of stream.getTracks()) pc.addTrack(track, stream);
    const sends = (kind: string) => (stream ? stream.getTracks().some((t) => t.kind === kind) : kind === 'audio' || ownVideo === true);
    for (const kind of ['audio', 'video'] as const) {
      const slot = pc.getTransceivers().find((t) => t.receiver.track.kind === kind);
      if (!slot) pc.addTransceiver(kind, { direction: sends(kind) ? 'sendrecv' : 'recvonly' });
      else if (!stream && sends(kind)) slot.direction = 'sendrecv';
    }
  }

  /**
   * The camera and microphone opened after the link was made: into its sending slots (whose
   * video settings, `keepResolution`, were set with the description).
   */
  function attachOwn(link: Link, stream: MediaStream): void {
    if (link.over) return;
    for (const track of stream.getTracks()) {
      const slot = link.pc.getTransceivers().find((t) => t.receiver.track.kind === track.kind && t.sender.track === null);
      if (!slot || (slot.direction !== 'sendrecv' && slot.direction !== 'sendonly')) continue;
      slot.sender.replaceTrack(track).catch(() => undefined);
    }
  }

  async function described(c: Call, from: string, description: { type: 'offer' | 'answer'; sdp: string }): Promise<void> {
    if (description.type === 'offer') {
      // A fresh offer is a fresh link: the peer (re)joined. While she is rung, the answer waits for her.
      const link = newLink(c, from);
      const answer = await makeAnswer(link, { type: 'offer', sdp: description.sdp }, addOwnTracks);
      if (c.ringing) c.held = { link, answer };
      else await giveAnswer(link, answer);
      return;
    }
    const link = c.link;
    if (!link || link.peer !== from || link.remoteSet) return;
    await acceptAnswer(link, { type: 'answer', sdp: description.sdp });
    await keepResolution(link.pc);
  }

  function received(c: Call, link: Link, track: MediaStreamTrack, receiver: RTCRtpReceiver): void {
    if (link.over) return;
    const ended = () => linkOver(c, link, { type: 'remoteLeft' });
    track.addEventListener('ended', ended);
    link.stops.push(() => track.removeEventListener('ended', ended));
    receiveTrack(link, track, receiver, media, () => true, () => emit({ type: 'firstRemoteFrame' }), () => emit({ type: 'firstRemoteAudio' }));
  }

  function stateChanged(c: Call, link: Link): void {
    const state = connectionChanged(link, graceMs, () => linkOver(c, link, { type: 'connectionLost' }));
    if (state === 'connected' && !link.measuring) {
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
        // A callee still rung offers once she takes the call.
        if (c.ringing) {
          c.newcomer = push.account;
          return;
        }
        // This end offers (offersAhead): the offer made as it joined when it is still unsent, else a fresh one.
        c.queue = c.queue.then(() => offerToNewcomer(c, push.account)).catch(() => {
          if (c.link) linkOver(c, c.link, { type: 'connectionLost' });
        });
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
          await takeCandidate(link, data.candidate);
        }).catch(() => undefined);
        return;
      }
    }
  }

  async function offerToNewcomer(c: Call, peer: string): Promise<void> {
    const ready = c.link;
    if (ready && !ready.over && ready.peer === '') {
      sendOfferTo(ready, peer, relayTo(c.socket, peer, options.requestTimeoutMs));
      return;
    }
    await offerOn(newLink(c, peer), addOwnTracks);
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
    await leaveRelay(c.socket);
  }

  /** Joins the channel; `ringing`: as a callee still rung (what she answers waits for `take`). */
  async function enter(channelId: string, account: string, ringing: boolean): Promise<void> {
    entering += 1;
    try {
      await joinChannel(channelId, account, ringing);
    } finally {
      entering -= 1;
    }
  }

  async function joinChannel(channelId: string, account: string, ringing: boolean): Promise<void> {
    await leaveCall();
    const at = leaves;
    const relay = readySocket.take() ?? openRelaySocket(options);
    let rtcToken: string;
    try {
      rtcToken = await (readyToken.take(account) ?? options.rtcToken());
      if (at !== leaves) throw new Error(LEFT);
    } catch (error) {
      relay.socket.close();
      throw error;
    }
    const joining = joinRelay<RtcJoinResult, Call>(options, { channelId, account, token: rtcToken }, (socket, joined) => {
      if (at !== leaves) throw new Error(LEFT);
      const c: Call = { channelId, socket, link: null, queue: Promise.resolve(), ringing, held: null, newcomer: null };
      call = c;
      if (offersAhead(joined) && !ringing) {
        c.queue = c.queue.then(() => offerOn(newLink(c, null), addOwnTracks)).catch(() => {
          if (c.link) linkOver(c, c.link, { type: 'connectionLost' });
        });
      }
      // What the member there posted for this joiner (its offer and candidates), as if relayed now.
      for (const posted of joined.waiting) pushed(c, { type: 'relay', channelId, from: posted.from, data: posted.data });
      return c;
    }, { push: pushed, drop: lost }, relay);
    // A join refused (an expired token among the reasons) asks for a new token on its retry.
    await joining.catch((error: unknown) => {
      readyToken.forget();
      throw error;
    });
    readyToken.claim(account);
  }

  /** The callee takes the call: the answer kept while she was rung goes out (or goes out as it is made). */
  function take(c: Call): void {
    c.ringing = false;
    c.queue = c.queue.then(async () => {
      const { held, newcomer } = c;
      c.held = null;
      c.newcomer = null;
      if (held && !held.link.over && c.link === held.link) await giveAnswer(held.link, held.answer);
      else if (newcomer !== null && !c.link) await offerOn(newLink(c, newcomer), addOwnTracks);
    }).catch(() => {
      if (c.link) linkOver(c, c.link, { type: 'connectionLost' });
    });
  }

  return {
    media,
    mediaAllowed,

    prepare(video, ringing) {
      ownVideo = video;
      // Rung until the call is left (taking it prepares again, without the ring).
      if (ringing) rung = true;
      // The camera first: what the join needs is asked for right after it.
      const prepared = preparation.prepare(video);
      readyToken.ready();
      // In a channel already, or joining one: its socket is the one in use.
      if (!call && entering === 0) readySocket.ready();
      // Rung: into the channel now, so that the caller's offer is answered while it rings (kept until taken).
      if (ringing && ringing.channelId !== '' && !call && !early) {
        const joined = enter(ringing.channelId, ringing.account, true);
        early = { ...ringing, joined };
        joined.catch(() => {
          if (early?.joined === joined) early = null;
        });
      }
      return prepared;
    },

    async join(channelId, account) {
      const rung = early;
      early = null;
      if (rung && rung.channelId === channelId && rung.account === account) {
        const joined = await rung.joined.then(() => true, () => false);
        const c = call;
        if (joined && c && c.ringing && c.channelId === channelId) {
          take(c);
          return;
        }
      }
      await enter(channelId, account, false);
    },

    async leave() {
      leaves += 1;
      ownVideo = null;
      rung = false;
      early = null;
      preparation.forget();
      await leaveCall();
      own.stop();
      // The next call's socket, open before it is needed (an unused one is kept as it is).
      readySocket.ready();
    },

    subscribe: events.subscribe,
  };
}
