/**
 * The RTC adapter of calls (SPEC §9 Video: 720p, VP9), chosen like the realtime ports
 * (src/compose/realtime.ts): `VITE_REALTIME=local` (default) is the browser's WebRTC over the
 * reference server's relay (adapters/rtc.local.ts); `production` is Agora RTC
 * (adapters/rtc.agora.ts, app id `VITE_AGORA_APP_ID`).
 *
 * What `createRtcPort` returns is a small stand-in: no RTC code is in the first screen's
 * chunk. The chosen adapter's chunk is imported when a call first prepares (up to 3
 * attempts, SPEC §8), and for Agora the SDK's own chunk after it. Events and the media view
 * pass through, so the stand-in can be handed to the call machine and to React at start-up.
 */
import type { RtcAdapter } from '../../machines/ports/call.media';
import type { RtcEvent } from '../../machines/ports/call.port';
import { hubUrl } from '../adapters/hub.socket';
import * as realtimeContract from '../api/contract/realtime';
import { config } from '../app/config';
import { lazyMedia } from './lazyMedia';

export interface RtcPortOptions {
  /** The rtcToken of /api/index/getAgoraRtmToken (adapters/http/lookups.http.ts `rtcTokenFrom(api)`), asked for at every join. */
  rtcToken(): Promise<string>;
  /** Default: `config.realtime`. */
  kind?: 'local' | 'production';
  /** Agora app id (production); default `VITE_AGORA_APP_ID`. */
  agoraAppId?: string;
  /** The relay's ws:// URL (local); default the hub on this origin. */
  url?: string;
}

async function loadAdapter(options: RtcPortOptions): Promise<RtcAdapter> {
  const kind = options.kind ?? config.realtime;
  if (kind === 'production') {
    const [{ createAgoraRtcPort }, { loadAgoraRtc }] = await Promise.all([
      import('../adapters/rtc.agora'),
      import('../adapters/rtc.agora.load'),
    ]);
    const appId = options.agoraAppId ?? String(import.meta.env.VITE_AGORA_APP_ID ?? '');
    return createAgoraRtcPort({ appId, loadSdk: loadAgoraRtc, rtcToken: options.rtcToken });
  }
  const { createLocalRtcPort } = await import('../adapters/rtc.local');
  return createLocalRtcPort({ url: options.url ?? hubUrl(realtimeContract.RealtimePath.rtc), rtcToken: options.rtcToken });
}

/**
 * The call's RTC port, and `warm()`: loads its adapter ahead of the first call (opening nothing;
 * it settles once loaded, never failing: the call's prepare tries again and reports).
 */
export function createRtcPort(options: RtcPortOptions): RtcAdapter & { warm(): Promise<void> } {
  const lazy = lazyMedia<RtcAdapter, RtcEvent>(() => loadAdapter(options));
  return {
    warm: () => lazy.load().then(() => undefined, () => undefined),
    media: lazy.media,
    // Straight to the loaded adapter: the camera is asked for before the call screen renders.
    prepare: (video, ringing) => lazy.withAdapter((adapter) => adapter.prepare(video, ringing)),
    join: (channelId, account) => lazy.withAdapter((adapter) => adapter.join(channelId, account)),
    // Not loaded yet: it cannot tell, so the ring waits for the camera.
    mediaAllowed: () => lazy.loaded()?.mediaAllowed() ?? false,
    leave: lazy.leave,
    subscribe: lazy.subscribe,
  };
}
