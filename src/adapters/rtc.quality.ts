/**
 * The network quality of a call's peer connection on Agora's scale (the RTC port's `networkQuality` event),
 * from what WebRTC measures: round-trip time and packet loss (rtc.local.ts samples it).
 */

/**
 * Agora's network quality scale from what WebRTC measures: 0 unknown, 1 excellent … 5 very
 * bad, 6 down; the worse of round-trip time and packet loss decides.
 */
export function networkQuality(sample: { rttMs?: number; lossRate?: number }): number {
  const { rttMs, lossRate } = sample;
  if (rttMs === undefined && lossRate === undefined) return 0;
  const byRtt = rttMs === undefined ? 1 : rttMs < 100 ? 1 : rttMs < 200 ? 2 : rttMs < 400 ? 3 : rttMs < 800 ? 4 : rttMs < 1500 ? 5 : 6;
  const byLoss = lossRate === undefined ? 1 : lossRate < 0.01 ? 1 : lossRate < 0.03 ? 2 : lossRate < 0.08 ? 3 : lossRate < 0.15 ? 4 : lossRate < 0.3 ? 5 : 6;
  return Math.max(byRtt, byLoss);
}

/** Round-trip time of the connection in use and packet loss since the last sample. */
export function sampleOf(report: RTCStatsReport, last: { lost: number; received: number }) {
  let rttMs: number | undefined;
  let lost = 0;
  let received = 0;
  report.forEach((entry: unknown) => {
    const r = entry as {
      type?: string; state?: string; nominated?: boolean; currentRoundTripTime?: number; packetsLost?: number; packetsReceived?: number;
    };
    if (r.type === 'candidate-pair' && r.state === 'succeeded' && r.nominated && typeof r.currentRoundTripTime === 'number') {
      rttMs = r.currentRoundTripTime * 1000;
    } else if (r.type === 'inbound-rtp') {
      lost += r.packetsLost ?? 0;
      received += r.packetsReceived ?? 0;
    }
  });
  const dLost = Math.max(0, lost - last.lost);
  const dReceived = Math.max(0, received - last.received);
  const lossRate = dLost + dReceived > 0 ? dLost / (dLost + dReceived) : undefined;
  return { rttMs, lossRate, totals: { lost, received } };
}
