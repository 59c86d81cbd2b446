/**
 * The live room's media (SPEC §2 /liveRoom; machines/ports/live.port.ts LiveMediaPort), chosen
 * like the call's RTC (rtc.ts): `VITE_REALTIME=local` (default) is the browser's WebRTC one
 * to many over the reference server's relay (adapters/live.local.ts); `production` is Agora in
 * live mode (adapters/live.agora.ts). The chosen adapter's chunk (and Agora's SDK after it)
 * loads when a live room first publishes or watches.
 */
import type { LiveMediaEvent, LiveMediaPort } from '../../machines/ports/live.port';
import type { CallMediaView } from '../../machines/ports/call.media';
import { hubUrl } from '../adapters/hub.socket';
import type { LiveMediaAdapter } from '../adapters/live.local';
import * as realtimeContract from '../api/contract/realtime';
import { config } from '../app/config';
import { lazyMedia } from './lazyMedia';
import type { RtcPortOptions } from './rtc';

async function loadAdapter(options: RtcPortOptions): Promise<LiveMediaAdapter> {
  const kind = options.kind ?? config.realtime;
  if (kind === 'production') {
    const [{ createAgoraLiveMedia }, { loadAgoraLive }] = await Promise.all([
      import('../adapters/live.agora'),
      import('../adapters/live.agora.load'),
    ]);
    const appId = options.agoraAppId ?? String(import.meta.env.VITE_AGORA_APP_ID ?? '');
    return createAgoraLiveMedia({ appId, loadSdk: loadAgoraLive, rtcToken: options.rtcToken });
  }
  const { createLocalLiveMedia } = await import('../adapters/live.local');
  return createLocalLiveMedia({ url: options.url ?? hubUrl(realtimeContract.RealtimePath.rtc), rtcToken: options.rtcToken });
}

export function createLiveMediaPort(options: RtcPortOptions): LiveMediaPort & { readonly media: CallMediaView } {
  const lazy = lazyMedia<LiveMediaAdapter, LiveMediaEvent>(() => loadAdapter(options));
  return {
    media: lazy.media,
    publish: async (channelId, account) => (await lazy.load()).publish(channelId, account),
    watch: async (channelId, account) => (await lazy.load()).watch(channelId, account),
    leave: lazy.leave,
    subscribe: lazy.subscribe,
  };
}
