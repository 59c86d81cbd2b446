/** Live hosting snapshot → what /liveRoom and /liveEnds show the host (SPEC §4 Live state, 63/64, /liveEnds). */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { LiveChatRef } from '../live-chat/live-chat.selectors';
import type { LiveStats } from '../ports/live.port';
import { LiveState, isBusy } from './live-hosting.machine';
import type { LiveHostingMachine, LiveSummary } from './live-hosting.machine';

export * from '../live-chat/live-chat.selectors';

export type LiveHostingRef = ActorRefFrom<LiveHostingMachine>;
type LiveHostingSnapshot = SnapshotFrom<LiveHostingMachine>;

/** SPEC §4 Live state from the machine's state. */
export function liveStateOf(s: LiveHostingSnapshot): LiveState {
  if (s.status !== 'active') return LiveState.empty;
  if (s.matches({ onAir: { stage: 'living' } })) return LiveState.living;
  if (s.matches({ onAir: { stage: 'waitingReturnLive' } })) return LiveState.waitingReturnLive;
  // The call is over and the channel is still being left: on the way back.
  if (s.matches({ onAir: { stage: { liveCalling: { leaving: 'callOver' } } } })) return LiveState.waitingReturnLive;
  if (s.matches({ onAir: { stage: 'liveCalling' } })) return LiveState.liveCalling;
  return LiveState.empty;
}

/** Where going live, being live and ending stand, for the screens. */
export type HostingPhase = 'starting' | 'publishing' | 'onAir' | 'ending' | 'ended' | 'failed';

export function hostingPhaseOf(s: LiveHostingSnapshot): HostingPhase {
  if (s.matches('starting')) return 'starting';
  if (s.matches({ onAir: { stage: 'publishing' } })) return 'publishing';
  if (s.matches('onAir')) return 'onAir';
  if (s.matches('ending')) return 'ending';
  if (s.matches('failed')) return 'failed';
  return 'ended';
}

export interface LiveHostingView {
  phase: HostingPhase;
  liveState: LiveState;
  busy: boolean;
  title: string;
  /** The private-call switch as the server has it, and whether a change is on its way. */
  privateCallOpen: boolean;
  switchingPrivateCall: boolean;
  /** SPEC §4 63 / 64. */
  boosting: boolean;
  giftTask: { target: number; done: number; reward: number } | null;
  failure: string | null;
}

export function liveHostingViewOf(s: LiveHostingSnapshot): LiveHostingView {
  const liveState = liveStateOf(s);
  return {
    phase: hostingPhaseOf(s),
    liveState,
    busy: isBusy(liveState),
    title: s.context.room?.title ?? s.context.setting.title,
    privateCallOpen: s.context.privateCallOpen,
    switchingPrivateCall: s.matches({ onAir: { privateCall: 'switching' } }),
    boosting: s.matches({ onAir: { exposure: 'boosted' } }),
    giftTask: s.context.room?.giftTask ?? null,
    failure: s.context.failure,
  };
}

export const sameHostingView = (a: LiveHostingView, b: LiveHostingView): boolean =>
  (Object.keys(a) as (keyof LiveHostingView)[]).every((k) => a[k] === b[k]);

export const selectHostingChat = (s: LiveHostingSnapshot | undefined): LiveChatRef | undefined => s?.children.chat;

/** /liveEnds: duration, viewers, gifts, income, and why it ended. */
export interface LiveEndsView {
  title: string;
  stats: LiveStats | null;
  /** "m:ss" or "h:mm:ss"; '' without stats. */
  duration: string;
  reason: string | null;
}

export function liveEndsViewOf(summary: LiveSummary | null): LiveEndsView | null {
  if (!summary) return null;
  const total = Math.max(0, Math.floor(summary.stats?.durationSec ?? 0));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  const duration = !summary.stats ? '' : h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
  return { title: summary.title, stats: summary.stats, duration, reason: summary.text };
}
