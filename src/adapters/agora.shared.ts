/**
 * What the call's and the live room's Agora adapters (rtc.agora.ts, live.agora.ts) share: the
 * SDK surface they use (which rtc.agora.sdk.ts and live.agora.sdk.ts check the real SDK
 * against, and doubles/agora-rtc.double.ts implements), telemetry off, SPEC §9 720p camera,
 * SPEC §3 media errors by SDK code, and the plumbing of one channel visit: listening to the
 * client, showing and playing the remote media, joining and leaving.
 *
 * Types only are imported from the SDK here: the SDK's code arrives through each adapter's
 * `deps.loadSdk` (its own lazy chunk).
 */
import type {
  AgoraRTCErrorCode, CameraVideoTrackInitConfig, ClientConfig, ConnectionDisconnectedReason, ConnectionState, IAgoraRTC,
  IAgoraRTCClient, ILocalTrack, IRemoteAudioTrack, IRemoteVideoTrack, MicrophoneAudioTrackInitConfig, NetworkQuality, UID,
  VideoEncoderConfiguration,
} from 'agora-rtc-sdk-ng';
import type { setParameter } from 'agora-rtc-sdk-ng/esm';
import { MediaError, type MediaErrorKind } from '../../machines/ports/call.port';
import { watchFirstFrame, type MediaViewState } from './rtc.view';

/** A local track as the adapter uses it. */
export type AgoraLocalTrack = Pick<ILocalTrack, 'close' | 'getMediaStreamTrack' | 'trackMediaType'>;

export type AgoraRemoteVideoTrack = Pick<IRemoteVideoTrack, 'getMediaStreamTrack' | 'stop'> & {
  on(event: 'first-frame-decoded', listener: () => void): void;
  off(event: 'first-frame-decoded', listener: () => void): void;
};
export type AgoraRemoteAudioTrack = Pick<IRemoteAudioTrack, 'play' | 'stop'> & {
  on(event: 'first-frame-decoded', listener: () => void): void;
  off(event: 'first-frame-decoded', listener: () => void): void;
};

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
export type AgoraListener<E extends keyof AgoraClientEvents> = (...args: AgoraClientEvents[E]) => void;

/** The part of the SDK client the adapter uses; `T`: the SDK's local tracks, which go back to `publish` as they came. */
export interface AgoraClient<T extends AgoraLocalTrack = AgoraLocalTrack> {
  readonly connectionState: IAgoraRTCClient['connectionState'];
  join: IAgoraRTCClient['join'];
  leave: IAgoraRTCClient['leave'];
  publish(tracks: T[]): Promise<void>;
  subscribe(uid: UID, mediaType: 'video'): Promise<AgoraRemoteVideoTrack>;
  subscribe(uid: UID, mediaType: 'audio'): Promise<AgoraRemoteAudioTrack>;
  on<E extends keyof AgoraClientEvents>(event: E, listener: AgoraListener<E>): void;
  off<E extends keyof AgoraClientEvents>(event: E, listener: AgoraListener<E>): void;
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


/** What both adapters are given; `S`: the SDK as the adapter uses it. */
export interface AgoraMediaDeps<S> {
  appId: string;
  /** Resolves to the SDK (production: the adapter's *.load.ts). */
  loadSdk(): Promise<S>;
  /** The rtcToken of /api/index/getAgoraRtmToken, asked for at every join. */
  rtcToken(): Promise<string>;
  /** Default `new MediaStream(tracks)`; Node tests pass their own. */
  newStream?: (tracks: MediaStreamTrack[]) => MediaStream;
  /** Default: a detached video element's first frame (rtc.view.ts); returns the cancel. */
  watchFrames?: (stream: MediaStream, onFrame: () => void) => () => void;
}

/** SPEC §9 "720p encoder" (Agora's `720p_1`: 1280×720, 15 fps, up to 1130 kbps). */
export const ENCODER_720P = { width: 1280, height: 720, frameRate: 15, bitrateMax: 1130 } as const satisfies VideoEncoderConfiguration;
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

/** The stream and first-frame defaults of `deps`. */
export function mediaDefaults(deps: Pick<AgoraMediaDeps<unknown>, 'newStream' | 'watchFrames'>) {
  return {
    newStream: deps.newStream ?? ((tracks: MediaStreamTrack[]) => new MediaStream(tracks)),
    watchFrames: deps.watchFrames ?? ((stream: MediaStream, onFrame: () => void) => watchFirstFrame(stream, onFrame)),
  };
}

/** Loads the SDK once and silences it before anything is made with it; after a failure the next call tries again. */
export function silencedLoader<S extends Parameters<typeof silence>[0]>(load: () => Promise<S>): () => Promise<S> {
  let loading: Promise<S> | null = null;
  return () => {
    loading ??= load().then(
      (sdk) => {
        silence(sdk);
        return sdk;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
}

/**
 * Opens the microphone and, with `video`, the camera at 1280×720 keeping resolution over frame
 * rate. An SDK media error becomes a MediaError by its code; when `stale()` by then (left
 * while the camera was opening), the tracks go off again at once and `left` is thrown.
 */
export async function openLocalTracks<T extends AgoraLocalTrack>(
  sdk: Pick<AgoraRtcSdk<T>, 'createMicrophoneAudioTrack' | 'createCameraVideoTrack'>, video: boolean, stale: () => boolean, left: string,
): Promise<T[]> {
  const opened: T[] = [];
  try {
    opened.push(await sdk.createMicrophoneAudioTrack({ AEC: true, ANS: true, AGC: true }));
    if (video) opened.push(await sdk.createCameraVideoTrack({ encoderConfig: ENCODER_720P, optimizationMode: 'detail' }));
  } catch (error) {
    closeTracks(opened);
    throw mediaErrorOf(error) ?? error;
  }
  if (stale()) {
    closeTracks(opened);
    throw new Error(left);
  }
  return opened;
}

export function closeTracks(tracks: readonly AgoraLocalTrack[]): void {
  for (const track of tracks) track.close();
}

/** Listens to the client's events; returns the detach. */
export function listen(client: Pick<AgoraClient, 'on' | 'off'>, listeners: { [E in keyof AgoraClientEvents]?: AgoraListener<E> }): () => void {
  const events = Object.keys(listeners) as (keyof AgoraClientEvents)[];
  const on = client.on.bind(client) as (event: string, listener: unknown) => void;
  const off = client.off.bind(client) as (event: string, listener: unknown) => void;
  for (const event of events) on(event, listeners[event]);
  return () => {
    for (const event of events) off(event, listeners[event]);
  };
}

/** A `connection-state-change` that means the link is gone: DISCONNECTED for any reason but our own leave. */
export function linkLost(current: ConnectionState, reason: string | undefined, leaving: boolean): boolean {
  return current === 'DISCONNECTED' && !leaving && reason !== 'LEAVE';
}

/** One channel visit: the client, the detach of its listeners, and the undoing of the remote media it shows and plays. */
export interface AgoraVisit<C extends Pick<AgoraClient, 'leave'>> {
  client: C;
  detach: () => void;
  remoteStops: (() => void)[];
  leaving: boolean;
}

/** Stops showing and playing the remote media of `visit`. */
export function dropRemote(visit: AgoraVisit<Pick<AgoraClient, 'leave'>>, media: MediaViewState): void {
  for (const stop of visit.remoteStops.splice(0)) stop();
  media.setRemote(null);
}

/** Ends `visit`: its remote media goes, its listeners are detached and the channel is left. */
export async function endVisit(visit: AgoraVisit<Pick<AgoraClient, 'leave'>>, media: MediaViewState): Promise<void> {
  visit.leaving = true;
  dropRemote(visit, media);
  visit.detach();
  await visit.client.leave().catch(() => undefined);
}

/**
 * Runs the join of `visit`; when it fails, the visit is ended (`end`) while it is still the
 * current one, or else — left during the join: the leave came before the channel was joined —
 * the channel is left now.
 */
export async function joinOrLeave(visit: AgoraVisit<Pick<AgoraClient, 'leave'>>, current: () => boolean, end: () => Promise<void>, join: () => Promise<void>): Promise<void> {
  try {
    await join();
  } catch (error) {
    if (current()) await end();
    else await visit.client.leave().catch(() => undefined);
    throw error;
  }
}

/** Plays the remote user's sound through the SDK while `current()`; a failed subscription is silence. */
export function playRemoteAudio(
  client: Pick<AgoraClient, 'subscribe'>, uid: UID, visit: AgoraVisit<Pick<AgoraClient, 'leave'>>, current: () => boolean,
  onFirstSound?: () => void,
): void {
  client.subscribe(uid, 'audio').then((audio) => {
    if (!current()) return;
    if (onFirstSound) {
      // The track's first decoded audio frame: the peer is heard (an audio call is connected then).
      const first = () => {
        audio.off('first-frame-decoded', first);
        if (current()) onFirstSound();
      };
      audio.on('first-frame-decoded', first);
      visit.remoteStops.push(() => audio.off('first-frame-decoded', first));
    }
    audio.play();
    visit.remoteStops.push(() => audio.stop());
  }, () => undefined);
}

/**
 * Shows the remote video track as `media.remote()`; `onFirstFrame` once, on the track's
 * `first-frame-decoded` or the first frame `watchFrames` sees, whichever comes first while `current()`.
 */
export function showRemoteVideo(
  video: AgoraRemoteVideoTrack, visit: AgoraVisit<Pick<AgoraClient, 'leave'>>, media: MediaViewState,
  view: ReturnType<typeof mediaDefaults>, current: () => boolean, onFirstFrame: () => void,
): void {
  let framed = false;
  const first = () => {
    if (framed || !current()) return;
    framed = true;
    onFirstFrame();
  };
  video.on('first-frame-decoded', first);
  const stream = view.newStream([video.getMediaStreamTrack()]);
  media.setRemote(stream);
  const cancel = view.watchFrames(stream, first);
  visit.remoteStops.push(() => {
    cancel();
    video.off('first-frame-decoded', first);
  });
}
