/**
 * Generated-path tests of the calls' signalling link: logged in, again 5 s after a failure or a
 * drop, logged out when it stops; replayed over the manual signalling fake on a simulated clock.
 */
import { expect } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { PendingCalls } from '../ports/pending';
import { FakeSignallingPort } from '../ports/signalling.fake';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeSignalLink } from './calls.actors';
import { SIGNAL_RELOGIN_MS, signalLinkMachine } from './signal-link.machine';

const RELOGIN = afterEvent('relogin', 'signalLink.waiting');

const samples: AnyEventObject[] = [
  { type: 'xstate.done.actor.login' },
  { type: 'xstate.error.actor.login', error: new Error('RTM login failed') },
  { type: 'signal.disconnected' },
  { type: RELOGIN },
];

async function replay(steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const signalling = new FakeSignallingPort(undefined, 'manual');
  const tokens = new PendingCalls();
  const clock = new SimulatedClock();
  // The link as the calls compose it.
  const link = composeSignalLink({ signalling, tokens: { rtm: () => tokens.add('rtmToken', []) } });
  const actor = createActor(link, { input: { account: 'me' }, clock, inspect }).start();
  for (const { event, state } of steps) {
    const loginsBefore = signalling.pending.count('login');
    if (event.type === 'xstate.done.actor.login' || event.type === 'xstate.error.actor.login') {
      tokens.next('rtmToken').resolve('rtm-token');
      await flush();
      expect(signalling.pending.argsOf('login').at(-1)).toEqual(['me', 'rtm-token']);
      if (event.type === 'xstate.done.actor.login') signalling.pending.next('login').resolve(undefined);
      else signalling.pending.next('login').reject((event as AnyEventObject).error);
    } else if (event.type === RELOGIN) {
      clock.increment(SIGNAL_RELOGIN_MS - 1);
      await flush();
      expect(actor.getSnapshot().value).toBe('waiting');
      clock.increment(1);
    } else if (event.type === 'signal.disconnected') signalling.emit({ type: 'disconnected' });
    await flush();
    expect(actor.getSnapshot().value).toEqual(state.value);
    if (event.type === RELOGIN) expect(tokens.count('rtmToken')).toBeGreaterThan(0);
    expect(signalling.pending.count('login')).toBeGreaterThanOrEqual(loginsBefore);
    expect(signalling.listenerCount).toBe(1);
  }
  actor.stop();
  // Stopped: no listener left, and signalling is logged out.
  expect(signalling.listenerCount).toBe(0);
  expect(signalling.pending.count('logout')).toBe(1);
}

describeGeneratedPaths('signalLink', signalLinkMachine, {
  events: samples,
  inputs: { signedIn: { account: 'me' } },
  possible: (s, e) => !e.type.includes('actor.login') || s.matches('loggingIn'),
  minPaths: 3,
  replay: (path, { inspect }) => replay(path.steps, inspect),
});
