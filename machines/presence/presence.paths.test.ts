/**
 * Generated-path tests of presence (SPEC §4 Presence, §9): every path replayed on the real
 * actor over a manual presence port and a simulated clock, checking which code went out.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { FakePresencePort } from '../ports/presence.fake';
import { PresenceCode } from '../ports/presence.port';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composePresence } from './presence.actors';
import { presenceMachine } from './presence.machine';

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

const input = { maxTries: 2 };
const manualPort = () => new FakePresencePort(undefined, 'session-token', 'manual');
/** Every code presence asked to send, acknowledged or not. */
const asked = (port: FakePresencePort) => port.pending.argsOf('send').map(([code]) => code);
/** The code of the send under way. */
const sending = (port: FakePresencePort) => port.pending.latest<void>('send').args[0];

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const port = manualPort();
  const clock = new SimulatedClock();
  const actor = createActor(composePresence(port), { input, clock, inspect }).start();
  await flush();
  for (const { event, state } of steps) {
    const [, kind, , id] = event.type.split('.');
    if (event.type.startsWith('xstate.after.')) clock.increment(5000);
    else if (kind === 'done') port.pending.latest(id === 'sendOffline' ? 'send' : id!).resolve(undefined);
    else if (kind === 'error') port.pending.latest(id === 'sendOffline' ? 'send' : id!).reject(new Error('x'));
    else if (event.type === 'presence.closed') port.emit({ type: 'closed' });
    else actor.send(event as never);
    await flush();

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    // The code that goes out is the one the activity stands for.
    if (snapshot.matches({ running: { link: { online: 'sending' } } })) expect(sending(port)).toBe(snapshot.context.code);
    if (snapshot.matches({ running: { link: 'closing' } })) expect(sending(port)).toBe(PresenceCode.offline);
    if (snapshot.matches('closed')) {
      expect(port.closeCount).toBe(1);
      expect(snapshot.status).toBe('done');
    }
    expect(port.listenerCount).toBe(snapshot.matches({ running: { link: 'online' } }) ? 1 : 0);
  }
  actor.stop();
}

describeGeneratedPaths('presence', presenceMachine, {
  events: samples,
  inputs: { 'two reconnect tries': input },
  serializeContext: (c) => [(c as { tries: number }).tries, (c as { code: number }).code],
  minPaths: 20,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});

describe('presence codes', () => {
  it('[§4 Presence] reports 10002 on connect, 10003 in the background without heartbeats, 10000 in a call, 10001 after it', async () => {
    const port = manualPort();
    const clock = new SimulatedClock();
    const actor = createActor(composePresence(port), { clock, input: {} }).start();
    port.pending.latest('open').resolve(undefined);
    await flush();
    expect(asked(port)).toEqual([PresenceCode.foreground]);
    port.pending.latest('send').resolve(undefined);
    await flush();
    clock.increment(5000);
    expect(asked(port)).toEqual([10002, 10002]);
    port.pending.latest('send').resolve(undefined);
    await flush();
    actor.send({ type: 'app.hidden' });
    expect(asked(port).at(-1)).toBe(10003);
    port.pending.latest('send').resolve(undefined);
    await flush();
    clock.increment(20_000);
    expect(asked(port).at(-1)).toBe(10003);
    expect(asked(port).filter((c) => c === 10003)).toHaveLength(1);
    actor.send({ type: 'app.visible' });
    actor.send({ type: 'call.started' });
    expect(asked(port).at(-1)).toBe(10000);
    port.pending.latest('send').resolve(undefined);
    await flush();
    actor.send({ type: 'call.ended' });
    expect(asked(port).at(-1)).toBe(10001);
    port.pending.latest('send').resolve(undefined);
    await flush();
    expect(asked(port).at(-1)).toBe(10002);
    actor.stop();
  });

  it('[§9] gives up after the configured number of reconnect tries, 5 s apart', async () => {
    const port = manualPort();
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
