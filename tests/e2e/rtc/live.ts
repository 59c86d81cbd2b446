/**
 * The live media e2e harness (tests/e2e/live-media.spec.ts drives it through `window.live`):
 * the local live media adapter (src/adapters/live.local.ts) over the reference server's hub,
 * with the rtcToken from the encrypted API with the session of the shell's open parameters,
 * its media view shown in two video elements as the live room screen would, and every event
 * with its wall-clock time.
 *
 * Test instrumentation only: peer connections are recorded as they are made (page.ts), so the
 * test can read what was negotiated and decoded (codec, frames, the sender's degradation preference).
 */
import type { LiveMediaEvent } from '../../../machines/ports/live.port';
import { createLocalLiveMedia } from '../../../src/adapters/live.local';
import { hubUrl } from '../../../src/adapters/hub.socket';
import { RealtimePath } from '../../../src/api/contract/realtime';
import { made, rtcTokenOf, showMedia, statsOf, type HarnessSession, type PeerStats } from './page';

export type LiveHarnessSession = HarnessSession;

/** One peer connection as the test reads it. */
export type LinkStats = Omit<PeerStats, 'candidateTypes'>;

async function linkStatsOf(pc: RTCPeerConnection): Promise<LinkStats> {
  const { candidateTypes: _candidateTypes, ...stats } = await statsOf(pc);
  return stats;
}

function startHarness(session: LiveHarnessSession) {
  const live = createLocalLiveMedia({ url: hubUrl(RealtimePath.rtc), rtcToken: rtcTokenOf(session) });
  const events: (LiveMediaEvent & { at: number })[] = [];
  live.subscribe((event) => events.push({ ...event, at: Date.now() }));

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
    /** What the page shows of the host, and of the own camera and microphone. */
    ...showMedia(live.media),
    /** Every peer connection this page made, oldest first. */
    links: () => Promise.all(made.map(linkStatsOf)),
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
