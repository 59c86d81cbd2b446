/**
 * An in-memory double of exactly the Agora RTC 4.x surface that rtc.agora.ts and live.agora.ts use. That
 * surface is typed from the SDK's own declarations (`Pick<IAgoraRTCClient, …>`,
 * `typeof setParameter`, the SDK's config and event types) and rtc.agora.sdk.ts checks that
 * the real SDK keeps fitting it (live.agora.sdk.ts for the live client's role), so an SDK
 * upgrade that changes one of these signatures breaks `tsc` there and here.
 *
 * `AgoraRtcCloud` plays Agora's media service for any number of `AgoraRtcDoubleSdk`s: rtc
 * tokens per account, channels, publishing to the other members (`user-published`),
 * subscribing, leaving (`user-left`), a link that is gone (`connection-state-change` to
 * DISCONNECTED), network quality reports and the first decoded frame; in live mode
 * (`mode: 'live'`) only hosts may publish and only hosts are announced as leaving, as
 * Agora does (the audience is invisible to the others). Nothing here touches
 * the network or the browser: media tracks and streams are stand-ins.
 */
import type {
  AgoraRTCErrorCode, CameraVideoTrackInitConfig, ClientConfig, ClientRole, ConnectionDisconnectedReason, ConnectionState,
  IAgoraRTCClient, MicrophoneAudioTrackInitConfig, UID,
} from 'agora-rtc-sdk-ng';
import type { setParameter } from 'agora-rtc-sdk-ng/esm';
import type {
  AgoraClient, AgoraClientEvents, AgoraLocalTrack, AgoraRemoteAudioTrack, AgoraRemoteVideoTrack, AgoraRtcSdk,
} from '../rtc.agora';
import { DoubleEmitter } from './emitter';

type JoinArgs = Parameters<IAgoraRTCClient['join']>;

/** Shaped like the SDK's AgoraRTCError: a string `code` from AgoraRTCErrorCode. */
export class AgoraRtcDoubleError extends Error {
  override name = 'AgoraRTCException';
  constructor(readonly code: `${AgoraRTCErrorCode}`, message: string = code) {
    super(`AgoraRTCError ${code}: ${message}`);
  }
}

let nextTrackId = 1;

/** Stands in for a browser MediaStreamTrack (Node has none). */
export class FakeMediaStreamTrack {
  readonly id = `fake-track-${nextTrackId++}`;
  readyState: MediaStreamTrackState = 'live';
  constructor(readonly kind: 'audio' | 'video') {}
  stop(): void {
    this.readyState = 'ended';
  }
}

/** Stands in for a browser MediaStream: the adapter's `newStream` in tests. */
export class FakeMediaStream {
  constructor(readonly tracks: MediaStreamTrack[]) {}
}

/** The stand-ins pass where the adapter expects the browser's types; this is the one place they are cast. */
export const asTrack = (track: FakeMediaStreamTrack): MediaStreamTrack => track as unknown as MediaStreamTrack;
export const newFakeStream = (tracks: MediaStreamTrack[]): MediaStream => new FakeMediaStream(tracks) as unknown as MediaStream;
export const fakeTracksOf = (stream: MediaStream | null): FakeMediaStreamTrack[] =>
  stream ? (stream as unknown as FakeMediaStream).tracks.map((t) => t as unknown as FakeMediaStreamTrack) : [];

export class DoubleLocalTrack implements AgoraLocalTrack {
  readonly media: FakeMediaStreamTrack;
  closed = false;
  constructor(readonly trackMediaType: 'audio' | 'video', readonly config: CameraVideoTrackInitConfig | MicrophoneAudioTrackInitConfig | undefined) {
    this.media = new FakeMediaStreamTrack(trackMediaType);
  }
  getMediaStreamTrack(): MediaStreamTrack {
    return asTrack(this.media);
  }
  close(): void {
    this.closed = true;
    this.media.stop();
  }
}

export class DoubleRemoteVideoTrack extends DoubleEmitter<{ 'first-frame-decoded': [] }> implements AgoraRemoteVideoTrack {
  stopped = false;
  constructor(readonly source: DoubleLocalTrack) {
    super();
  }
  getMediaStreamTrack(): MediaStreamTrack {
    return this.source.getMediaStreamTrack();
  }
  stop(): void {
    this.stopped = true;
  }
}

export class DoubleRemoteAudioTrack extends DoubleEmitter<{ 'first-frame-decoded': [] }> implements AgoraRemoteAudioTrack {
  playing = false;
  play(): void {
    this.playing = true;
  }
  stop(): void {
    this.playing = false;
  }
}

export class AgoraRtcCloud {
  private readonly channels = new Map<string, Map<string, AgoraRtcDoubleClient>>();
  private readonly joinFailures = new Map<string, `${AgoraRTCErrorCode}`>();

  /** The rtc token the API would hand out for `account`. */
  tokenFor(account: string): string {
    return `rtc-token-${account}`;
  }

  failNextJoin(account: string, code: `${AgoraRTCErrorCode}`): void {
    this.joinFailures.set(account, code);
  }

  /** Joins wait until the returned release is called (a slow gateway). */
  holdJoins(): () => void {
    let release: () => void = () => undefined;
    this.joinGate = new Promise<void>((resolve) => {
      release = () => {
        this.joinGate = null;
        resolve();
      };
    });
    return release;
  }

  /** @internal */
  joinGate: Promise<void> | null = null;

  members(channel: string): string[] {
    return [...(this.channels.get(channel)?.keys() ?? [])];
  }

  /** The SDK gave up reconnecting `account`: its client goes DISCONNECTED with `reason`. */
  dropLink(account: string, reason: `${ConnectionDisconnectedReason}` = 'NETWORK_ERROR'): void {
    const client = this.clientOf(account);
    if (!client) return;
    this.remove(client, 'ServerTimeOut');
    client.changeState('DISCONNECTED', reason);
  }

  /** Agora's per-2-seconds network report for `account`. */
  reportQuality(account: string, uplink: 0 | 1 | 2 | 3 | 4 | 5 | 6, downlink: 0 | 1 | 2 | 3 | 4 | 5 | 6): void {
    this.clientOf(account)?.emit('network-quality', { uplinkNetworkQuality: uplink, downlinkNetworkQuality: downlink });
  }

  /** `account` decodes the first frame of every remote audio it subscribed to. */
  decodeFirstSound(account: string): void {
    for (const track of this.clientOf(account)?.subscribedAudio ?? []) track.emit('first-frame-decoded');
  }

  /** `account` decodes the first frame of every remote video it subscribed to. */
  decodeFirstFrame(account: string): void {
    for (const track of this.clientOf(account)?.subscribedVideo ?? []) track.emit('first-frame-decoded');
  }

  /** @internal */
  join(client: AgoraRtcDoubleClient, channel: string, token: string | null, uid: UID): void {
    const account = String(uid);
    const failure = this.joinFailures.get(account);
    if (failure) {
      this.joinFailures.delete(account);
      throw new AgoraRtcDoubleError(failure);
    }
    if (token !== this.tokenFor(account)) throw new AgoraRtcDoubleError('CAN_NOT_GET_GATEWAY_SERVER', 'invalid token, authorized failed');
    const members = this.channels.get(channel) ?? new Map<string, AgoraRtcDoubleClient>();
    if (members.has(account)) throw new AgoraRtcDoubleError('UID_CONFLICT');
    members.set(account, client);
    this.channels.set(channel, members);
    // Members who published before are announced to the newcomer.
    for (const [other, member] of members) {
      if (member === client) continue;
      for (const track of member.published) client.emit('user-published', { uid: other }, track.trackMediaType);
    }
  }

  /** @internal */
  publish(client: AgoraRtcDoubleClient, tracks: DoubleLocalTrack[]): void {
    for (const other of this.othersOf(client)) {
      for (const track of tracks) other.emit('user-published', { uid: client.account }, track.trackMediaType);
    }
  }

  /** @internal */
  unpublish(client: AgoraRtcDoubleClient, tracks: DoubleLocalTrack[]): void {
    for (const other of this.othersOf(client)) {
      for (const track of tracks) other.emit('user-unpublished', { uid: client.account }, track.trackMediaType);
    }
  }

  /** @internal */
  subscribe(client: AgoraRtcDoubleClient, uid: UID, kind: 'audio' | 'video'): DoubleLocalTrack {
    const publisher = this.othersOf(client).find((c) => c.account === String(uid));
    const track = publisher?.published.find((t) => t.trackMediaType === kind);
    if (!track) throw new AgoraRtcDoubleError('REMOTE_USER_IS_NOT_PUBLISHED');
    return track;
  }

  /** @internal */
  remove(client: AgoraRtcDoubleClient, reason: string): void {
    const channel = client.channel;
    const members = channel === null ? undefined : this.channels.get(channel);
    if (!members || members.get(client.account) !== client) return;
    members.delete(client.account);
    if (members.size === 0 && channel !== null) this.channels.delete(channel);
    // Live mode: the audience comes and goes unseen.
    if (client.config.mode === 'live' && client.role !== 'host') return;
    for (const other of members.values()) other.emit('user-left', { uid: client.account }, reason);
  }

  private othersOf(client: AgoraRtcDoubleClient): AgoraRtcDoubleClient[] {
    const members = client.channel === null ? undefined : this.channels.get(client.channel);
    return [...(members?.values() ?? [])].filter((c) => c !== client);
  }

  private clientOf(account: string): AgoraRtcDoubleClient | undefined {
    for (const members of this.channels.values()) {
      const client = members.get(account);
      if (client) return client;
    }
    return undefined;
  }
}

export class AgoraRtcDoubleClient extends DoubleEmitter<AgoraClientEvents> implements AgoraClient<DoubleLocalTrack> {
  connectionState: ConnectionState = 'DISCONNECTED';
  channel: string | null = null;
  account = '';
  published: DoubleLocalTrack[] = [];
  /** Live mode: the role set by setClientRole (the SDK's default is audience). */
  role: ClientRole | null = null;
  readonly subscribedVideo: DoubleRemoteVideoTrack[] = [];
  readonly subscribedAudio: DoubleRemoteAudioTrack[] = [];
  readonly joinCalls: JoinArgs[] = [];

  constructor(readonly cloud: AgoraRtcCloud, readonly config: ClientConfig) {
    super();
  }

  async join(...args: JoinArgs): Promise<UID> {
    this.joinCalls.push(args);
    const [, channel, token, uid] = args;
    await (this.cloud.joinGate ?? Promise.resolve());
    if (uid === undefined || uid === null) throw new AgoraRtcDoubleError('INVALID_PARAMS', 'the adapter always names its uid');
    this.changeState('CONNECTING');
    this.account = String(uid);
    this.channel = channel;
    try {
      this.cloud.join(this, channel, token, uid);
    } catch (error) {
      this.channel = null;
      this.changeState('DISCONNECTED', 'LEAVE');
      throw error;
    }
    this.changeState('CONNECTED');
    return uid;
  }

  async leave(): Promise<void> {
    await Promise.resolve();
    this.cloud.remove(this, 'Quit');
    this.channel = null;
    this.published = [];
    if (this.connectionState !== 'DISCONNECTED') this.changeState('DISCONNECTED', 'LEAVE');
  }

  async publish(tracks: DoubleLocalTrack[]): Promise<void> {
    await Promise.resolve();
    if (this.connectionState !== 'CONNECTED') throw new AgoraRtcDoubleError('INVALID_OPERATION', 'publish before join');
    if (this.config.mode === 'live' && this.role !== 'host') throw new AgoraRtcDoubleError('INVALID_OPERATION', 'audience can not publish');
    this.published.push(...tracks);
    this.cloud.publish(this, tracks);
  }

  /** Stops publishing `tracks` (all when omitted): the others hear `user-unpublished`. */
  async unpublish(tracks: DoubleLocalTrack[] = this.published): Promise<void> {
    await Promise.resolve();
    const gone = this.published.filter((t) => tracks.includes(t));
    this.published = this.published.filter((t) => !gone.includes(t));
    this.cloud.unpublish(this, gone);
  }

  async setClientRole(role: ClientRole): Promise<void> {
    await Promise.resolve();
    if (role === 'audience' && this.published.length > 0) throw new AgoraRtcDoubleError('INVALID_OPERATION', 'unpublish before becoming audience');
    this.role = role;
  }

  subscribe(uid: UID, mediaType: 'video'): Promise<DoubleRemoteVideoTrack>;
  subscribe(uid: UID, mediaType: 'audio'): Promise<DoubleRemoteAudioTrack>;
  async subscribe(uid: UID, mediaType: 'audio' | 'video'): Promise<DoubleRemoteVideoTrack | DoubleRemoteAudioTrack> {
    await Promise.resolve();
    const source = this.cloud.subscribe(this, uid, mediaType);
    if (mediaType === 'audio') {
      const audio = new DoubleRemoteAudioTrack();
      this.subscribedAudio.push(audio);
      return audio;
    }
    const video = new DoubleRemoteVideoTrack(source);
    this.subscribedVideo.push(video);
    return video;
  }

  /** @internal */
  changeState(next: ConnectionState, reason?: `${ConnectionDisconnectedReason}`): void {
    const previous = this.connectionState;
    this.connectionState = next;
    this.emit('connection-state-change', next, previous, reason);
  }
}

/** One simulated device's `AgoraRTC` object. */
export class AgoraRtcDoubleSdk implements AgoraRtcSdk<DoubleLocalTrack> {
  readonly clients: AgoraRtcDoubleClient[] = [];
  readonly tracks: DoubleLocalTrack[] = [];
  readonly parameters = new Map<string, unknown>();
  logUploadDisabled = false;
  logLevel: number | null = null;
  /** The next camera / microphone opening fails with this SDK code. */
  readonly failNext: { camera?: `${AgoraRTCErrorCode}`; microphone?: `${AgoraRTCErrorCode}` } = {};

  constructor(readonly cloud: AgoraRtcCloud) {}

  setParameter: typeof setParameter = (key, value) => {
    this.parameters.set(key, value);
  };

  disableLogUpload(): void {
    this.logUploadDisabled = true;
  }

  setLogLevel(level: number): void {
    this.logLevel = level;
  }

  createClient(config: ClientConfig): AgoraRtcDoubleClient {
    const client = new AgoraRtcDoubleClient(this.cloud, config);
    this.clients.push(client);
    return client;
  }

  async createCameraVideoTrack(config?: CameraVideoTrackInitConfig): Promise<DoubleLocalTrack> {
    return this.open('video', this.failNext.camera, config, () => delete this.failNext.camera);
  }

  async createMicrophoneAudioTrack(config?: MicrophoneAudioTrackInitConfig): Promise<DoubleLocalTrack> {
    return this.open('audio', this.failNext.microphone, config, () => delete this.failNext.microphone);
  }

  get lastClient(): AgoraRtcDoubleClient {
    const client = this.clients.at(-1);
    if (!client) throw new Error('No RTC client yet.');
    return client;
  }

  private async open(
    kind: 'audio' | 'video', failure: `${AgoraRTCErrorCode}` | undefined,
    config: CameraVideoTrackInitConfig | MicrophoneAudioTrackInitConfig | undefined, clear: () => void,
  ): Promise<DoubleLocalTrack> {
    await Promise.resolve();
    if (failure) {
      clear();
      throw new AgoraRtcDoubleError(failure);
    }
    const track = new DoubleLocalTrack(kind, config);
    this.tracks.push(track);
    return track;
  }
}
