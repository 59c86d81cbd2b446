/**
 * Generated-path tests of presence (SPEC §4 Presence, §9): every path replayed on the real
 * actor over a manual presence port and a simulated clock, checking which code went out.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { PresenceCode } from '../ports/presence.port';
import type { PresenceEvent as PortEvent, PresencePort } from '../ports/presence.port';
import { Coverage, afterEvent, createPathModel, describePath, flush } from '../testing/paths';
import { composePresence } from './presence.actors';
import { presenceMachine } from './presence.machine';

/** A presence port whose every call waits for the test. */
class ManualPresence implements PresencePort {
  readonly pending = new PendingCalls();
  readonly sent: number[] = [];
  readonly listeners = new Set<(e: PortEvent) => void>();
  closed = 0;
  open() { return this.pending.add<void>('open', []); }
  send(code: PresenceCode) { this.sent.push(code); return this.pending.add<void>('send', [code]); }
  close() { this.closed += 1; }
  subscribe(listener: (e: PortEvent) => void) { this.listeners.add(listener); return () => this.listeners.delete(listener); }
}

const samples: AnyEventObject[] = [
  { type: 'app.hidden' }, { type: 'app.visible' }, { type: 'call.started' }, { type: 'call.ended' },
  { type: 'host.idleOffline' }, { type: 'host.online' }, { type: 'presence.goOffline' }, { type: 'presence.closed' },
  { type: 'xstate.done.actor.open' }, { type: 'xstate.error.actor.open', error: new Error('refused') },
  { type: 'xstate.done.actor.send' }, { type: 'xstate.error.actor.send', error: new Error('closed') },
  { type: 'xstate.done.actor.sendOffline' }, { type: 'xstate.error.actor.sendOffline', error: new Error('closed') },
  { type: afterEvent('heartbeat', 'presence.running.link.online.idle') },
  { type: afterEvent('reconnectDelay', 'presence.running.link.waiting') },
  { type: afterEvent('presenceTimeout', 'presence.running.link.online.sending') },
  { type: afterEvent('presenceTimeout', 'presence.running.link.closing') },
];

const coverage = new Coverage(presenceMachine);
const input = { maxTries: 2 };

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[]) {
  const port = new ManualPresence();
  const clock = new SimulatedClock();
  const actor = createActor(composePresence(port), { input, clock, inspect: coverage.inspect }).start();
  await flush();
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    if (event.type.startsWith('xstate.after.')) clock.increment(5000);
    else if (kind === 'done') port.pending.latest(id === 'sendOffline' ? 'send' : id!).resolve(undefined);
    else if (kind === 'error') port.pending.latest(id === 'sendOffline' ? 'send' : id!).reject(new Error('x'));
    else if (event.type === 'presence.closed') port.listeners.forEach((l) => l({ type: 'closed' }));
    else actor.send(event as never);
    await flush();

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    // The code that goes out is the one the activity stands for.
    if (snapshot.matches({ running: { link: { online: 'sending' } } })) {
      expect(port.sent.at(-1)).toBe(snapshot.context.code);
    }
    if (snapshot.matches({ running: { link: 'closing' } })) expect(port.sent.at(-1)).toBe(PresenceCode.offline);
    if (snapshot.matches('closed')) {
      expect(port.closed).toBe(1);
      expect(snapshot.status).toBe('done');
    }
    expect(port.listeners.size).toBe(snapshot.matches({ running: { link: 'online' } }) ? 1 : 0);
  }
  actor.stop();
}

describe('presence: generated paths', () => {
  const paths = createPathModel(presenceMachine, {
    events: samples,
    input,
    serializeContext: (c) => [(c as { tries: number }).tries, (c as { code: number }).code],
  }).transitionPaths();
  it('generates paths', () => expect(paths.length).toBeGreaterThan(20));
  for (const path of paths) it(describePath(path), () => replay(path.steps));

  it('reaches every state node and every transition of the machine', () => {
    expect(coverage.missingStateNodes()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });
});

describe('presence codes', () => {
  it('[§4 Presence] reports 10002 on connect, 10003 in the background without heartbeats, 10000 in a call, 10001 after it', async () => {
    const port = new ManualPresence();
    const clock = new SimulatedClock();
    const actor = createActor(composePresence(port), { clock, input: {} }).start();
    port.pending.latest('open').resolve(undefined);
    await flush();
    expect(port.sent).toEqual([PresenceCode.foreground]);
    port.pending.latest('send').resolve(undefined);
    await flush();
    clock.increment(5000);
    expect(port.sent).toEqual([10002, 10002]);
    port.pending.latest('send').resolve(undefined);
    await flush();
    actor.send({ type: 'app.hidden' });
    expect(port.sent.at(-1)).toBe(10003);
    port.pending.latest('send').resolve(undefined);
    await flush();
    clock.increment(20_000);
    expect(port.sent.at(-1)).toBe(10003);
    expect(port.sent.filter((c) => c === 10003)).toHaveLength(1);
    actor.send({ type: 'app.visible' });
    actor.send({ type: 'call.started' });
    expect(port.sent.at(-1)).toBe(10000);
    port.pending.latest('send').resolve(undefined);
    await flush();
    actor.send({ type: 'call.ended' });
    expect(port.sent.at(-1)).toBe(10001);
    port.pending.latest('send').resolve(undefined);
    await flush();
    expect(port.sent.at(-1)).toBe(10002);
    actor.stop();
  });

  it('[§9] gives up after the configured number of reconnect tries, 5 s apart', async () => {
    const port = new ManualPresence();
    const clock = new SimulatedClock();
    const actor = createActor(composePresence(port), { clock, input: { maxTries: 3 } }).start();
    for (let i = 0; i < 3; i++) {
      port.pending.latest('open').reject(new Error('down'));
      await flush();
      expect(actor.getSnapshot().matches({ running: { link: 'waiting' } })).toBe(true);
      clock.increment(4999);
      expect(port.pending.count('open')).toBe(i + 1);
      clock.increment(1);
    }
    expect(actor.getSnapshot().matches({ running: { link: 'gaveUp' } })).toBe(true);
    expect(port.pending.count('open')).toBe(3);
  });
});
