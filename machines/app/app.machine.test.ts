/** Scenarios and unit checks of the root app actor (SPEC §4 Login, §8 session codes). */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { FakeSessionPort, sampleAuth, sampleProfile } from '../ports/session.fake';
import type { StoredAuth } from '../ports/session.port';
import { flush } from '../testing/paths';
import { composeAppMachine } from './app.actors';
import { manualRealtime } from '../testing/realtime';

function start(openParams: StoredAuth | null, path: string) {
  const port = new FakeSessionPort('manual');
  const realtime = manualRealtime();
  const clock = realtime.clock;
  const actor = createActor(composeAppMachine({ session: port, realtime: realtime.ports }), { input: { openParams, path }, clock });
  const navigations: string[] = [];
  actor.on('navigate', (e) => navigations.push(e.to));
  actor.start();
  /** A logout: the session says offline (presence answers), then the session is forgotten. */
  const logOut = async () => {
    actor.send({ type: 'session.logOut' });
    realtime.presence.pending.latest('send').resolve(undefined);
    await flush();
  };
  return { actor, port, clock, navigations, realtime, logOut };
}

const host = sampleProfile({ userType: 2 });
const user = sampleProfile({ userType: 1 });

describe('app machine', () => {
  it('Scenario: a double tap on Log in sends one request', async () => {
    const { actor, port } = start(null, '/login');
    const credentials = { account: 'host1@example.com', password: 'password1' };
    actor.send({ type: 'login.submit', credentials });
    actor.send({ type: 'login.submit', credentials });
    actor.send({ type: 'visitor.enter' });
    expect(actor.getSnapshot().matches({ signedOut: 'submitting' })).toBe(true);
    expect(port.pending.count('signIn')).toBe(1);
    expect(port.pending.count('visit')).toBe(0);
  });

  it('Scenario: a refused sign-in keeps the reason for the form until the next attempt', async () => {
    const { actor, port } = start(null, '/login');
    actor.send({ type: 'login.submit', credentials: { account: 'a@b.c', password: 'nope-nope' } });
    port.pending.next('signIn').resolve({ kind: 'refused', message: 'Incorrect account or password.' });
    await flush();
    expect(actor.getSnapshot().context.formError).toBe('Incorrect account or password.');
    actor.send({ type: 'register.submit', registration: { account: 'n@b.c', password: 'secret1', nickname: 'N' } });
    expect(actor.getSnapshot().context.formError).toBeNull();
  });

  it('Scenario: a successful sign-in loads the profile under the new auth and lands by role', async () => {
    const { actor, port, navigations } = start(null, '/register');
    actor.send({ type: 'register.submit', registration: { account: 'n@b.c', password: 'secret1', nickname: 'N' } });
    const auth = sampleAuth({ token: 'fresh' });
    port.pending.next('register').resolve({ kind: 'signedIn', auth });
    await flush();
    expect(port.pending.next('loadProfile').args).toEqual([auth]);
    port.pending.next('loadProfile').resolve(user);
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: 'restricted' })).toBe(true);
    expect(navigations).toEqual(['/newsRestricted']);
  });

  it('[§8 1004] Scenario: the update notice stays 2 s, then the session ends and login shows', async () => {
    const { actor, port, clock, navigations } = start(sampleAuth(), '/');
    port.pending.next('loadProfile').resolve(host);
    await flush();
    actor.send({ type: 'api.sessionRejected', reason: 'updateRequired' });
    clock.increment(1999);
    expect(actor.getSnapshot().value).toBe('closingForUpdate');
    clock.increment(1);
    expect(actor.getSnapshot().value).toBe('signingOut');
    port.pending.next('forget').resolve(undefined);
    await flush();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(navigations).toEqual(['/', '/login']);
  });

  it('[§8 1005] Scenario: an expired session while loading the profile signs out at once', async () => {
    const { actor, port } = start(sampleAuth(), '/');
    actor.send({ type: 'api.sessionRejected', reason: 'expired' });
    expect(actor.getSnapshot().value).toBe('signingOut');
    // The abandoned profile request may still answer: it changes nothing.
    port.pending.next('loadProfile').resolve(host);
    await flush();
    expect(actor.getSnapshot().value).toBe('signingOut');
  });

  it('Scenario: a failed profile load can be retried', async () => {
    const { actor, port } = start(sampleAuth(), '/');
    port.pending.next('loadProfile').reject(new Error('Server Failure'));
    await flush();
    expect(actor.getSnapshot().value).toBe('profileFailed');
    expect(actor.getSnapshot().context.loadError).toBe('Server Failure');
    actor.send({ type: 'session.retry' });
    expect(actor.getSnapshot().context.loadError).toBeNull();
    port.pending.next('loadProfile').resolve(host);
    await flush();
    expect(actor.getSnapshot().matches({ signedIn: 'host' })).toBe(true);
  });

  it.each([
    ['/talk?to=yx9&taPath=news', host, '/talk?to=yx9&taPath=news'],
    ['/news', user, '/newsRestricted'],
    ['/mineRestricted', host, '/mine'],
    ['/', user, '/newsRestricted'],
    ['/?inspect=1', host, '/'],
  ])('[§4 Login] opened on %s, lands on the right page', async (path, profile, expected) => {
    const { port, navigations } = start(sampleAuth(), path);
    port.pending.next('loadProfile').resolve(profile);
    await flush();
    expect(navigations).toEqual([expected]);
  });

  it('after a logout the next sign-in goes to the role home, not the old deep link', async () => {
    const { actor, port, navigations, logOut } = start(sampleAuth(), '/wallet');
    port.pending.next('loadProfile').resolve(host);
    await flush();
    await logOut();
    port.pending.next('forget').resolve(undefined);
    await flush();
    actor.send({ type: 'login.submit', credentials: { account: 'a@b.c', password: 'secret1' } });
    port.pending.next('signIn').resolve({ kind: 'signedIn', auth: sampleAuth() });
    await flush();
    port.pending.next('loadProfile').resolve(host);
    await flush();
    expect(navigations).toEqual(['/wallet', '/login', '/']);
  });

  it('[§4 Message service] a kick elsewhere ends the session with the §8 text', async () => {
    const { actor, port, realtime } = start(sampleAuth(), '/');
    const toasts: string[] = [];
    actor.on('toast', (e) => toasts.push(e.text));
    port.pending.next('loadProfile').resolve(host);
    await flush();
    realtime.im.pending.next('login').resolve(undefined);
    await flush();
    realtime.presence.pending.next('open').resolve(undefined);
    await flush();
    realtime.presence.pending.latest('send').resolve(undefined);
    await flush();
    realtime.im.emit({ type: 'kicked' });
    await flush();
    expect(toasts).toEqual(['This account has been logged in on other devices.']);
    expect(actor.getSnapshot().value).toBe('signingOut');
    // Kicked by another device: that device is the user now, so no offline is sent for it.
    expect(realtime.presence.sent).toEqual([10002]);
    expect(realtime.presence.pending.open().map((c) => c.args)).not.toContainEqual([2]);
  });

  it('[§6] Scenario: a visitor browses with no session running (no IM login, no presence), and Sign up ends the visit at /register', async () => {
    const { actor, port, realtime, navigations } = start(null, '/landingPage');
    actor.send({ type: 'visitor.enter' });
    port.pending.next('visit').resolve({ kind: 'signedIn', auth: sampleAuth({ token: 'visitor' }) });
    await flush();
    port.pending.next('loadProfile').resolve(sampleProfile({ userType: 1, isVisitor: true }));
    await flush();
    expect(actor.getSnapshot().value).toBe('visiting');
    expect(navigations).toEqual(['/newsRestricted']);
    expect(actor.getSnapshot().children).toEqual({});
    expect(realtime.im.pending.count('login')).toBe(0);
    expect(realtime.presence.pending.count('send')).toBe(0);
    actor.send({ type: 'visitor.leave', to: '/register' });
    expect(actor.getSnapshot().value).toBe('signingOut');
    port.pending.next('forget').resolve(undefined);
    await flush();
    expect(actor.getSnapshot().matches({ signedOut: 'idle' })).toBe(true);
    expect(navigations.at(-1)).toBe('/register');
    // The next sign-out (a later session's) goes to /login again.
    expect(actor.getSnapshot().context.leaveTo).toBeNull();
  });

  it('[§4 Presence] logout sends offline before the session is forgotten', async () => {
    const { actor, port, realtime } = start(sampleAuth(), '/');
    port.pending.next('loadProfile').resolve(host);
    await flush();
    actor.send({ type: 'session.logOut' });
    expect(actor.getSnapshot().matches({ signedIn: 'leaving' })).toBe(true);
    expect(port.pending.count('forget')).toBe(0);
    const offline = realtime.presence.pending.latest<void>('send');
    expect(offline.args).toEqual([2]);
    offline.resolve(undefined);
    await flush();
    expect(actor.getSnapshot().value).toBe('signingOut');
    expect(port.pending.count('forget')).toBe(1);
  });

  it('passes the unread total of IM to the News badge', async () => {
    const { actor, port, realtime } = start(sampleAuth(), '/');
    port.pending.next('loadProfile').resolve(host);
    await flush();
    realtime.im.pending.next('login').resolve(undefined);
    await flush();
    realtime.im.emit({ type: 'unread', total: 6 });
    expect(actor.getSnapshot().context.unread).toBe(6);
  });

  it.each([
    [5, 5], [0, 0], [-3, 0], [2.7, 2],
  ])('keeps the unread count %s as %s', async (count, expected) => {
    const { actor, port } = start(sampleAuth(), '/');
    port.pending.next('loadProfile').resolve(host);
    await flush();
    actor.send({ type: 'session.unread', count });
    expect(actor.getSnapshot().context.unread).toBe(expected);
  });

  it('signing out forgets the session and resets what the session knew', async () => {
    const { actor, port, logOut } = start(sampleAuth(), '/');
    port.pending.next('loadProfile').resolve(host);
    await flush();
    actor.send({ type: 'session.unread', count: 4 });
    await logOut();
    port.pending.next('forget').resolve(undefined);
    await flush();
    expect(port.forgetCount).toBe(1);
    expect(actor.getSnapshot().context).toMatchObject({ auth: null, profile: null, unread: 0 });
  });
});
