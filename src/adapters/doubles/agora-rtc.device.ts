/**
 * One person's device on the Agora SDK double, as the tests of both Agora adapters
 * (rtc.agora.test.ts, live.agora.test.ts) set it up: the deps an adapter is given — a loader
 * that can be made to fail its first loads, the account's rtc token from the cloud, stand-in
 * streams — and a `watchFrames` that stands in for the detached video element, so the test
 * decides when a frame shows.
 */
import type { AgoraMediaDeps } from '../agora.shared';
import { AgoraRtcDoubleSdk, newFakeStream, type AgoraRtcCloud, type AgoraRtcDoubleClient } from './agora-rtc.double';

export const APP_ID = 'agora-app-id';

export function agoraDevice(cloud: AgoraRtcCloud, account: string, options: { failLoads?: number } = {}) {
  const sdk = new AgoraRtcDoubleSdk(cloud);
  let failLoads = options.failLoads ?? 0;
  let loads = 0;
  let watching = 0;
  /** Each shown video's frame: call one to show it. */
  const framed: (() => void)[] = [];
  const deps = {
    appId: APP_ID,
    loadSdk: async () => {
      loads += 1;
      if (failLoads > 0) {
        failLoads -= 1;
        throw new Error('chunk failed');
      }
      return sdk;
    },
    rtcToken: async () => cloud.tokenFor(account),
    newStream: newFakeStream,
    watchFrames: (_stream, onFrame) => {
      framed.push(onFrame);
      watching += 1;
      return () => {
        watching -= 1;
      };
    },
  } satisfies AgoraMediaDeps<AgoraRtcDoubleSdk>;
  return {
    sdk, deps, framed, account,
    loads: () => loads,
    /** How many shown videos are being watched for a frame. */
    watching: () => watching,
    client: (): AgoraRtcDoubleClient => sdk.lastClient,
  };
}

export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
