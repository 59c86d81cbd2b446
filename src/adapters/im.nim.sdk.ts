/**
 * The only module that imports the NetEase IM SDK's code. It is reached solely through the
 * dynamic `import()` in im.nim.load.ts, so the SDK lands in its own lazily loaded chunk.
 */
import NIM from 'nim-web-sdk-ng';
import type { NimSdk } from './im.nim';
import { interopDefault } from './sdk-load';

// `satisfies`: the real SDK must keep fitting the surface the adapter and the doubles use.
const sdk = interopDefault(NIM satisfies NimSdk, (v) => typeof v === 'function' && 'getInstance' in v);

export default sdk as NimSdk;
