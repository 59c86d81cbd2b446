/**
 * The RTC port on Agora RTC (`agora-rtc-sdk-ng` 4.24.8): SPEC §3 media error texts, §9 Video
 * (720p encoder, VP9), §7 the rtcToken of getAgoraRtmToken.
 *
 * - `prepare(video)` loads the SDK (rtc.agora.load.ts: its own chunk, up to 3 attempts),
 *   turns its telemetry off (event reports, log upload) and opens the microphone and, for a
 *   video call, the camera at 1280×720 keeping resolution over frame rate
 *   (`optimizationMode: 'detail'`). An SDK media error becomes a MediaError by its code, also
 *   said as `mediaFailed` (a caller rings without waiting when `mediaAllowed`). One
 *   preparation per call (media.prepare.ts): a second prepare answers with the first; beside
 *   it the rtcToken is asked for, so that the join does not wait for it, and kept for the
 *   joins of the next minutes (`keptToken`; a refused join asks again). The channel a callee
 *   is rung for is not joined early here: an Agora join publishes, and the caller would see her.
 * - `join(channelId, account)`: `createClient({ mode: 'rtc', codec: 'vp9' })`,
 *   `join(appId, channelId, rtcToken, account)` (the account is the string uid) and publish
 *   (tracks that open after the join, when a callee accepted before her camera was open, are
 *   published as they open).
 * - The peer's tracks are subscribed on `user-published`: its sound plays through the SDK,
 *   its video goes to the media view; `firstRemoteFrame` comes from the video track's
 *   `first-frame-decoded` or a detached video element's first frame (the SDK only reports
 *   it for tracks it plays itself); `firstRemoteAudio` from the audio track's
 *   `first-frame-decoded` (an audio call has no video). `user-left` → `remoteLeft`; `connection-state-change`
 *   to DISCONNECTED for any reason but our own leave → `connectionLost`; `network-quality`
 *   → `networkQuality` (the worse of up- and downlink, when it changes).
 * - `leave()` leaves the channel and closes the tracks (the camera light goes off).
 *
 * Types only are imported from the SDK here; the code arrives through `deps.loadSdk`. The SDK
 * surface and the channel plumbing it shares with the live room's adapter are in
 * agora.shared.ts (re-exported here for the double, rtc.agora.sdk.ts and the tests).
 */
import type { ClientConfig } from 'agora-rtc-sdk-ng';
import type { RtcAdapter } from '../../machines/ports/call.media';
import type { RtcEvent } from '../../machines/ports/call.port';
import {
  closeTracks, endVisit, dropRemote, joinOrLeave, linkLost, listen, mediaDefaults, openLocalTracks, playRemoteAudio, showRemoteVideo,
  silencedLoader, type AgoraClient, type AgoraListener, type AgoraLocalTrack, type AgoraMediaDeps, type AgoraRtcSdk, type AgoraVisit,
} from './agora.shared';
import { eventFanOut } from './media.events';
import { keptToken, onePreparation, watchMediaAllowed } from './media.prepare';
import { MediaViewState } from './rtc.view';

export {
  ENCODER_720P, MEDIA_ERROR_OF, mediaErrorOf, silence, type AgoraClient, type AgoraClientEvents, type AgoraLocalTrack,
  type AgoraRemoteAudioTrack, type AgoraRemoteUser, type AgoraRemoteVideoTrack, type AgoraRtcSdk,
} from './agora.shared';

/** Production passes `loadAgoraRtc` (rtc.agora.load.ts) as `loadSdk`. */
export type AgoraRtcDeps<T extends AgoraLocalTrack> = AgoraMediaDeps<AgoraRtcSdk<T>>;

export const CLIENT_CONFIG = { mode: 'rtc', codec: 'vp9' } as const satisfies ClientConfig;
const LEFT = 'The call was left before this finished';

/** One channel visit; `joined` once the client is in the channel (tracks opened after that are published then). */
type Session<T extends AgoraLocalTrack> = AgoraVisit<AgoraClient<T>> & { joined: boolean };

export function createAgoraRtcPort<T extends AgoraLocalTrack>(deps: AgoraRtcDeps<T>): RtcAdapter {
  const view = mediaDefaults(deps);
  const events = eventFanOut<RtcEvent>();
  const { emit } = events;
  const media = new MediaViewState();
  const loadSdk = silencedLoader(() => deps.loadSdk());
  let tracks: T[] = [];
  let session: Session<T> | null = null;
  let quality = 0;
  /** Counts leaves: a prepare or join still under way when the call is left must not open anything after it. */
  let leaves = 0;
  // A failed preparation is said as an event too: a call that rang without waiting for the camera (`mediaAllowed`) hears it so.
  const preparation = onePreparation(async (video) => {
    const at = leaves;
    const sdk = await loadSdk();
    closeOwn();
    const opened = await openLocalTracks(sdk, video, () => at !== leaves, LEFT);
    tracks = opened;
    media.setLocal(view.newStream(opened.map((t) => t.getMediaStreamTrack())));
    // Joined while the camera was opening (a callee who accepted at once): published now. A failed
    // publish shows as no first frame at the other end, where the call's time-out decides.
    if (session?.joined) await session.client.publish(opened).catch(() => undefined);
  }, (error) => emit({ type: 'mediaFailed', error }));
  const readyToken = keptToken(deps.rtcToken);
  /** Whether camera and microphone are allowed already (the Permissions API): a caller then rings without waiting for them. */
  const mediaAllowed = watchMediaAllowed();

  function closeOwn(): void {
    closeTracks(tracks);
    tracks = [];
    media.setLocal(null);
  }

  function attach(s: Session<T>): () => void {
    const { client } = s;
    const current = () => session === s;
    const published: AgoraListener<'user-published'> = ({ uid }, mediaType) => {
      if (mediaType === 'audio') {
        playRemoteAudio(client, uid, s, current, () => emit({ type: 'firstRemoteAudio' }));
      } else if (mediaType === 'video') {
        // A failed subscription shows as no first frame: the call machine's time-out decides.
        client.subscribe(uid, 'video').then((video) => {
          if (current()) showRemoteVideo(video, s, media, view, current, () => emit({ type: 'firstRemoteFrame' }));
        }, () => undefined);
      }
    };
    return listen(client, {
      'user-published': published,
      'user-unpublished': (_user, mediaType) => {
        if (mediaType === 'video') media.setRemote(null);
      },
      'user-left': () => {
        dropRemote(s, media);
        emit({ type: 'remoteLeft' });
      },
      'connection-state-change': (state, _previous, reason) => {
        if (!linkLost(state, reason, s.leaving)) return;
        dropRemote(s, media);
        emit({ type: 'connectionLost' });
      },
      'network-quality': ({ uplinkNetworkQuality, downlinkNetworkQuality }) => {
        const next = Math.max(uplinkNetworkQuality, downlinkNetworkQuality);
        if (next === quality) return;
        quality = next;
        emit({ type: 'networkQuality', quality: next });
      },
    });
  }

  async function leaveSession(): Promise<void> {
    const s = session;
    if (!s) return;
    session = null;
    await endVisit(s, media);
  }

  return {
    media,
    mediaAllowed,

    prepare(video) {
      const prepared = preparation.prepare(video);
      readyToken.ready();
      return prepared;
    },

    async join(channelId, account) {
      await leaveSession();
      const at = leaves;
      const sdk = await loadSdk();
      const token = await (readyToken.take(account) ?? deps.rtcToken());
      if (at !== leaves) throw new Error(LEFT);
      const client = sdk.createClient(CLIENT_CONFIG);
      const s: Session<T> = { client, detach: () => undefined, remoteStops: [], leaving: false, joined: false };
      s.detach = attach(s);
      session = s;
      quality = 0;
      await joinOrLeave(s, () => session === s, leaveSession, async () => {
        await client.join(deps.appId, channelId, token, account).catch((error: unknown) => {
          // A join refused (an expired token among the reasons) asks for a new token on its retry.
          readyToken.forget();
          throw error;
        });
        readyToken.claim(account);
        if (at !== leaves) throw new Error(LEFT);
        s.joined = true;
        // Whatever is open by now; what opens later is published as it opens (`preparation`).
        if (tracks.length > 0) await client.publish(tracks);
      });
    },

    async leave() {
      leaves += 1;
      preparation.forget();
      await leaveSession();
      closeOwn();
    },

    subscribe: events.subscribe,
  };
}
