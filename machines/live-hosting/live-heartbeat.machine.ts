/**
 * The live host's heartbeat (SPEC §7 /api/agora/liveHeartBeatV2, §9 heartbeat 10 s): a child
 * of liveHosting while on air. It finishes only to end the live: when the server answers that
 * the room ended, or after HEARTBEAT_MAX_FAILURES failed beats in a row.
 *
 *   resting ─heartbeat (10 s, or the server's interval)─▶ beating ─ok─▶ resting
 *   beating ─ended─▶ ended (final)        beating ─failed─▶ resting | lost (final, the last allowed failure)
 */
import { assign, fromPromise } from 'xstate';
import { setup } from '../setup';
import { HEARTBEAT_MAX_FAILURES } from './live-hosting.types';

export interface LiveHeartbeatInput {
  /** The chat room id of the room being hosted (what the server knows it by). */
  roomId: string;
  intervalMs: number;
}

export interface LiveHeartbeatContext extends LiveHeartbeatInput {
  /** Failed beats in a row. */
  failures: number;
}

export interface LiveHeartbeatOutput {
  /** `ended`: the server closed the room; `lost`: the server could not be reached. */
  reason: 'ended' | 'lost';
}

export const liveHeartbeatMachine = setup({
  types: {
    input: {} as LiveHeartbeatInput,
    context: {} as LiveHeartbeatContext,
    output: {} as LiveHeartbeatOutput,
  },
  actors: {
    beat: fromPromise<{ ended: boolean }, string>(() => Promise.reject(new Error('not provided'))),
  },
  delays: {
    heartbeat: ({ context }) => context.intervalMs,
  },
  guards: {
    roomEnded: (_, output: { ended: boolean }) => output.ended,
    lastFailure: ({ context }) => context.failures + 1 >= HEARTBEAT_MAX_FAILURES,
  },
}).createMachine({
  id: 'liveHeartbeat',
  context: ({ input }) => ({ ...input, failures: 0 }),
  initial: 'resting',
  states: {
    resting: {
      after: { heartbeat: 'beating' },
    },
    beating: {
      invoke: {
        id: 'beat',
        src: 'beat',
        input: ({ context }) => context.roomId,
        onDone: [
          { guard: { type: 'roomEnded', params: ({ event }) => event.output }, target: 'ended' },
          { target: 'resting', actions: assign({ failures: 0 }) },
        ],
        onError: [
          { guard: 'lastFailure', target: 'lost', actions: assign({ failures: ({ context }) => context.failures + 1 }) },
          { target: 'resting', actions: assign({ failures: ({ context }) => context.failures + 1 }) },
        ],
      },
    },
    ended: { type: 'final' },
    lost: { type: 'final' },
  },
  output: ({ context }) => ({ reason: context.failures >= HEARTBEAT_MAX_FAILURES ? 'lost' : 'ended' }),
});

export type LiveHeartbeatMachine = typeof liveHeartbeatMachine;
