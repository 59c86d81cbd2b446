/**
 * The RTC e2e harness (tests/e2e/rtc.spec.ts drives it through `window.rtc`): the RTC port
 * exactly as the app builds it (src/app/rtc.ts, local adapter, the rtcToken from the
 * encrypted API with the session of the shell's open parameters), the media view shown in
 * two video elements as a call screen would, and every event with its wall-clock time.
 *
 * Test instrumentation only: peer connections are recorded as they are made (page.ts), so the
 * test can read what was negotiated (codec, ICE servers, the sender's degradation preference).
 */
import type { RtcEvent } from '../../../machines/ports/call.port';
import { createRtcPort } from '../../../src/app/rtc';
import { asked, made, rtcTokenOf, showMedia, statsOf, type HarnessSession, type PeerStats } from './page';

export type { HarnessSession } from './page';

export type Negotiated = Pick<PeerStats, 'iceServers' | 'sent' | 'received' | 'degradationPreference' | 'candidateTypes'>;

function startHarness(session: HarnessSession) {
  const rtc = createRtcPort({ kind: 'local', rtcToken: rtcTokenOf(session) });
  const events: (RtcEvent & { at: number })[] = [];
  rtc.subscribe((event) => events.push({ ...event, at: Date.now() }));

  return {
    events,
    /** The media error kind, or null when camera and microphone are open. */
    async prepare(video: boolean, ringing?: { channelId: string; account: string }): Promise<string | null> {
      try {
        await rtc.prepare(video, ringing);
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
    /**
     * Loads the adapter as the app does ahead of a call, and waits for the page's camera and
     * microphone permissions to be read (the adapter asked as it loaded; a later query is answered after).
     */
    async warm(): Promise<void> {
      await rtc.warm();
      for (const name of ['camera', 'microphone']) await navigator.permissions.query({ name: name as PermissionName });
    },
    /** What each getUserMedia call asked for, in order ('audio+video', 'video', 'audio'). */
    asked: (): string[] => [...asked],
    /** The types of the last peer connection's own and remote descriptions ('offer', 'answer'; null before one). */
    descriptions: (): { local: RTCSdpType | null; remote: RTCSdpType | null } => ({
      local: made.at(-1)?.localDescription?.type ?? null,
      remote: made.at(-1)?.remoteDescription?.type ?? null,
    }),
    /** The state of the last peer connection made, or null before one. */
    connectionState: (): RTCPeerConnectionState | null => made.at(-1)?.connectionState ?? null,
    ...showMedia(rtc.media),
    async negotiated(): Promise<Negotiated> {
      const pc = made.at(-1);
      if (!pc) throw new Error('no peer connection yet');
      const { iceServers, sent, received, degradationPreference, candidateTypes } = await statsOf(pc);
      return { iceServers, sent, received, degradationPreference, candidateTypes };
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
