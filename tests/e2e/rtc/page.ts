/**
 * What the two harness pages (harness.ts for calls, live.ts for live rooms' media) share:
 * the session of the shell's open parameters and the rtcToken from the encrypted API with it,
 * the media view shown in the page's two video elements, and what the tests read of the page.
 *
 * Test instrumentation only: importing this module records every peer connection the page
 * makes (`made`) and what it asks the camera and microphone for (`asked`), so the tests can
 * read what was negotiated and decoded.
 */
import type { CallMediaView } from '../../../machines/ports/call.media';
import { createApiClient } from '../../../src/api/client';
import { createAesCodec } from '../../../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY } from '../../../src/api/codes';
import { rtcTokenFrom } from '../../../src/app/rtc';

/** Every peer connection this page made, oldest first. */
export const made: RTCPeerConnection[] = [];
const Native = window.RTCPeerConnection;
window.RTCPeerConnection = class extends Native {
  constructor(configuration?: RTCConfiguration) {
    super(configuration);
    made.push(this);
  }
};

/** What each getUserMedia call of this page asked for, in order: 'audio+video', 'video' or 'audio'. */
export const asked: string[] = [];
const devices = navigator.mediaDevices;
const getUserMedia = devices.getUserMedia.bind(devices);
devices.getUserMedia = (constraints) => {
  asked.push((['audio', 'video'] as const).filter((kind) => constraints?.[kind]).join('+'));
  return getUserMedia(constraints);
};

export interface HarnessSession {
  token: string;
  appId: string;
  appVersion?: string;
}

/** The rtcToken as the app asks for it: the encrypted API with `session`. */
export function rtcTokenOf(session: HarnessSession): () => Promise<string> {
  const api = createApiClient({
    codec: createAesCodec(DEV_AES_KEY, DEV_AES_IV),
    credentials: () => session,
    onNotice: () => undefined,
  });
  return rtcTokenFrom(api);
}

/** Shows `media` in the page's video elements as a screen would (the peer's big, one's own small); returns what the tests read of them. */
export function showMedia(media: CallMediaView) {
  const remote = document.getElementById('remote') as HTMLVideoElement;
  const local = document.getElementById('local') as HTMLVideoElement;
  let shownLocal: MediaStream | null = null;
  media.subscribe(() => {
    remote.srcObject = media.remote();
    local.srcObject = media.local();
    shownLocal = media.local() ?? shownLocal;
  });
  return {
    /** What the page shows of the peer. */
    remoteVideo: () => ({ width: remote.videoWidth, height: remote.videoHeight, shown: remote.srcObject !== null }),
    /** The state of the own camera and microphone tracks (kept after leave to see that they stopped). */
    ownTracks: () => (shownLocal?.getTracks() ?? []).map((t) => `${t.kind}:${t.readyState}`),
    showsOwn: () => local.srcObject !== null,
  };
}

/** One peer connection as the tests read it. */
export interface PeerStats {
  state: RTCPeerConnectionState;
  iceServers: number;
  sent: string | null;
  received: string | null;
  framesDecoded: number;
  framesSent: number;
  frameWidth: number;
  degradationPreference: string | null;
  candidateTypes: string[];
}

export async function statsOf(pc: RTCPeerConnection): Promise<PeerStats> {
  const report = await pc.getStats();
  const codecs = new Map<string, string>();
  let sentId: string | null = null;
  let receivedId: string | null = null;
  let framesDecoded = 0;
  let framesSent = 0;
  let frameWidth = 0;
  const candidateTypes = new Set<string>();
  report.forEach((entry: unknown) => {
    const r = entry as {
      type?: string; id?: string; kind?: string; mimeType?: string; codecId?: string; candidateType?: string;
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
    if ((r.type === 'local-candidate' || r.type === 'remote-candidate') && r.candidateType) candidateTypes.add(r.candidateType);
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
    candidateTypes: [...candidateTypes].sort(),
  };
}
