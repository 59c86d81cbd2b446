/**
 * The only module that imports the Agora RTM SDK's code. It is reached solely through the
 * dynamic `import()` in signalling.rtm.load.ts, so the SDK lands in its own lazy chunk.
 */
import AgoraRTM from 'agora-rtm-sdk';
import type { RtmSdk } from './signalling.rtm';
import { interopDefault } from './sdk-load';

// `satisfies`: the real SDK must keep fitting the surface the adapter and the doubles use.
const sdk = interopDefault(AgoraRTM satisfies RtmSdk, (v) => typeof v === 'object' && v !== null && typeof (v as { RTM?: unknown }).RTM === 'function');

export default sdk as RtmSdk;
