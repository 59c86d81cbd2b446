/** Loads the Agora RTC SDK chunk for live rooms on demand (SPEC §8: up to 3 attempts); the SDK chunk is the call's. */
import type { ILocalTrack } from 'agora-rtc-sdk-ng';
import type { AgoraLiveSdk } from './live.agora';
import { loadWithRetry } from './sdk-load';

export const loadAgoraLive = (): Promise<AgoraLiveSdk<ILocalTrack>> => loadWithRetry(() => import('./live.agora.sdk').then((m) => m.default));
