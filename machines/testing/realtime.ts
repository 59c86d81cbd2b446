/**
 * Realtime ports for tests of machines that own a signed-in session: manual-mode fakes
 * (nothing answers until the test says so) or auto-mode fakes wired to in-memory servers.
 */
import { SimulatedClock } from 'xstate';
import type { ClockPort } from '../idle-host/idle-host.actors';
import { FakeImNetwork, FakeImPort } from '../ports/im.fake';
import { PendingCalls } from '../ports/pending';
import { FakePresencePort, FakePresenceServer } from '../ports/presence.fake';
import type { RealtimePorts } from '../session/session.actors';

export const clockPortOf = (clock: SimulatedClock): ClockPort => ({
  now: () => clock.now(),
  setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
  clearTimeout: (id) => clock.clearTimeout(id as number),
});

export function manualRealtime(clock = new SimulatedClock()) {
  const im = new FakeImPort(undefined, 'manual');
  const presence = new FakePresencePort(undefined, 'session-token', 'manual');
  const pending = new PendingCalls();
  const ports: RealtimePorts = {
    im,
    presence,
    clock: clockPortOf(clock),
    loadIdleMinutes: () => pending.add('loadIdleMinutes', []),
    customerServiceAccount: () => pending.add('customerServiceAccount', []),
    lookupProfiles: (accounts) => pending.add('lookupProfiles', [accounts]),
    translate: (text, to) => pending.add('translate', [text, to]),
    setBlocked: (peer, blocked) => pending.add('setBlocked', [peer, blocked]),
    storeSecret: (secret) => pending.add('storeSecret', [secret]),
    openSecret: (id, pay) => pending.add('openSecret', [id, pay]),
    loadPins: () => [],
    savePins: () => {},
  };
  return { ports, im, presence, pending, clock };
}

/** Auto-mode fakes: `account`/`token` can log in to IM, `sessionToken` can open presence. */
export function autoRealtime(account: string, token: string, sessionToken = 'session-token') {
  const network = new FakeImNetwork();
  network.register(account, token);
  const presenceServer = new FakePresenceServer();
  presenceServer.register(sessionToken, account);
  const ports: RealtimePorts = {
    im: new FakeImPort(network),
    presence: new FakePresencePort(presenceServer, sessionToken),
    clock: { now: () => Date.now(), setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id as number) },
    loadIdleMinutes: () => Promise.resolve(1),
    customerServiceAccount: () => Promise.resolve(null),
    lookupProfiles: () => Promise.resolve({}),
    translate: (text) => Promise.resolve(text),
    setBlocked: () => Promise.resolve(),
    storeSecret: () => Promise.reject(new Error('No secret messages here')),
    openSecret: () => Promise.reject(new Error('No secret messages here')),
    loadPins: () => [],
    savePins: () => {},
  };
  return { ports, network, presenceServer };
}
