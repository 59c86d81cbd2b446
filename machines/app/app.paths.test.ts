/**
 * Generated-path tests of the root app actor (SPEC §4 Login, §8 session codes): every
 * path the model generates is replayed on the real actor with a manual-mode fake session
 * port and a simulated clock, checking the state and its invariants at every step.
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { AnyEventObject, AnyMachineSnapshot, EventObject } from 'xstate';
import { FakeSessionPort, sampleAuth, sampleProfile } from '../ports/session.fake';
import type { SignInOutcome } from '../ports/session.port';
import { afterEvent, describeGeneratedPaths, flush } from '../testing/paths';
import type { InspectFn } from '../testing/paths';
import { composeAppMachine } from './app.actors';
import { appMachine } from './app.machine';
import { isDeepLink, pathForMode } from './app.paths';
import type { AppInput } from './app.machine';
import { manualRealtime } from '../testing/realtime';

const host = sampleProfile({ userType: 2, nickname: 'Host' });
const user = sampleProfile({ userType: 1, nickname: 'User' });
const visitor = sampleProfile({ userType: 1, nickname: 'Visitor 1234', isVisitor: true });
const signedIn: SignInOutcome = { kind: 'signedIn', auth: sampleAuth({ token: 'fresh' }) };
const refused: SignInOutcome = { kind: 'refused', message: 'Incorrect account or password.' };

const samples: AnyEventObject[] = [
  { type: 'login.submit', credentials: { account: 'a@b.c', password: 'secret1' } },
  { type: 'register.submit', registration: { account: 'n@b.c', password: 'secret1', nickname: 'N' } },
  { type: 'visitor.enter' },
  { type: 'session.logOut' },
  { type: 'session.retry' },
  { type: 'api.sessionRejected', reason: 'expired' },
  { type: 'api.sessionRejected', reason: 'updateRequired' },
  { type: 'xstate.done.actor.enter', output: signedIn },
  { type: 'xstate.done.actor.enter', output: refused },
  { type: 'xstate.error.actor.enter', error: new Error('Network Connection Failure') },
  { type: 'xstate.done.actor.loadProfile', output: host },
  { type: 'xstate.done.actor.loadProfile', output: user },
  { type: 'xstate.done.actor.loadProfile', output: visitor },
  { type: 'visitor.leave', to: '/register' },
  { type: 'visitor.leave', to: '/login' },
  { type: 'xstate.error.actor.loadProfile', error: new Error('Server Failure') },
  { type: 'xstate.done.actor.forget' },
  { type: 'xstate.error.actor.forget', error: new Error('storage') },
  { type: afterEvent('updateNoticeDelay', 'app.closingForUpdate') },
  { type: 'app.hidden' },
  { type: 'app.visible' },
  { type: 'user.input' },
  { type: 'session.unread', count: 2 },
  { type: 'session.navigate', to: '/talk?to=yx2&taPath=banner' },
  { type: 'session.toast', text: 'hello' },
  { type: 'session.log', text: 'ignored' },
  { type: 'session.becameHost' },
  { type: 'session.followerAdded' },
  { type: 'session.openPage', url: '/sandbox/pay/R1' },
  { type: 'session.vip', isVip: true },
  { type: 'profile.updated', changes: { nickname: 'Renamed', icon: '/media/x.png', picList: [] } },
  // The session finishes after leaving (logout), or by itself when kicked elsewhere.
  { type: 'xstate.done.actor.session', output: { endText: null } },
  { type: 'xstate.done.actor.session', output: { endText: 'This account has been logged in on other devices.' } },
];

const inputs: Record<string, AppInput> = {
  'open params': { openParams: sampleAuth(), path: '/' },
  'no params on /login': { openParams: null, path: '/login' },
  'no params on a protected path': { openParams: null, path: '/wallet' },
};

async function replay(input: AppInput, steps: readonly { event: EventObject; state: AnyMachineSnapshot }[], inspect: InspectFn) {
  const port = new FakeSessionPort('manual');
  const realtime = manualRealtime();
  const clock = realtime.clock;
  const actor = createActor(composeAppMachine({ session: port, realtime: realtime.ports }), { input, clock, inspect });
  const navigations: string[] = [];
  const emitted: AnyEventObject[] = [];
  actor.on('navigate', (e) => navigations.push(e.to));
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  await flush();
  // A deep link the app was opened on is where the first landing goes (SPEC §4: else the role's home).
  let returnTo: string | null = isDeepLink(input.path) ? input.path : null;
  // Where a visitor who chose to sign up or log in goes once signed out (else /login).
  let leaveTo = '/login';

  for (const { event, state } of steps) {
    const [kind, , , id] = event.type.split('.');
    if (event.type.startsWith('xstate.after.')) {
      clock.increment(2000);
    } else if (event.type === 'xstate.done.actor.session') {
      const { endText } = (event as unknown as { output: { endText: string | null } }).output;
      if (endText) {
        // Kicked elsewhere: the IM connection logs in, then the service kicks it.
        realtime.im.pending.next('login').resolve(undefined);
        await flush();
        realtime.im.emit({ type: 'kicked' });
      } else {
        // After session.leave: presence's offline is acknowledged.
        realtime.presence.pending.latest('send').resolve(undefined);
      }
    } else if (kind === 'xstate' && (event.type.startsWith('xstate.done') || event.type.startsWith('xstate.error'))) {
      const call = port.pending.next(id === 'enter' ? ['signIn', 'register', 'visit'] : [id!]);
      if (event.type.startsWith('xstate.done')) call.resolve('output' in event ? event.output : undefined);
      else call.reject('error' in event ? event.error : undefined);
    } else if (event.type.startsWith('session.')) {
      // What the session child would report.
      actor.send(event as never);
    } else {
      actor.send(event as never);
    }
    await flush();
    if (event.type === 'session.navigate') expect(navigations.at(-1)).toBe((event as AnyEventObject).to);
    if (event.type === 'session.toast') expect(emitted.at(-1)).toEqual({ type: 'toast', text: 'hello' });
    if (event.type === 'session.becameHost') expect(emitted.at(-1)).toEqual({ type: 'becameHost' });
    if (event.type === 'session.followerAdded') expect(emitted.at(-1)).toEqual({ type: 'followerAdded' });
    if (event.type === 'session.openPage') expect(emitted.at(-1)).toEqual({ type: 'openPage', url: '/sandbox/pay/R1' });
    if (event.type === 'profile.updated') expect(actor.getSnapshot().context.profile?.nickname).toBe('Renamed');
    if (event.type === 'session.vip' && actor.getSnapshot().matches('signedIn')) expect(actor.getSnapshot().context.profile?.vipInfo.isVip).toBe(true);
    if (event.type === 'visitor.leave') leaveTo = (event as AnyEventObject).to as string;

    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toEqual(state.value);
    // Invariants that hold wherever the path goes.
    if (snapshot.matches('signedOut')) {
      expect(snapshot.context.profile).toBeNull();
      expect(snapshot.context.auth).toBeNull();
      expect(snapshot.context.unread).toBe(0);
    }
    if (snapshot.matches({ signedIn: 'host' })) expect(snapshot.context.profile?.userType).toBe(2);
    if (snapshot.matches({ signedIn: 'restricted' })) expect(snapshot.context.profile?.userType).not.toBe(2);
    if (snapshot.matches('signedIn')) expect(snapshot.context.profile?.isVisitor).not.toBe(true);
    // [§6] A visitor runs no session: no IM, presence or signalling to be refused by the hub.
    if (snapshot.matches('visiting')) {
      expect(snapshot.context.profile?.isVisitor).toBe(true);
      expect(Object.keys(snapshot.children)).toEqual([]);
      expect(realtime.im.pending.count('login')).toBe(0);
    }
    if (event.type === 'xstate.done.actor.forget' || event.type === 'xstate.error.actor.forget') {
      expect(navigations.at(-1)).toBe(leaveTo);
      leaveTo = '/login';
    }
    if (event.type === 'xstate.done.actor.loadProfile') {
      const home = snapshot.context.profile?.userType === 2 ? '/' : '/newsRestricted';
      expect(navigations.at(-1)).toBe(returnTo ?? home);
      returnTo = null;
    }
  }
  // Signed in, exactly the session runs; signed out, nothing does.
  const settled = actor.getSnapshot();
  if (settled.matches('signedIn')) expect(Object.keys(settled.children)).toEqual(['session']);
  if (settled.matches({ signedOut: 'idle' })) expect(Object.keys(settled.children)).toEqual([]);
  actor.stop();
}

describeGeneratedPaths('app machine', appMachine, {
  events: samples,
  inputs,
  possible: (s, e) => {
    if (e.type !== 'xstate.done.actor.session') return true;
    const { endText } = (e as unknown as { output: { endText: string | null } }).output;
    // The session finishes quietly only after it was asked to leave; a kick comes while active.
    return s.matches({ signedIn: 'leaving' }) ? endText === null : endText !== null;
  },
  replay: (path, { input, inspect }) => replay(input, path.steps, inspect),
});

describe('[§4 Login] where a settled session lands', () => {
  it.each([
    ['/', false], ['/login', false], ['/register?x=1', false], ['/landingPage', false],
    ['/wallet', true], ['/talk?to=a&taPath=b', true], ['/news', true],
  ])('%s is a deep link: %s', (path, expected) => expect(isDeepLink(path)).toBe(expected));

  it.each([
    ['restricted', '/news', '/newsRestricted'], ['restricted', '/', '/newsRestricted'],
    ['restricted', '/mine', '/mineRestricted'], ['restricted', '/circle', '/newsRestricted'],
    ['host', '/newsRestricted', '/news'], ['host', '/mineRestricted', '/mine'],
    ['host', '/talk?to=a', '/talk?to=a'], ['restricted', '/wallet', '/wallet'],
    // SPEC §6: going live and its results are the host's; a viewer's room is anyone's.
    ['restricted', '/liveSetting', '/newsRestricted'], ['restricted', '/liveEnds?x=1', '/newsRestricted'],
    ['host', '/liveSetting', '/liveSetting'], ['host', '/liveEnds', '/liveEnds'], ['restricted', '/liveRoom?anchorId=7', '/liveRoom?anchorId=7'],
  ] as const)('%s on %s goes to %s', (mode, path, expected) => expect(pathForMode(mode, path)).toBe(expected));
});
