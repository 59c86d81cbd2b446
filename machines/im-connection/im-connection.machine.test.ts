/**
 * Sends made while the IM is logging in (SPEC §4 Message service, §5 sending with no
 * connection): held in order, started on connect, refused when the login ends elsewhere.
 * The real machine over a manual-mode fake IM port and a simulated clock.
 */
import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import type { AnyEventObject } from 'xstate';
import { FakeImPort } from '../ports/im.fake';
import { ImCode, ImError } from '../ports/im.port';
import type { ImMessage } from '../ports/im.port';
import { PendingCalls } from '../ports/pending';
import { flush } from '../testing/paths';
import { composeImConnection } from './im-connection.actors';
import { TEXT_KICKED, TEXT_NOT_CONNECTED, isKnownSend, requestOf } from './im-connection.machine';
import type { SendRequest } from './im-connection.machine';

const send = (idClient: string, text = `text ${idClient}`) => ({ type: 'im.sendText' as const, to: 'peer', text, idClient });
const notConnected = (idClient: string) => ({ type: 'sendFailed', idClient, reason: 'notConnected', text: TEXT_NOT_CONNECTED });
const sentMessage = (idClient: string): ImMessage => ({
  idClient, idServer: `s-${idClient}`, from: 'me', to: 'peer', sessionId: 'peer', scene: 'p2p', flow: 'out',
  type: 'text', text: 'x', time: 1, status: 'sent',
});

function setUp(disconnectWhenHidden = false) {
  const im = new FakeImPort(undefined, 'manual');
  const refresh = new PendingCalls();
  const clock = new SimulatedClock();
  const actor = createActor(composeImConnection({ im, refreshImToken: () => refresh.add('refreshToken', []) }), {
    input: { account: 'me', token: 'token-1', disconnectWhenHidden }, clock,
  });
  const emitted: AnyEventObject[] = [];
  actor.on('*', (e) => emitted.push(e));
  actor.start();
  const sendFailures = () => emitted.filter((e) => e.type === 'sendFailed');
  /** The texts of the sends the port was asked for, in order. */
  const portSends = () => im.pending.argsOf('sendText').map(([to, text, options]) => ({ to, text, options }));
  return { im, refresh, clock, actor, emitted, sendFailures, portSends };
}

describe('imConnection event readings', () => {
  it('requestOf keeps the ext only when there is one', () => {
    expect(requestOf(send('c1'))).toEqual({ to: 'peer', text: 'text c1', idClient: 'c1' });
    expect(requestOf({ ...send('c2'), ext: { privateMsg: 1 } })).toEqual({ to: 'peer', text: 'text c2', idClient: 'c2', ext: { privateMsg: 1 } });
  });

  it('isKnownSend: a client id held or under way is known, another is not', () => {
    const held: SendRequest[] = [{ to: 'peer', text: 'a', idClient: 'c1' }];
    expect(isKnownSend({ held, sending: [] }, 'c1')).toBe(true);
    expect(isKnownSend({ held: [], sending: ['c2'] }, 'c2')).toBe(true);
    expect(isKnownSend({ held, sending: ['c2'] }, 'c3')).toBe(false);
  });
});

describe('Scenario: a send made while the IM is logging in', () => {
  it('[§4] is held during the first login, then started on connect in the order made', async () => {
    const { im, actor, emitted, sendFailures, portSends } = setUp();
    await flush();
    actor.send(send('c1'));
    actor.send({ ...send('c2'), ext: { privateMsg: 1 } });
    actor.send(send('c3'));
    await flush();
    expect(actor.getSnapshot().value).toBe('loggingIn');
    expect(actor.getSnapshot().context.held.map((r) => r.idClient)).toEqual(['c1', 'c2', 'c3']);
    expect(portSends()).toEqual([]);
    expect(sendFailures()).toEqual([]);

    im.pending.next('login').resolve(undefined);
    await flush();
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().matches('connected')).toBe(true);
    expect(context.held).toEqual([]);
    expect(context.sending).toEqual(['c1', 'c2', 'c3']);
    expect(portSends()).toEqual([
      { to: 'peer', text: 'text c1', options: { idClient: 'c1' } },
      { to: 'peer', text: 'text c2', options: { idClient: 'c2', ext: { privateMsg: 1 } } },
      { to: 'peer', text: 'text c3', options: { idClient: 'c3' } },
    ]);
    // Reported as any send made while connected.
    im.pending.next('sendText').resolve(sentMessage('c1'));
    await flush();
    expect(emitted).toContainEqual({ type: 'sendResult', idClient: 'c1', message: sentMessage('c1') });
    expect(actor.getSnapshot().context.sending).toEqual(['c2', 'c3']);
    actor.stop();
  });

  it('a second tap while held is ignored and the message goes out once', async () => {
    const { im, actor, emitted, portSends } = setUp();
    actor.send(send('c1'));
    actor.send(send('c1', 'again'));
    expect(emitted).toEqual([{ type: 'sendIgnored', idClient: 'c1' }]);
    expect(actor.getSnapshot().context.held).toEqual([requestOf(send('c1'))]);
    im.pending.next('login').resolve(undefined);
    await flush();
    expect(portSends()).toHaveLength(1);
    actor.stop();
  });

  it('a tap on a message still under way from before the link dropped is ignored, not held', async () => {
    const { im, actor, emitted } = setUp();
    im.pending.next('login').resolve(undefined);
    await flush();
    actor.send(send('c1'));
    im.emit({ type: 'disconnected', code: ImCode.linkLost });
    await flush();
    expect(actor.getSnapshot().value).toBe('loggingIn');
    actor.send(send('c1'));
    expect(emitted.at(-1)).toEqual({ type: 'sendIgnored', idClient: 'c1' });
    expect(actor.getSnapshot().context.held).toEqual([]);
    actor.stop();
  });

  it('is held across a retry wait and a token refresh, then started on connect', async () => {
    const { im, refresh, clock, actor, portSends, sendFailures } = setUp();
    im.pending.next('login').reject(new ImError(ImCode.serverBusy));
    await flush();
    expect(actor.getSnapshot().value).toBe('waitingToRetry');
    actor.send(send('c1'));
    clock.increment(1000);
    await flush();
    im.pending.next('login').reject(new ImError(ImCode.tokenExpired));
    await flush();
    expect(actor.getSnapshot().value).toBe('refreshingToken');
    actor.send(send('c2'));
    refresh.next('refreshToken').resolve('token-2');
    await flush();
    im.pending.next('login').resolve(undefined);
    await flush();
    expect(portSends().map((s) => s.text)).toEqual(['text c1', 'text c2']);
    expect(sendFailures()).toEqual([]);
    actor.stop();
  });

  it('[§5] is refused with the §5 text, in order, when the service is out of reach; a send in offline fails at once', async () => {
    const { im, actor, sendFailures, portSends } = setUp();
    actor.send(send('c1'));
    actor.send(send('c2'));
    im.pending.next('login').reject(new ImError(ImCode.unreachable));
    await flush();
    expect(actor.getSnapshot().value).toBe('offline');
    expect(sendFailures()).toEqual([notConnected('c1'), notConnected('c2')]);
    expect(actor.getSnapshot().context.held).toEqual([]);
    actor.send(send('c3'));
    expect(sendFailures().at(-1)).toEqual(notConnected('c3'));
    expect(portSends()).toEqual([]);
    actor.stop();
  });

  it('[§4] is refused before the session ends when the login fails for good', async () => {
    const { im, refresh, actor, emitted } = setUp();
    im.pending.next('login').reject(new ImError(ImCode.tokenExpired));
    await flush();
    actor.send(send('c1'));
    refresh.next('refreshToken').reject(new Error('no token'));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(emitted.slice(-2)).toEqual([notConnected('c1'), { type: 'im.sessionEnded', text: null }]);
  });

  it('[§4] is refused before the session ends when the account is kicked', async () => {
    const { im, actor, emitted } = setUp();
    actor.send(send('c1'));
    im.emit({ type: 'kicked' });
    await flush();
    expect(emitted.slice(-2)).toEqual([notConnected('c1'), { type: 'im.sessionEnded', text: TEXT_KICKED }]);
  });

  it('[§4] is refused when a host hides the app, and a send while logged out fails at once', async () => {
    const { actor, sendFailures } = setUp(true);
    actor.send(send('c1'));
    actor.send({ type: 'app.hidden' });
    expect(actor.getSnapshot().value).toBe('loggingOut');
    expect(sendFailures()).toEqual([notConnected('c1')]);
    actor.send(send('c2'));
    expect(sendFailures()).toEqual([notConnected('c1'), notConnected('c2')]);
    actor.stop();
  });

  it('stays held when a user (not a host) hides the app during the login', async () => {
    const { im, actor, portSends } = setUp(false);
    actor.send(send('c1'));
    actor.send({ type: 'app.hidden' });
    im.pending.next('login').resolve(undefined);
    await flush();
    expect(portSends()).toHaveLength(1);
    actor.stop();
  });
});
