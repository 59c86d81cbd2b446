/** Call snapshot → what the call screens show (SPEC §2 host overlays and user call screens). */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { appCallStateOf } from './call.machine';
import type { CallMachine, CallPeer } from './call.machine';

export type CallRef = ActorRefFrom<CallMachine>;
type CallSnapshot = SnapshotFrom<CallMachine>;

export type CallPhase =
  /** Ours, before the peer answers: cancel is possible. */
  | 'dialling'
  /** Theirs, ringing here: accept or reject. */
  | 'ringing'
  | 'connecting'
  | 'connected'
  | 'ending';

export interface CallView {
  phase: CallPhase;
  direction: 'out' | 'in';
  isHost: boolean;
  peer: CallPeer;
  video: boolean;
  /** When the first remote frame arrived (ms since the epoch); 0 before. */
  connectedAt: number;
  callIncome: number;
  giftIncome: number;
}

export function phaseOf(snapshot: CallSnapshot): CallPhase {
  const state = appCallStateOf(snapshot);
  if (state === 'calling') return snapshot.context.direction === 'out' ? 'dialling' : 'ringing';
  if (state === 'callConnecting') return 'connecting';
  if (state === 'connected') return 'connected';
  if (snapshot.matches({ outgoing: 'creating' }) || snapshot.matches({ outgoing: 'preparing' })) return 'dialling';
  return 'ending';
}

export function callViewOf(snapshot: CallSnapshot): CallView {
  const c = snapshot.context;
  return {
    phase: phaseOf(snapshot),
    direction: c.direction,
    isHost: c.isHost,
    peer: c.peer,
    video: c.callType !== 10,
    connectedAt: c.connectedAt,
    callIncome: c.callIncome,
    giftIncome: c.giftIncome,
  };
}

/** Equal views render the same (for useSelector's compare). */
export function sameView(a: CallView, b: CallView): boolean {
  return a.phase === b.phase && a.connectedAt === b.connectedAt && a.callIncome === b.callIncome
    && a.giftIncome === b.giftIncome && a.peer === b.peer && a.isHost === b.isHost;
}

/** Elapsed call time as m:ss or h:mm:ss. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
