/**
 * The live media e2e harness (tests/e2e/live-media.spec.ts drives it through `window.live`):
 * the local live media adapter (src/adapters/live.local.ts) over the reference server's hub,
 * with the rtcToken from the encrypted API with the session of the shell's open parameters,
 * its media view shown in two video elements as the live room screen would, and every event
 * with its wall-clock time.
 *
 * Test instrumentation only: peer connections are recorded as they are made, so the test can
 * read what was negotiated and decoded (codec, frames, the sender's degradation preference).
 */
import type { LiveMediaEvent } from '../../../machines/ports/live.port';
import { createLocalLiveMedia } from '../../../src/adapters/live.local';
import { hubUrl } from '../../../src/adapters/hub.socket';
import { createApiClient } from '../../../src/api/client';
import { createAesCodec } from '../../../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY } from '../../../src/api/codes';
import { RealtimePath } from '../../../src/api/contract/realtime';
import { rtcTokenFrom } from '../../../src/app/rtc';

const made: RTCPeerConnection[] = [];
const Native = window.RTCPeerConnection;
window.RTCPeerConnection = class extends Native {
  constructor(configuration?: RTCConfiguration) {
    super(configuration);
    made.push(this);
  }
};

export interface LiveHarnessSession {
  token: string;
  appId: string;
  appVersion?: string;
}

/** One peer connection as the test reads it. */
export interface LinkStats {
  state: RTCPeerConnectionState;
  iceServers: number;
  sent: string | null;
  received: string | null;
  framesDecoded: number;
  framesSent: number;
  frameWidth: number;
  degradationPreference: string | null;
}

async function statsOf(pc: RTCPeerConnection): Promise<LinkStats> {
  const report = await pc.getStats();
  const codecs = new Map<string, string>();
  let sentId: string | null = null;
  let receivedId: string | null = null;
  let framesDecoded = 0;
  let framesSent = 0;
  let frameWidth = 0;
  report.forEach((entry: unknown) => {
    const r = entry as {
      type?: string; id?: string; kind?: string; mimeType?: string; codecId?: string;
      framesDecoded?: number; framesSent?: number; frameWidth?: number;
    };
    if (r.type === 'codec' && r.id && r.mimeType) codecs.set(r.id, r.mimeType);
    if (r.type === 'outbound-rtp' && r.kind === 'video') {
      sentId = r.codecId ?? null;
      framesSent = r.framesSent ?? 0;
      frameWidth = r.frameWidth ?? frameWidth;
    }
    if (r.type === 'inbound-rtp' && r.kind === 'video') {
      receivedId = r.codecId ?? null;
      framesDecoded = r.framesDecoded ?? 0;
      frameWidth = r.frameWidth ?? frameWidth;
    }
  });
  const sender = pc.getSenders().find((s) => s.track?.kind === 'video');
  return {
    state: pc.connectionState,
    iceServers: pc.getConfiguration().iceServers?.length ?? 0,
    sent: sentId === null ? null : codecs.get(sentId) ?? null,
    received: receivedId === null ? null : codecs.get(receivedId) ?? null,
    framesDecoded,
    framesSent,
    frameWidth,
    degradationPreference: sender?.getParameters().degradationPreference ?? null,
  };
}

function startHarness(session: LiveHarnessSession) {
  const api = createApiClient({
    codec: createAesCodec(DEV_AES_KEY, DEV_AES_IV),
    credentials: () => session,
    onNotice: () => undefined,
  });
  const live = createLocalLiveMedia({ url: hubUrl(RealtimePath.rtc), rtcToken: rtcTokenFrom(api) });
  const events: (LiveMediaEvent & { at: number })[] = [];
  live.subscribe((event) => events.push({ ...event, at: Date.now() }));

  const remote = document.getElementById('remote') as HTMLVideoElement;
  const local = document.getElementById('local') as HTMLVideoElement;
  let shownLocal: MediaStream | null = null;
  live.media.subscribe(() => {
    remote.srcObject = live.media.remote();
    local.srcObject = live.media.local();
    shownLocal = live.media.local() ?? shownLocal;
  });

  return {
    events,
    /** The media error kind, or null when on the air; and the wall-clock time publish was called. */
    async publish(channelId: string, account: string): Promise<{ error: string | null; at: number }> {
      const at = Date.now();
      try {
        await live.publish(channelId, account);
        return { error: null, at };
      } catch (error) {
        return { error: (error as { kind?: string }).kind ?? String(error), at };
      }
    },
    /** Wall-clock time when watch was called. */
    async watch(channelId: string, account: string): Promise<number> {
      const at = Date.now();
      await live.watch(channelId, account);
      return at;
    },
    leave: () => live.leave(),
    /** What the page shows of the host. */
    remoteVideo: () => ({ width: remote.videoWidth, height: remote.videoHeight, shown: remote.srcObject !== null }),
    /** The state of the own camera and microphone tracks (kept after leave to see that they stopped). */
    ownTracks: () => (shownLocal?.getTracks() ?? []).map((t) => `${t.kind}:${t.readyState}`),
    showsOwn: () => local.srcObject !== null,
    /** Every peer connection this page made, oldest first. */
    links: () => Promise.all(made.map(statsOf)),
  };
}

export type LiveHarness = ReturnType<typeof startHarness>;

declare global {
  interface Window {
    liveHarness: { start(session: LiveHarnessSession): void };
    /** Set by `liveHarness.start`. */
    live: LiveHarness;
  }
}

window.liveHarness = {
  start(session) {
    window.live = startHarness(session);
  },
};
