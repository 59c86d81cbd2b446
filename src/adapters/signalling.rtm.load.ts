/** Loads the Agora RTM SDK chunk on demand (SPEC §8: up to 3 attempts). */
import type { RtmSdk } from './signalling.rtm';
import { loadWithRetry } from './sdk-load';

export const loadRtm = (): Promise<RtmSdk> => loadWithRetry(() => import('./signalling.rtm.sdk').then((m) => m.default));
