/** Loads the Agora RTC SDK chunk on demand (SPEC §8: up to 3 attempts). */
import type { ILocalTrack } from 'agora-rtc-sdk-ng';
import type { AgoraRtcSdk } from './rtc.agora';
import { loadWithRetry } from './sdk-load';

export const loadAgoraRtc = (): Promise<AgoraRtcSdk<ILocalTrack>> => loadWithRetry(() => import('./rtc.agora.sdk').then((m) => m.default));
