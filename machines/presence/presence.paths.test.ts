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
import { MAX_RECONNECT_TRIES, RECONNECT_DELAY_MS, presenceMachine } from './presence.machine';
import { selectPresenceGaveUp } from './presence.selectors';

const samples: AnyEventObject[] = [
  { type: 'app.hidden' }, { type: 'app.visible' }, { type: 'call.started' }, { type: 'call.ended' },
  { type: 'host.idleOffline' }, { type: 'host.online' }, { type: 'presence.goOffline' }, { type: 'presence.closed' },
  { type: 'presence.retry' },
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

  it('[§9, §8] gives up after 720 reconnect tries 5 s apart, says so, and tries again from the first try when asked', async () => {
    const port = manualPort();
    const clock = new SimulatedClock();
    const actor = createActor(composePresence(port), { clock, input: {} }).start();
    // A few microtasks let a refused open reach the machine (flush's macrotask each time would take seconds here).
    const settled = async () => { for (let k = 0; k < 4; k++) await Promise.resolve(); };
    const spend = async (tries: number) => {
      for (let i = 0; i < tries; i++) {
        port.pending.latest('open').reject(new Error('down'));
        await settled();
        expect(actor.getSnapshot().matches({ running: { link: 'waiting' } })).toBe(true);
        clock.increment(RECONNECT_DELAY_MS);
      }
    };
    await spend(MAX_RECONNECT_TRIES - 1);
    expect(port.pending.count('open')).toBe(MAX_RECONNECT_TRIES);
    expect(actor.getSnapshot().matches({ running: { link: 'connecting' } })).toBe(true);
    await spend(1);
    expect(actor.getSnapshot().matches({ running: { link: 'gaveUp' } })).toBe(true);
    expect(selectPresenceGaveUp(actor.getSnapshot())).toBe(true);
    expect(port.pending.count('open')).toBe(MAX_RECONNECT_TRIES);
    // Nothing more is tried until the person asks.
    clock.increment(60 * 60_000);
    expect(port.pending.count('open')).toBe(MAX_RECONNECT_TRIES);

    // Asked, it tries again from the first try (720 more: `tries` starts over).
    actor.send({ type: 'presence.retry' });
    expect(selectPresenceGaveUp(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.tries).toBe(1);
    await spend(1);
    expect(port.pending.count('open')).toBe(MAX_RECONNECT_TRIES + 2);
    expect(actor.getSnapshot().context.tries).toBe(2);
    port.pending.latest('open').resolve(undefined);
    await flush();
    expect(actor.getSnapshot().matches({ running: { link: 'online' } })).toBe(true);
    expect(actor.getSnapshot().context.tries).toBe(0);
    actor.stop();
  });

  it('a development policy (composePresence\'s retry) gives up after its own tries and delay', async () => {
    const port = manualPort();
    const clock = new SimulatedClock();
    const actor = createActor(composePresence(port, { maxTries: 2, delayMs: 200 }), { clock, input: {} }).start();
    for (let i = 0; i < 2; i++) {
      port.pending.latest('open').reject(new Error('down'));
      await flush();
      clock.increment(199);
      expect(port.pending.count('open')).toBe(i + 1);
      clock.increment(1);
    }
    expect(actor.getSnapshot().matches({ running: { link: 'gaveUp' } })).toBe(true);
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
