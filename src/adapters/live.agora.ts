/**
 * The live room's media (LiveMediaPort) on Agora RTC in live mode (`agora-rtc-sdk-ng`
 * 4.24.8): SPEC §2 /liveRoom, §9 Video (720p encoder, VP9), §7 the rtcToken of
 * getAgoraRtmToken. The local stand-in is live.local.ts.
 *
 * - The SDK arrives through `deps.loadSdk` (live.agora.load.ts: its own chunk, loaded when a
 *   live room first opens, up to 3 attempts); telemetry is turned off (event reports, log
 *   upload) before any client or track is made. Each room visit is a
 *   `createClient({ mode: 'live', codec: 'vp9' })` of its own.
 * - `publish(channelId, account)` (host) opens the microphone and the camera at 1280×720
 *   keeping resolution over frame rate (`optimizationMode: 'detail'`) — an SDK media error
 *   becomes a MediaError by its code — then `setClientRole('host')`, joins with the rtcToken
 *   (the account is the string uid) and publishes both.
 * - `watch(channelId, account)` (viewer): `setClientRole('audience')` and joins. In live mode
 *   only hosts are seen, so whoever publishes is the room's host: its sound is subscribed and
 *   played by the SDK, its video subscribed and shown as `media.remote()`.
 * - Viewer events: `firstRemoteFrame` from the video track's `first-frame-decoded` or a
 *   detached video element's first frame, once per host appearance; `hostJoined` whenever the
 *   host's video is published while it was not seen — its first appearance included: the SDK
 *   announces a host that was already in the channel exactly as one that arrives, and a viewer
 *   that started watching while the host was away must hear it come (live.local.ts has the
 *   same rule); `hostLeft` on the host's `user-unpublished` (video) or `user-left`, whichever
 *   comes first, when it was seen. Both roles: `connection-state-change` to
 *   DISCONNECTED for any reason but our own leave (the SDK gave up reconnecting, or the
 *   account was banned or joined elsewhere) → `connectionLost`.
 * - `leave()` leaves the channel and (host) closes the tracks: the camera light goes off.
 *   Safe to repeat; a publish or watch still under way when it comes opens nothing after it.
 */
import type { ClientConfig, IAgoraRTCClient } from 'agora-rtc-sdk-ng';
import type { LiveMediaEvent } from '../../machines/ports/live.port';
import type { LiveMediaAdapter } from './live.local';
import {
  ENCODER_720P, mediaErrorOf, silence, type AgoraClient, type AgoraClientEvents, type AgoraLocalTrack, type AgoraRemoteVideoTrack,
  type AgoraRtcSdk,
} from './rtc.agora';
import { MediaViewState, watchFirstFrame } from './rtc.view';

/** The client as the live adapter uses it: the call's surface and the live role. */
export interface AgoraLiveClient<T extends AgoraLocalTrack = AgoraLocalTrack> extends AgoraClient<T> {
  setClientRole: IAgoraRTCClient['setClientRole'];
}

/** The SDK's default export as the live adapter uses it. */
export interface AgoraLiveSdk<T extends AgoraLocalTrack = AgoraLocalTrack> extends Omit<AgoraRtcSdk<T>, 'createClient'> {
  createClient(config: ClientConfig): AgoraLiveClient<T>;
}

export interface AgoraLiveDeps<T extends AgoraLocalTrack> {
  appId: string;
  /** Resolves to the SDK; production passes `loadAgoraLive` (live.agora.load.ts). */
  loadSdk(): Promise<AgoraLiveSdk<T>>;
  /** The rtcToken of /api/index/getAgoraRtmToken, asked for at every publish and watch. */
  rtcToken(): Promise<string>;
  /** Default `new MediaStream(tracks)`; Node tests pass their own. */
  newStream?: (tracks: MediaStreamTrack[]) => MediaStream;
  /** Default: a detached video element's first frame (rtc.view.ts); returns the cancel. */
  watchFrames?: (stream: MediaStream, onFrame: () => void) => () => void;
}

/** SPEC §9: live mode, VP9. */
export const LIVE_CLIENT_CONFIG = { mode: 'live', codec: 'vp9' } as const satisfies ClientConfig;
const LEFT = 'The live room was left before this finished';

type Listener<E extends keyof AgoraClientEvents> = (...args: AgoraClientEvents[E]) => void;

interface Session<T extends AgoraLocalTrack> {
  client: AgoraLiveClient<T>;
  role: 'host' | 'audience';
  detach: () => void;
  /** Viewer: undoes what shows and plays the host's media. */
  hostStops: (() => void)[];
  /** Viewer: whether the host is seen publishing (what decides hostJoined / hostLeft). */
  host: 'present' | 'absent';
  leaving: boolean;
}

export function createAgoraLiveMedia<T extends AgoraLocalTrack>(deps: AgoraLiveDeps<T>): LiveMediaAdapter {
  const newStream = deps.newStream ?? ((tracks: MediaStreamTrack[]) => new MediaStream(tracks));
  const watchFrames = deps.watchFrames ?? ((stream: MediaStream, onFrame: () => void) => watchFirstFrame(stream, onFrame));
  const listeners = new Set<(event: LiveMediaEvent) => void>();
  const media = new MediaViewState();
  let sdkLoading: Promise<AgoraLiveSdk<T>> | null = null;
  let tracks: T[] = [];
  let session: Session<T> | null = null;
  /** Counts leaves: a publish or watch still under way when the room is left must not open anything after it. */
  let leaves = 0;

  const emit = (event: LiveMediaEvent): void => {
    for (const listener of [...listeners]) listener(event);
  };

  function loadSdk(): Promise<AgoraLiveSdk<T>> {
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

  function dropHostMedia(s: Session<T>): void {
    for (const stop of s.hostStops.splice(0)) stop();
    media.setRemote(null);
  }

  function hostGone(s: Session<T>): void {
    dropHostMedia(s);
    if (s.host !== 'present') return;
    s.host = 'absent';
    emit({ type: 'hostLeft' });
  }

  function showHost(s: Session<T>, video: AgoraRemoteVideoTrack): void {
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
    s.hostStops.push(() => {
      cancel();
      video.off('first-frame-decoded', first);
    });
  }

  function attach(s: Session<T>): () => void {
    const { client } = s;
    const published: Listener<'user-published'> = ({ uid }, mediaType) => {
      if (s.role !== 'audience') return;
      if (mediaType === 'audio') {
        client.subscribe(uid, 'audio').then((audio) => {
          if (session !== s) return;
          audio.play();
          s.hostStops.push(() => audio.stop());
        }, () => undefined);
      } else if (mediaType === 'video') {
        if (s.host === 'absent') {
          s.host = 'present';
          emit({ type: 'hostJoined' });
        }
        // A failed subscription shows as no first frame: the live machine's time-out decides.
        client.subscribe(uid, 'video').then((video) => {
          if (session === s && s.host === 'present') showHost(s, video);
        }, () => undefined);
      }
    };
    const unpublished: Listener<'user-unpublished'> = (_user, mediaType) => {
      if (s.role === 'audience' && mediaType === 'video') hostGone(s);
    };
    const left: Listener<'user-left'> = () => {
      if (s.role === 'audience') hostGone(s);
    };
    const stateChanged: Listener<'connection-state-change'> = (current, _previous, reason) => {
      if (current !== 'DISCONNECTED' || s.leaving || reason === 'LEAVE' || session !== s) return;
      dropHostMedia(s);
      emit({ type: 'connectionLost' });
    };
    client.on('user-published', published);
    client.on('user-unpublished', unpublished);
    client.on('user-left', left);
    client.on('connection-state-change', stateChanged);
    return () => {
      client.off('user-published', published);
      client.off('user-unpublished', unpublished);
      client.off('user-left', left);
      client.off('connection-state-change', stateChanged);
    };
  }

  async function leaveSession(): Promise<void> {
    const s = session;
    if (!s) return;
    session = null;
    s.leaving = true;
    dropHostMedia(s);
    s.detach();
    await s.client.leave().catch(() => undefined);
  }

  /** Joins the channel in `role` on a client of its own; with tracks, publishes them. */
  async function enter(sdk: AgoraLiveSdk<T>, channelId: string, account: string, role: 'host' | 'audience', at: number): Promise<void> {
    const token = await deps.rtcToken();
    if (at !== leaves) throw new Error(LEFT);
    const client = sdk.createClient(LIVE_CLIENT_CONFIG);
    const s: Session<T> = { client, role, detach: () => undefined, hostStops: [], host: 'absent', leaving: false };
    s.detach = attach(s);
    session = s;
    try {
      await client.setClientRole(role);
      await client.join(deps.appId, channelId, token, account);
      if (at !== leaves) throw new Error(LEFT);
      if (role === 'host') await client.publish(tracks);
    } catch (error) {
      if (session === s) await leaveSession();
      // Left during the join: the leave came before the channel was joined, so leave it now.
      else await client.leave().catch(() => undefined);
      throw error;
    }
  }

  return {
    media,

    async publish(channelId, account) {
      // Counted from the call: a leave that comes while the last visit is being left cancels this one.
      const at = leaves;
      await leaveSession();
      closeTracks();
      const sdk = await loadSdk();
      const opened: T[] = [];
      try {
        opened.push(await sdk.createMicrophoneAudioTrack({ AEC: true, ANS: true, AGC: true }));
        opened.push(await sdk.createCameraVideoTrack({ encoderConfig: ENCODER_720P, optimizationMode: 'detail' }));
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
      try {
        await enter(sdk, channelId, account, 'host', at);
      } catch (error) {
        // Not on the air: the camera goes off (unless a later publish owns it by now).
        if (tracks === opened) closeTracks();
        throw error;
      }
    },

    async watch(channelId, account) {
      const at = leaves;
      await leaveSession();
      closeTracks();
      const sdk = await loadSdk();
      if (at !== leaves) throw new Error(LEFT);
      await enter(sdk, channelId, account, 'audience', at);
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
