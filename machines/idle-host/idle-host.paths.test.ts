/**
 * Generated-path tests of idleHost (SPEC §4 Idle host) on a simulated clock, plus the
 * deadline scenarios: input moves the deadline, and a slept phone is caught on return.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { clockPortOf } from '../testing/realtime';
import { composeIdleHost } from './idle-host.actors';
import type { ClockPort } from './idle-host.actors';
import { idleHostMachine } from './idle-host.machine';

function setup() {
  const simulated = new SimulatedClock();
  const clock = clockPortOf(simulated);
  const pending = new PendingCalls();
  const statuses: boolean[] = [];
  const logic = composeIdleHost({
    clock,
    loadIdleMinutes: () => pending.add<number>('loadLimit', []),
    setHostOnline: (online) => { statuses.push(online); return pending.add<void>(online ? 'setOnline' : 'setOffline', []); },
  });
  return { simulated, pending, statuses, logic };
}

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.loadLimit', output: 2 },
  { type: 'xstate.error.actor.loadLimit', error: new Error('config unavailable') },
  { type: 'user.input' }, { type: 'app.visible' }, { type: 'host.goOnline' }, { type: 'idle.deadlinePassed' },
  { type: 'xstate.done.actor.setOffline' }, { type: 'xstate.error.actor.setOffline', error: new Error('x') },
  { type: 'xstate.done.actor.setOnline' }, { type: 'xstate.error.actor.setOnline', error: new Error('x') },
];

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const { simulated, pending, statuses, logic } = setup();
  const actor = createActor(logic, { clock: simulated, inspect }).start();
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    const payload = event as AnyEventObject;
    if (event.type === 'idle.deadlinePassed') {
      simulated.increment(actor.getSnapshot().context.deadline - simulated.now());
    } else if (kind === 'done') {
      pending.next(id!).resolve(payload.output);
    } else if (kind === 'error') {
      pending.next(id!).reject(payload.error);
    } else {
      simulated.increment(1000); // the input comes a second later
      actor.send(event as never);
    }
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    if (snapshot.matches('watching')) expect(snapshot.context.deadline).toBeGreaterThan(simulated.now());
    if (snapshot.matches('settingOffline')) expect(statuses.at(-1)).toBe(false);
    if (snapshot.matches('settingOnline')) expect(statuses.at(-1)).toBe(true);
  }
  actor.stop();
}

describeGeneratedPaths('idleHost', idleHostMachine, {
  events: samples,
  minPaths: 8,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('[§4 Idle host] deadlines', () => {
  async function started(minutes: number) {
    const s = setup();
    const actor = createActor(s.logic, { clock: s.simulated }).start();
    s.pending.next('loadLimit').resolve(minutes);
    await flush();
    return { ...s, actor };
  }

  it('sets the host offline after the server-set minutes without input', async () => {
    const { actor, simulated } = await started(2);
    simulated.increment(119_999);
    expect(actor.getSnapshot().value).toBe('watching');
    simulated.increment(1);
    expect(actor.getSnapshot().value).toBe('settingOffline');
  });

  it('input moves the deadline', async () => {
    const { actor, simulated } = await started(1);
    simulated.increment(30_000);
    actor.send({ type: 'user.input' });
    simulated.increment(59_999);
    expect(actor.getSnapshot().value).toBe('watching');
    simulated.increment(1);
    expect(actor.getSnapshot().value).toBe('settingOffline');
  });

  it('a phone that slept past the deadline (timers not run) is caught when the app shows again', async () => {
    // A clock whose timers never fire, as in a suspended tab; only the time moves.
    let now = 0;
    const suspended: ClockPort = { now: () => now, setTimeout: () => 0, clearTimeout: () => {} };
    const actor = createActor(composeIdleHost({
      clock: suspended,
      loadIdleMinutes: () => Promise.resolve(1),
      setHostOnline: () => Promise.resolve(),
    })).start();
    await flush();
    now += 5 * 60_000;
    expect(actor.getSnapshot().value).toBe('watching');
    actor.send({ type: 'app.visible' });
    expect(actor.getSnapshot().value).toBe('settingOffline');
  });

  it('a timer that fires early only sleeps again for what is left', async () => {
    const { actor, simulated } = await started(1);
    simulated.increment(10_000);
    actor.send({ type: 'user.input' }); // deadline now at 70 s
    simulated.increment(50_000); // 60 s: the first timer would have been due here
    expect(actor.getSnapshot().value).toBe('watching');
    simulated.increment(10_000);
    expect(actor.getSnapshot().value).toBe('settingOffline');
  });

  it('falls back to 1 minute when the limit cannot be read', async () => {
    const s = setup();
    const actor = createActor(s.logic, { clock: s.simulated }).start();
    s.pending.next('loadLimit').reject(new Error('down'));
    await flush();
    s.simulated.increment(60_000);
    expect(actor.getSnapshot().value).toBe('settingOffline');
  });

  it("'Go Online' sets the host online and watches again", async () => {
    const { actor, simulated, pending, statuses } = await started(1);
    simulated.increment(60_000);
    pending.next('setOffline').resolve(undefined);
    await flush();
    expect(actor.getSnapshot().value).toBe('offline');
    actor.send({ type: 'host.goOnline' });
    pending.next('setOnline').resolve(undefined);
    await flush();
    expect(statuses).toEqual([false, true]);
    expect(actor.getSnapshot().value).toBe('watching');
    expect(actor.getSnapshot().context.deadline).toBe(simulated.now() + 60_000);
  });
});
