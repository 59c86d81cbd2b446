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
import {
  closeTracks, dropRemote, endVisit, joinOrLeave, linkLost, listen, mediaDefaults, openLocalTracks, playRemoteAudio, showRemoteVideo,
  silencedLoader, type AgoraClient, type AgoraLocalTrack, type AgoraMediaDeps, type AgoraRtcSdk, type AgoraVisit,
} from './agora.shared';
import type { LiveMediaAdapter } from './live.local';
import { eventFanOut } from './media.events';
import { MediaViewState } from './rtc.view';

/** The client as the live adapter uses it: the call's surface and the live role. */
export interface AgoraLiveClient<T extends AgoraLocalTrack = AgoraLocalTrack> extends AgoraClient<T> {
  setClientRole: IAgoraRTCClient['setClientRole'];
}

/** The SDK's default export as the live adapter uses it. */
export interface AgoraLiveSdk<T extends AgoraLocalTrack = AgoraLocalTrack> extends Omit<AgoraRtcSdk<T>, 'createClient'> {
  createClient(config: ClientConfig): AgoraLiveClient<T>;
}

/** Production passes `loadAgoraLive` (live.agora.load.ts) as `loadSdk`; the rtcToken is asked for at every publish and watch. */
export type AgoraLiveDeps<T extends AgoraLocalTrack> = AgoraMediaDeps<AgoraLiveSdk<T>>;

/** SPEC §9: live mode, VP9. */
export const LIVE_CLIENT_CONFIG = { mode: 'live', codec: 'vp9' } as const satisfies ClientConfig;
const LEFT = 'The live room was left before this finished';

/** One room visit; its remote media (viewer) is the host's. */
interface Session<T extends AgoraLocalTrack> extends AgoraVisit<AgoraLiveClient<T>> {
  role: 'host' | 'audience';
  /** Viewer: whether the host is seen publishing (what decides hostJoined / hostLeft). */
  host: 'present' | 'absent';
}

export function createAgoraLiveMedia<T extends AgoraLocalTrack>(deps: AgoraLiveDeps<T>): LiveMediaAdapter {
  const view = mediaDefaults(deps);
  const events = eventFanOut<LiveMediaEvent>();
  const { emit } = events;
  const media = new MediaViewState();
  const loadSdk = silencedLoader(() => deps.loadSdk());
  let tracks: T[] = [];
  let session: Session<T> | null = null;
  /** Counts leaves: a publish or watch still under way when the room is left must not open anything after it. */
  let leaves = 0;

  function closeOwn(): void {
    closeTracks(tracks);
    tracks = [];
    media.setLocal(null);
  }

  function hostGone(s: Session<T>): void {
    dropRemote(s, media);
    if (s.host !== 'present') return;
    s.host = 'absent';
    emit({ type: 'hostLeft' });
  }

  function attach(s: Session<T>): () => void {
    const { client } = s;
    const current = () => session === s;
    return listen(client, {
      'user-published': ({ uid }, mediaType) => {
        if (s.role !== 'audience') return;
        if (mediaType === 'audio') {
          playRemoteAudio(client, uid, s, current);
        } else if (mediaType === 'video') {
          if (s.host === 'absent') {
            s.host = 'present';
            emit({ type: 'hostJoined' });
          }
          // A failed subscription shows as no first frame: the live machine's time-out decides.
          client.subscribe(uid, 'video').then((video) => {
            if (current() && s.host === 'present') showRemoteVideo(video, s, media, view, current, () => emit({ type: 'firstRemoteFrame' }));
          }, () => undefined);
        }
      },
      'user-unpublished': (_user, mediaType) => {
        if (s.role === 'audience' && mediaType === 'video') hostGone(s);
      },
      'user-left': () => {
        if (s.role === 'audience') hostGone(s);
      },
      'connection-state-change': (state, _previous, reason) => {
        if (!linkLost(state, reason, s.leaving) || !current()) return;
        dropRemote(s, media);
        emit({ type: 'connectionLost' });
      },
    });
  }

  async function leaveSession(): Promise<void> {
    const s = session;
    if (!s) return;
    session = null;
    await endVisit(s, media);
  }

  /** Joins the channel in `role` on a client of its own; with tracks, publishes them. */
  async function enter(sdk: AgoraLiveSdk<T>, channelId: string, account: string, role: 'host' | 'audience', at: number): Promise<void> {
    const token = await deps.rtcToken();
    if (at !== leaves) throw new Error(LEFT);
    const client = sdk.createClient(LIVE_CLIENT_CONFIG);
    const s: Session<T> = { client, role, detach: () => undefined, remoteStops: [], host: 'absent', leaving: false };
    s.detach = attach(s);
    session = s;
    await joinOrLeave(s, () => session === s, leaveSession, async () => {
      await client.setClientRole(role);
      await client.join(deps.appId, channelId, token, account);
      if (at !== leaves) throw new Error(LEFT);
      if (role === 'host') await client.publish(tracks);
    });
  }

  return {
    media,

    async publish(channelId, account) {
      // Counted from the call: a leave that comes while the last visit is being left cancels this one.
      const at = leaves;
      await leaveSession();
      closeOwn();
      const sdk = await loadSdk();
      const opened = await openLocalTracks(sdk, true, () => at !== leaves, LEFT);
      tracks = opened;
      media.setLocal(view.newStream(opened.map((t) => t.getMediaStreamTrack())));
      try {
        await enter(sdk, channelId, account, 'host', at);
      } catch (error) {
        // Not on the air: the camera goes off (unless a later publish owns it by now).
        if (tracks === opened) closeOwn();
        throw error;
      }
    },

    async watch(channelId, account) {
      const at = leaves;
      await leaveSession();
      closeOwn();
      const sdk = await loadSdk();
      if (at !== leaves) throw new Error(LEFT);
      await enter(sdk, channelId, account, 'audience', at);
    },

    async leave() {
      leaves += 1;
      await leaveSession();
      closeOwn();
    },

    subscribe: events.subscribe,
  };
}
