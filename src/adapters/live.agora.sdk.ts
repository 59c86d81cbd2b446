/**
 * The Agora RTC SDK as the live adapter (live.agora.ts) uses it. Reached solely through the
 * dynamic `import()` in live.agora.load.ts, so the SDK stays in its own lazy chunk (the same
 * one the call's rtc.agora.sdk.ts imports).
 */
import AgoraRTC from 'agora-rtc-sdk-ng';
import type { IAgoraRTC, IAgoraRTCClient, ILocalTrack } from 'agora-rtc-sdk-ng';
import type { setParameter } from 'agora-rtc-sdk-ng/esm';
import type { AgoraLiveClient, AgoraLiveSdk } from './live.agora';
import { silence } from './rtc.agora';
import { interopDefault } from './sdk-load';

/** The UMD build's default export also carries `setParameter` (declared only in the SDK's ESM typings; checked below at load). */
type AgoraRtcUmd = IAgoraRTC & { setParameter: typeof setParameter };

/** Compile-time check: the SDK's client must keep fitting the surface the live adapter and the double use. */
type Fits<T extends U, U> = T;
export type SdkFits = [Fits<IAgoraRTCClient, AgoraLiveClient<ILocalTrack>>];

const sdk = interopDefault(
  AgoraRTC as AgoraRtcUmd satisfies AgoraLiveSdk<ILocalTrack>,
  (v) => typeof v === 'object' && v !== null && typeof (v as { createClient?: unknown }).createClient === 'function'
    && typeof (v as { setParameter?: unknown }).setParameter === 'function',
);
// Before anything else runs: no event reports, no log upload.
silence(sdk);

export default sdk as AgoraLiveSdk<ILocalTrack>;
