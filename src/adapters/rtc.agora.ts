/**
 * The RTC port on Agora RTC (`agora-rtc-sdk-ng` 4.24.8): SPEC §3 media error texts, §9 Video
 * (720p encoder, VP9), §7 the rtcToken of getAgoraRtmToken.
 *
 * - `prepare(video)` loads the SDK (rtc.agora.load.ts: its own chunk, up to 3 attempts),
 *   turns its telemetry off (event reports, log upload) and opens the microphone and, for a
 *   video call, the camera at 1280×720 keeping resolution over frame rate
 *   (`optimizationMode: 'detail'`). An SDK media error becomes a MediaError by its code.
 * - `join(channelId, account)`: `createClient({ mode: 'rtc', codec: 'vp9' })`,
 *   `join(appId, channelId, rtcToken, account)` (the account is the string uid) and publish.
 * - The peer's tracks are subscribed on `user-published`: its sound plays through the SDK,
 *   its video goes to the media view; `firstRemoteFrame` comes from the video track's
 *   `first-frame-decoded` or a detached video element's first frame (the SDK only reports
 *   it for tracks it plays itself). `user-left` → `remoteLeft`; `connection-state-change`
 *   to DISCONNECTED for any reason but our own leave → `connectionLost`; `network-quality`
 *   → `networkQuality` (the worse of up- and downlink, when it changes).
 * - `leave()` leaves the channel and closes the tracks (the camera light goes off).
 *
 * Types only are imported from the SDK here; the code arrives through `deps.loadSdk`. The
 * surface below is what the adapter and the double (doubles/agora-rtc.double.ts) use, and
 * rtc.agora.sdk.ts checks that the real SDK keeps fitting it.
 */
import type {
  AgoraRTCErrorCode, CameraVideoTrackInitConfig, ClientConfig, ConnectionDisconnectedReason, ConnectionState, IAgoraRTC,
  IAgoraRTCClient, ILocalTrack, IRemoteAudioTrack, IRemoteVideoTrack, MicrophoneAudioTrackInitConfig, NetworkQuality, UID,
  VideoEncoderConfiguration,
} from 'agora-rtc-sdk-ng';
import type { setParameter } from 'agora-rtc-sdk-ng/esm';
import type { RtcAdapter } from '../../machines/ports/call.media';
import { MediaError, type MediaErrorKind, type RtcEvent } from '../../machines/ports/call.port';
import { MediaViewState, watchFirstFrame } from './rtc.view';

/** A local track as the adapter uses it. */
export type AgoraLocalTrack = Pick<ILocalTrack, 'close' | 'getMediaStreamTrack' | 'trackMediaType'>;

export type AgoraRemoteVideoTrack = Pick<IRemoteVideoTrack, 'getMediaStreamTrack' | 'stop'> & {
  on(event: 'first-frame-decoded', listener: () => void): void;
  off(event: 'first-frame-decoded', listener: () => void): void;
};
export type AgoraRemoteAudioTrack = Pick<IRemoteAudioTrack, 'play' | 'stop'>;

export interface AgoraRemoteUser {
  uid: UID;
  videoTrack?: AgoraRemoteVideoTrack;
  audioTrack?: AgoraRemoteAudioTrack;
}

/** The client events the adapter listens to, with the SDK's listener arguments. */
export interface AgoraClientEvents {
  'user-published': [user: AgoraRemoteUser, mediaType: 'audio' | 'video' | 'datachannel'];
  'user-unpublished': [user: AgoraRemoteUser, mediaType: 'audio' | 'video' | 'datachannel'];
  'user-left': [user: AgoraRemoteUser, reason: string];
  'connection-state-change': [current: ConnectionState, previous: ConnectionState, reason?: `${ConnectionDisconnectedReason}`];
  'network-quality': [stats: NetworkQuality];
}
type Listener<E extends keyof AgoraClientEvents> = (...args: AgoraClientEvents[E]) => void;

/** The part of the SDK client the adapter uses; `T`: the SDK's local tracks, which go back to `publish` as they came. */
export interface AgoraClient<T extends AgoraLocalTrack = AgoraLocalTrack> {
  readonly connectionState: IAgoraRTCClient['connectionState'];
  join: IAgoraRTCClient['join'];
  leave: IAgoraRTCClient['leave'];
  publish(tracks: T[]): Promise<void>;
  subscribe(uid: UID, mediaType: 'video'): Promise<AgoraRemoteVideoTrack>;
  subscribe(uid: UID, mediaType: 'audio'): Promise<AgoraRemoteAudioTrack>;
  on<E extends keyof AgoraClientEvents>(event: E, listener: Listener<E>): void;
  off<E extends keyof AgoraClientEvents>(event: E, listener: Listener<E>): void;
}

/** The SDK's default export as the adapter uses it (`setParameter` is typed from the SDK's ESM declarations). */
export interface AgoraRtcSdk<T extends AgoraLocalTrack = AgoraLocalTrack> {
  createClient(config: ClientConfig): AgoraClient<T>;
  createCameraVideoTrack(config?: CameraVideoTrackInitConfig): Promise<T>;
  createMicrophoneAudioTrack(config?: MicrophoneAudioTrackInitConfig): Promise<T>;
  disableLogUpload: IAgoraRTC['disableLogUpload'];
  setLogLevel: IAgoraRTC['setLogLevel'];
  setParameter: typeof setParameter;
}

export interface AgoraRtcDeps<T extends AgoraLocalTrack> {
  appId: string;
  /** Resolves to the SDK; production passes `loadAgoraRtc` (rtc.agora.load.ts). */
  loadSdk(): Promise<AgoraRtcSdk<T>>;
  /** The rtcToken of /api/index/getAgoraRtmToken, asked for at every join. */
  rtcToken(): Promise<string>;
  /** Default `new MediaStream(tracks)`; Node tests pass their own. */
  newStream?: (tracks: MediaStreamTrack[]) => MediaStream;
  /** Default: a detached video element's first frame (rtc.view.ts); returns the cancel. */
  watchFrames?: (stream: MediaStream, onFrame: () => void) => () => void;
}

/** SPEC §9 "720p encoder" (Agora's `720p_1`: 1280×720, 15 fps, up to 1130 kbps). */
export const ENCODER_720P = { width: 1280, height: 720, frameRate: 15, bitrateMax: 1130 } as const satisfies VideoEncoderConfiguration;
export const CLIENT_CONFIG = { mode: 'rtc', codec: 'vp9' } as const satisfies ClientConfig;
const LEFT = 'The call was left before this finished';
/** Agora's log levels: 0 debug … 3 error, 4 none. */
const LOG_LEVEL_ERROR = 3;

/** SPEC §3 media errors by the SDK's error code; other failures are passed on as they are. */
export const MEDIA_ERROR_OF = {
  NOT_SUPPORTED: 'notSupported',
  WEB_SECURITY_RESTRICT: 'notSupported',
  MEDIA_OPTION_INVALID: 'optionInvalid',
  DEVICE_NOT_FOUND: 'deviceNotFound',
  NOT_READABLE: 'deviceNotFound',
  PERMISSION_DENIED: 'permissionDenied',
  CONSTRAINT_NOT_SATISFIED: 'constraintNotSatisfied',
  SHARE_AUDIO_NOT_ALLOWED: 'shareAudioNotAllowed',
} as const satisfies Partial<Record<`${AgoraRTCErrorCode}`, MediaErrorKind>>;

export function mediaErrorOf(error: unknown): MediaError | null {
  const code = error !== null && typeof error === 'object' && 'code' in error ? error.code : undefined;
  if (typeof code !== 'string' || !Object.hasOwn(MEDIA_ERROR_OF, code)) return null;
  return new MediaError(MEDIA_ERROR_OF[code as keyof typeof MEDIA_ERROR_OF]);
}

/** Telemetry off (no event reports, no log upload) and only errors in the console. */
export function silence(sdk: Pick<AgoraRtcSdk, 'setParameter' | 'disableLogUpload' | 'setLogLevel'>): void {
  sdk.setParameter('ENABLE_EVENT_REPORT', false);
  sdk.setParameter('UPLOAD_LOG', false);
  sdk.disableLogUpload();
  sdk.setLogLevel(LOG_LEVEL_ERROR);
}

interface Session<T extends AgoraLocalTrack> {
  client: AgoraClient<T>;
  detach: () => void;
  peerStops: (() => void)[];
  leaving: boolean;
}

export function createAgoraRtcPort<T extends AgoraLocalTrack>(deps: AgoraRtcDeps<T>): RtcAdapter {
  const newStream = deps.newStream ?? ((tracks: MediaStreamTrack[]) => new MediaStream(tracks));
  const watchFrames = deps.watchFrames ?? ((stream: MediaStream, onFrame: () => void) => watchFirstFrame(stream, onFrame));
  const listeners = new Set<(event: RtcEvent) => void>();
  const media = new MediaViewState();
  let sdkLoading: Promise<AgoraRtcSdk<T>> | null = null;
  let tracks: T[] = [];
  let session: Session<T> | null = null;
  let quality = 0;
  /** Counts leaves: a prepare or join still under way when the call is left must not open anything after it. */
  let leaves = 0;

  const emit = (event: RtcEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  function loadSdk(): Promise<AgoraRtcSdk<T>> {
    sdkLoading ??= deps.loadSdk().then(
      (sdk) => {
        silence(sdk);
        return sdk;
      },
      (error: unknown) => {
        sdkLoading = null;
        throw error;
      },
    );
    return sdkLoading;
  }

  function closeTracks(): void {
    for (const track of tracks) track.close();
    tracks = [];
    media.setLocal(null);
  }

  function dropPeer(s: Session<T>): void {
    for (const stop of s.peerStops.splice(0)) stop();
    media.setRemote(null);
  }

  function showPeer(s: Session<T>, video: AgoraRemoteVideoTrack): void {
    let framed = false;
    const first = () => {
      if (framed || session !== s) return;
      framed = true;
      emit({ type: 'firstRemoteFrame' });
    };
    video.on('first-frame-decoded', first);
    const stream = newStream([video.getMediaStreamTrack()]);
    media.setRemote(stream);
    const cancel = watchFrames(stream, first);
    s.peerStops.push(() => {
      cancel();
      video.off('first-frame-decoded', first);
    });
  }

  function attach(s: Session<T>): () => void {
    const { client } = s;
    const published: Listener<'user-published'> = ({ uid }, mediaType) => {
      if (mediaType === 'audio') {
        client.subscribe(uid, 'audio').then((audio) => {
          if (session !== s) return;
          audio.play();
          s.peerStops.push(() => audio.stop());
        }, () => undefined);
      } else if (mediaType === 'video') {
        // A failed subscription shows as no first frame: the call machine's time-out decides.
        client.subscribe(uid, 'video').then((video) => {
          if (session === s) showPeer(s, video);
        }, () => undefined);
      }
    };
    const unpublished: Listener<'user-unpublished'> = (_user, mediaType) => {
      if (mediaType === 'video') media.setRemote(null);
    };
    const left: Listener<'user-left'> = () => {
      dropPeer(s);
      emit({ type: 'remoteLeft' });
    };
    const stateChanged: Listener<'connection-state-change'> = (current, _previous, reason) => {
      if (current !== 'DISCONNECTED' || s.leaving || reason === 'LEAVE') return;
      dropPeer(s);
      emit({ type: 'connectionLost' });
    };
    const network: Listener<'network-quality'> = ({ uplinkNetworkQuality, downlinkNetworkQuality }) => {
      const next = Math.max(uplinkNetworkQuality, downlinkNetworkQuality);
      if (next === quality) return;
      quality = next;
      emit({ type: 'networkQuality', quality: next });
    };
    client.on('user-published', published);
    client.on('user-unpublished', unpublished);
    client.on('user-left', left);
    client.on('connection-state-change', stateChanged);
    client.on('network-quality', network);
    return () => {
      client.off('user-published', published);
      client.off('user-unpublished', unpublished);
      client.off('user-left', left);
      client.off('connection-state-change', stateChanged);
      client.off('network-quality', network);
    };
  }

  async function leaveSession(): Promise<void> {
    const s = session;
    if (!s) return;
    session = null;
    s.leaving = true;
    dropPeer(s);
    s.detach();
    await s.client.leave().catch(() => undefined);
  }

  return {
    media,

    async prepare(video) {
      const at = leaves;
      const sdk = await loadSdk();
      closeTracks();
      const opened: T[] = [];
      try {
        opened.push(await sdk.createMicrophoneAudioTrack({ AEC: true, ANS: true, AGC: true }));
        if (video) opened.push(await sdk.createCameraVideoTrack({ encoderConfig: ENCODER_720P, optimizationMode: 'detail' }));
      } catch (error) {
        for (const track of opened) track.close();
        throw mediaErrorOf(error) ?? error;
      }
      if (at !== leaves) {
        // Left while the camera was opening: it goes off again at once.
        for (const track of opened) track.close();
        throw new Error(LEFT);
      }
      tracks = opened;
      media.setLocal(newStream(opened.map((t) => t.getMediaStreamTrack())));
    },

    async join(channelId, account) {
      await leaveSession();
      const at = leaves;
      const sdk = await loadSdk();
      const token = await deps.rtcToken();
      if (at !== leaves) throw new Error(LEFT);
      const client = sdk.createClient(CLIENT_CONFIG);
      const s: Session<T> = { client, detach: () => undefined, peerStops: [], leaving: false };
      s.detach = attach(s);
      session = s;
      quality = 0;
      try {
        await client.join(deps.appId, channelId, token, account);
        if (at !== leaves) throw new Error(LEFT);
        if (tracks.length > 0) await client.publish(tracks);
      } catch (error) {
        if (session === s) await leaveSession();
        // Left during the join: the leave came before the channel was joined, so leave it now.
        else await client.leave().catch(() => undefined);
        throw error;
      }
    },

    async leave() {
      leaves += 1;
      await leaveSession();
      closeTracks();
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
