/**
 * The RTC e2e harness (tests/e2e/rtc.spec.ts drives it through `window.rtc`): the RTC port
 * exactly as the app builds it (src/app/rtc.ts, local adapter, the rtcToken from the
 * encrypted API with the session of the shell's open parameters), the media view shown in
 * two video elements as a call screen would, and every event with its wall-clock time.
 *
 * Test instrumentation only: peer connections are recorded as they are made, so the test can
 * read what was negotiated (codec, ICE servers, the sender's degradation preference).
 */
import type { RtcEvent } from '../../../machines/ports/call.port';
import { createApiClient } from '../../../src/api/client';
import { createAesCodec } from '../../../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY } from '../../../src/api/codes';
import { createRtcPort, rtcTokenFrom } from '../../../src/app/rtc';

const made: RTCPeerConnection[] = [];
const Native = window.RTCPeerConnection;
window.RTCPeerConnection = class extends Native {
  constructor(configuration?: RTCConfiguration) {
    super(configuration);
    made.push(this);
  }
};

export interface HarnessSession {
  token: string;
  appId: string;
  appVersion?: string;
}

export interface Negotiated {
  iceServers: number;
  sent: string | null;
  received: string | null;
  degradationPreference: string | null;
  candidateTypes: string[];
}

function startHarness(session: HarnessSession) {
  const api = createApiClient({
    codec: createAesCodec(DEV_AES_KEY, DEV_AES_IV),
    credentials: () => session,
    onNotice: () => undefined,
  });
  const rtc = createRtcPort({ kind: 'local', rtcToken: rtcTokenFrom(api) });
  const events: (RtcEvent & { at: number })[] = [];
  rtc.subscribe((event) => events.push({ ...event, at: Date.now() }));

  const remote = document.getElementById('remote') as HTMLVideoElement;
  const local = document.getElementById('local') as HTMLVideoElement;
  let shownLocal: MediaStream | null = null;
  rtc.media.subscribe(() => {
    remote.srcObject = rtc.media.remote();
    local.srcObject = rtc.media.local();
    shownLocal = rtc.media.local() ?? shownLocal;
  });

  return {
    events,
    /** The media error kind, or null when camera and microphone are open. */
    async prepare(video: boolean): Promise<string | null> {
      try {
        await rtc.prepare(video);
        return null;
      } catch (error) {
        return (error as { kind?: string }).kind ?? String(error);
      }
    },
    /** Wall-clock time when join was called. */
    async join(channelId: string, account: string): Promise<number> {
      const at = Date.now();
      await rtc.join(channelId, account);
      return at;
    },
    leave: () => rtc.leave(),
    /** What the page shows of the peer. */
    remoteVideo: () => ({ width: remote.videoWidth, height: remote.videoHeight, shown: remote.srcObject !== null }),
    /** The state of the own camera and microphone tracks (kept after leave to see that they stopped). */
    ownTracks: () => (shownLocal?.getTracks() ?? []).map((t) => `${t.kind}:${t.readyState}`),
    showsOwn: () => local.srcObject !== null,
    async negotiated(): Promise<Negotiated> {
      const pc = made.at(-1);
      if (!pc) throw new Error('no peer connection yet');
      const report = await pc.getStats();
      const codecs = new Map<string, string>();
      let sentId: string | null = null;
      let receivedId: string | null = null;
      const candidateTypes = new Set<string>();
      report.forEach((entry: unknown) => {
        const r = entry as { type?: string; id?: string; kind?: string; mimeType?: string; codecId?: string; candidateType?: string };
        if (r.type === 'codec' && r.id && r.mimeType) codecs.set(r.id, r.mimeType);
        if (r.type === 'outbound-rtp' && r.kind === 'video') sentId = r.codecId ?? null;
        if (r.type === 'inbound-rtp' && r.kind === 'video') receivedId = r.codecId ?? null;
        if ((r.type === 'local-candidate' || r.type === 'remote-candidate') && r.candidateType) candidateTypes.add(r.candidateType);
      });
      const sender = pc.getSenders().find((s) => s.track?.kind === 'video');
      return {
        iceServers: pc.getConfiguration().iceServers?.length ?? 0,
        sent: sentId === null ? null : codecs.get(sentId) ?? null,
        received: receivedId === null ? null : codecs.get(receivedId) ?? null,
        degradationPreference: sender?.getParameters().degradationPreference ?? null,
        candidateTypes: [...candidateTypes].sort(),
      };
    },
  };
}

export type Harness = ReturnType<typeof startHarness>;

declare global {
  interface Window {
    rtcHarness: { start(session: HarnessSession): void };
    /** Set by `rtcHarness.start`. */
    rtc: Harness;
  }
}

window.rtcHarness = {
  start(session) {
    window.rtc = startHarness(session);
  },
};
