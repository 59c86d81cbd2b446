/** The inspector (src/app/inspector.ts): off in a production build unless enabled, and no secret reaches its window. */
import { describe, expect, it } from 'vitest';
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { composeAppMachine } from '../../machines/app/app.actors';
import { FakeSessionPort, sampleAuth, sampleProfile } from '../../machines/ports/session.fake';
import { flush } from '../../machines/testing/paths';
import { manualRealtime } from '../../machines/testing/realtime';
import { selectSession } from '../../machines/session/session.selectors';
import { REDACTED, redactSecrets, startInspector } from './inspector';

const SESSION_TOKEN = 'session-token-5f1e9c0b7d2a';
const IM_TOKEN = 'im-token-83ac41d09e6b';

/** A page window as the inspector uses it: it opens the inspector's window and hears from it; what it posts there is kept. */
function fakeWindow() {
  const posted: unknown[] = [];
  const listeners: ((e: { data: unknown }) => void)[] = [];
  const opened: string[] = [];
  const page = {
    open: (url: string) => {
      opened.push(url);
      return { postMessage: (message: unknown) => posted.push(message) };
    },
    addEventListener: (_type: string, listener: (e: { data: unknown }) => void) => listeners.push(listener),
  };
  return {
    window: page as unknown as Window,
    posted,
    opened,
    /** The inspector's window says it is ready: what was held back is posted, and everything after. */
    connect: () => listeners.forEach((l) => l({ data: { type: '@statelyai.connected' } })),
  };
}

/** The root actor, signed in as a host whose session and IM tokens are the secrets above. */
function signedInApp(inspect?: Observer<InspectionEvent>) {
  const session = new FakeSessionPort('manual');
  const realtime = manualRealtime();
  const actor = createActor(composeAppMachine({ session, realtime: realtime.ports }), {
    input: { openParams: sampleAuth({ token: SESSION_TOKEN }), path: '/' },
    clock: realtime.clock,
    ...(inspect ? { inspect } : {}),
  });
  actor.start();
  session.pending.next('loadProfile').resolve(sampleProfile({ userType: 2, imToken: IM_TOKEN }));
  return actor;
}

const settle = async () => {
  for (let i = 0; i < 5; i++) {
    await flush();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
};

describe('inspector', () => {
  it('redacts the session and IM tokens from a real root-actor snapshot, children included', async () => {
    const actor = signedInApp();
    await flush();
    const snapshot = actor.getSnapshot();
    expect(snapshot.matches('signedIn')).toBe(true);
    // The secrets are there to be redacted: in the root's context and in the session child's.
    expect(JSON.stringify(snapshot.context)).toContain(SESSION_TOKEN);
    const session = selectSession(snapshot)!.getSnapshot();
    expect(JSON.stringify(session.context)).toContain(IM_TOKEN);
    const shown = JSON.stringify([redactSecrets(snapshot), redactSecrets(session)]);
    expect(shown).not.toContain(SESSION_TOKEN);
    expect(shown).not.toContain(IM_TOKEN);
    expect(shown).toContain(REDACTED);
    expect(shown).toContain('Host One');
    actor.stop();
  });

  it('redacts every kind of secret by its field name, and keeps what is not one', () => {
    const value = {
      auth: { token: 't', loginUuid: 'u' }, rtm: { rtmToken: 'r', rtcToken: 'c' }, password: 'p', x_login_token: 'x',
      translator: { key: 'k', region: 'eastus' }, gift: { key: 'rose' }, idempotencyKey: 'i', list: [{ imToken: 'm' }], empty: { token: '' },
    };
    expect(redactSecrets(value)).toEqual({
      auth: { token: REDACTED, loginUuid: 'u' }, rtm: { rtmToken: REDACTED, rtcToken: REDACTED }, password: REDACTED,
      x_login_token: REDACTED, translator: { key: REDACTED, region: 'eastus' }, gift: { key: 'rose' }, idempotencyKey: 'i',
      list: [{ imToken: REDACTED }], empty: { token: '' },
    });
    const cycle: Record<string, unknown> = { name: 'a' };
    cycle.self = cycle;
    expect(redactSecrets(cycle)).toEqual({ name: 'a', self: '[circular]' });
  });

  it('posts no secret to the inspector window: every inspected snapshot and event is redacted', async () => {
    const page = fakeWindow();
    const inspect = await startInspector('?inspect=1', { env: { PROD: false }, window: page.window });
    expect(inspect).not.toBeNull();
    expect(page.opened).toEqual(['https://stately.ai/inspect']);
    const actor = signedInApp(inspect!);
    await settle();
    page.connect();
    actor.send({ type: 'user.input' });
    await settle();
    expect(page.posted.length).toBeGreaterThan(5);
    const everything = JSON.stringify(page.posted);
    expect(everything).not.toContain(SESSION_TOKEN);
    expect(everything).not.toContain(IM_TOKEN);
    expect(everything).toContain(REDACTED);
    actor.stop();
  });

  it('is off in a production build unless built with VITE_INSPECTOR=1, and off without ?inspect=1', async () => {
    const page = fakeWindow();
    expect(await startInspector('?inspect=1', { env: { PROD: true }, window: page.window })).toBeNull();
    expect(await startInspector('?inspect=1', { env: { PROD: true, VITE_INSPECTOR: '0' }, window: page.window })).toBeNull();
    expect(await startInspector('', { env: { PROD: false }, window: page.window })).toBeNull();
    expect(await startInspector('?inspect=0', { env: { PROD: false }, window: page.window })).toBeNull();
    expect(page.opened).toEqual([]);
    expect(await startInspector('?inspect=1', { env: { PROD: true, VITE_INSPECTOR: '1' }, window: page.window })).not.toBeNull();
    expect(page.opened).toHaveLength(1);
  });
});
