/**
 * The only module that imports the Agora RTC SDK's code. It is reached solely through the
 * dynamic `import()` in rtc.agora.load.ts, so the SDK lands in its own lazy chunk.
 */
import AgoraRTC from 'agora-rtc-sdk-ng';
import type { IAgoraRTC, IAgoraRTCRemoteUser, ILocalTrack, IRemoteAudioTrack, IRemoteVideoTrack } from 'agora-rtc-sdk-ng';
import type { setParameter } from 'agora-rtc-sdk-ng/esm';
import { silence, type AgoraRemoteAudioTrack, type AgoraRemoteUser, type AgoraRemoteVideoTrack, type AgoraRtcSdk } from './rtc.agora';
import { interopDefault } from './sdk-load';

/** The UMD build's default export also carries `setParameter` (declared only in the SDK's ESM typings; checked below at load). */
type AgoraRtcUmd = IAgoraRTC & { setParameter: typeof setParameter };

/** Compile-time checks: the SDK's own types must keep fitting the surface the adapter and the double use. */
type Fits<T extends U, U> = T;
export type SdkFits = [
  Fits<IAgoraRTCRemoteUser, AgoraRemoteUser>,
  Fits<IRemoteVideoTrack, AgoraRemoteVideoTrack>,
  Fits<IRemoteAudioTrack, AgoraRemoteAudioTrack>,
];

const sdk = interopDefault(
  AgoraRTC as AgoraRtcUmd satisfies AgoraRtcSdk<ILocalTrack>,
  (v) => typeof v === 'object' && v !== null && typeof (v as { createClient?: unknown }).createClient === 'function'
    && typeof (v as { setParameter?: unknown }).setParameter === 'function',
);
// Before anything else runs: no event reports, no log upload.
silence(sdk);

export default sdk as AgoraRtcSdk<ILocalTrack>;
