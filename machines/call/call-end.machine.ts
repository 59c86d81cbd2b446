/**
 * Ending a call, whichever way it ended (SPEC §4 Call status, §9 not-answered report): the peer is
 * told as the end asks (best effort: an unreachable peer does not keep the call from ending), then
 * the media channel is left and the server told that the call ended.
 *
 *   telling ─(tell)─▶ cancel | notAnswered | hangup: a signal to the peer (notAnswered: cancel with 30;
 *                     a hang-up for this side's weak network says so, reason 6: the server records the
 *                     first end it hears as the call's end, src/api/contract/call.ts)
 *                     reject: the server first (the record says refused), then the caller
 *                     fail: the caller first (she cannot take it now), then the server
 *                     none: nothing to tell (the peer ended it, or it never rang)
 *   ─told or not─▶ cleaningUp (leave the media, tell the server) ─either way─▶ done
 */
import { fromPromise } from 'xstate';
import { setup } from '../setup';
import { SignalAction } from '../ports/signalling.port';
import { HangupReason, NOT_ANSWERED_SECONDS } from './call.types';

/** What the peer is told as the call ends. */
export type Farewell = 'cancel' | 'notAnswered' | 'hangup' | 'reject' | 'fail' | 'none';

export interface CallEndInput {
  tell: Farewell;
  /** The peer's account. */
  peer: string;
  channelId: string;
  /** The channel the server is told of (none for an incoming ring that ran out: that end is the server's). */
  channelToTell: string | null;
  reason: number;
}

/** The same way on, whether the step worked or not. */
const either = (target: string) => ({ onDone: target, onError: target });

export const callEndMachine = setup({
  types: {
    input: {} as CallEndInput,
    context: {} as CallEndInput,
  },
  actors: {
    signal: fromPromise<void, { to: string; action: SignalAction; channelId: string; payload?: Record<string, unknown> }>(() => Promise.resolve()),
    /** Callee: tells the server the call is refused (so the record says so), then the caller. */
    reject: fromPromise<void, { channelId: string; peer: string }>(() => Promise.resolve()),
    /** Callee: tells the caller that taking the call failed here (she cannot take it now), then the server. */
    fail: fromPromise<void, { channelId: string; peer: string }>(() => Promise.resolve()),
    /** Leaves the media channel and tells the server the call ended. */
    cleanup: fromPromise<void, { channelId: string | null; reason: number }>(() => Promise.resolve()),
  },
  guards: {
    tells: ({ context }, farewell: Farewell | Farewell[]) => ([] as Farewell[]).concat(farewell).includes(context.tell),
  },
}).createMachine({
  id: 'callEnd',
  context: ({ input }) => input,
  initial: 'telling',
  states: {
    telling: {
      always: [
        { guard: { type: 'tells', params: ['cancel', 'notAnswered', 'hangup'] }, target: 'signalling' },
        { guard: { type: 'tells', params: 'reject' }, target: 'rejecting' },
        { guard: { type: 'tells', params: 'fail' }, target: 'failing' },
        { target: 'cleaningUp' },
      ],
    },
    signalling: {
      invoke: {
        id: 'farewellSignal',
        src: 'signal',
        input: ({ context: c }) => ({
          to: c.peer, action: c.tell === 'hangup' ? SignalAction.hangup : SignalAction.cancel, channelId: c.channelId,
          ...(c.tell === 'notAnswered' ? { payload: { notAnswered: NOT_ANSWERED_SECONDS } } : {}),
          // The server records the end as this side's: with why, when it was this side's weak network.
          ...(c.tell === 'hangup' && c.reason === HangupReason.weakNetwork ? { payload: { reason: HangupReason.weakNetwork } } : {}),
        }),
        ...either('cleaningUp'),
      },
    },
    rejecting: {
      invoke: { id: 'rejectSignal', src: 'reject', input: ({ context: c }) => ({ peer: c.peer, channelId: c.channelId }), ...either('cleaningUp') },
    },
    failing: {
      invoke: { id: 'failSignal', src: 'fail', input: ({ context: c }) => ({ peer: c.peer, channelId: c.channelId }), ...either('cleaningUp') },
    },
    /** Both always run (call.actors.ts): media is left even when the server cannot be told. */
    cleaningUp: {
      invoke: { id: 'cleanup', src: 'cleanup', input: ({ context: c }) => ({ channelId: c.channelToTell, reason: c.reason }), ...either('done') },
    },
    done: { type: 'final' },
  },
});

export type CallEndMachine = typeof callEndMachine;
