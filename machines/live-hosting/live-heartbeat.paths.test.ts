/**
 * Generated-path tests of the live heartbeat (SPEC §7 liveHeartBeatV2, §9 heartbeat 10 s):
 * replayed on the real actor with a manual beat and a simulated clock (each rest lasts
 * exactly the interval); failures in a row are checked against a plain count.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { liveHeartbeatMachine } from './live-heartbeat.machine';
import type { LiveHeartbeatContext, LiveHeartbeatInput } from './live-heartbeat.machine';
import { HEARTBEAT_MAX_FAILURES, HEARTBEAT_MS } from './live-hosting.types';

const REST = afterEvent('heartbeat', 'liveHeartbeat.resting');
const samples: AnyEventObject[] = [
  { type: REST },
  { type: 'xstate.done.actor.beat', output: { ended: false } },
  { type: 'xstate.done.actor.beat', output: { ended: true } },
  { type: 'xstate.error.actor.beat', error: new Error('unreachable') },
];
const inputs: Record<string, LiveHeartbeatInput> = {
  'SPEC interval': { roomId: 'room-1', intervalMs: HEARTBEAT_MS },
  'server interval': { roomId: 'room-1', intervalMs: 2_500 },
};

async function replay(input: LiveHeartbeatInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const pending = new PendingCalls();
  const clock = new SimulatedClock();
  const actor = createActor(liveHeartbeatMachine.provide({
    actors: { beat: fromPromise(({ input: roomId }) => pending.add<{ ended: boolean }>('beat', [roomId])) },
  }), { input, clock, inspect }).start();
  let failures = 0;
  for (const { event, state } of steps) {
    const e = event as AnyEventObject;
    if (e.type === REST) {
      clock.increment(input.intervalMs - 1);
      await flush();
      // Not a moment before the interval.
      expect(actor.getSnapshot().value).toBe('resting');
      expect(pending.open()).toHaveLength(0);
      clock.increment(1);
    } else if (e.type === 'xstate.done.actor.beat') {
      pending.next('beat').resolve(e.output);
      if (!(e.output as { ended: boolean }).ended) failures = 0;
    } else if (e.type === 'xstate.error.actor.beat') {
      pending.next('beat').reject(e.error);
      failures++;
    }
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    expect((snapshot.context as LiveHeartbeatContext).failures).toBe(failures);
    if (snapshot.matches('beating')) expect(pending.next('beat').args).toEqual(['room-1']);
    if (snapshot.status === 'done') {
      expect(snapshot.output).toEqual({ reason: failures >= HEARTBEAT_MAX_FAILURES ? 'lost' : 'ended' });
      if (failures >= HEARTBEAT_MAX_FAILURES) expect(snapshot.value).toBe('lost');
    }
  }
  actor.stop();
}

describeGeneratedPaths('liveHeartbeat', liveHeartbeatMachine, {
  events: samples,
  inputs,
  serializeContext: (c) => [(c as LiveHeartbeatContext).failures],
  minPaths: 5,
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});
