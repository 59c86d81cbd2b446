/** Loads the NetEase IM SDK chunk on demand (SPEC §8: up to 3 attempts). */
import type { NimSdk } from './im.nim';
import { loadWithRetry } from './sdk-load';

export const loadNim = (): Promise<NimSdk> => loadWithRetry(() => import('./im.nim.sdk').then((m) => m.default));
