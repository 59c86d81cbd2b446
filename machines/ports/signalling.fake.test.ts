/** The signalling contract against the in-memory fake, and the fake's manual mode. */
import { describe, expect, it } from 'vitest';
import { SignalAction } from './signalling.port';
import { FakeSignallingNetwork, FakeSignallingPort } from './signalling.fake';
import { registerSignallingContract } from './signalling.contract';

registerSignallingContract('in-memory fake', () => {
  const network = new FakeSignallingNetwork();
  const client = (account: string) => {
    network.register(account, `rtm-${account}`);
    return { port: new FakeSignallingPort(network), account, token: `rtm-${account}` };
  };
  return {
    a: client('alice'),
    b: client('bob'),
    newPort: () => new FakeSignallingPort(network),
    dropLink: (account) => network.dropLink(account),
    dispose: () => undefined,
  };
});

describe('FakeSignallingPort manual mode', () => {
  it('waits for the test to settle login, logout and send', async () => {
    const port = new FakeSignallingPort(new FakeSignallingNetwork(), 'manual');
    const seen: string[] = [];
    port.subscribe((e) => seen.push(e.type));
    const login = port.login('alice', 't');
    expect(seen).toEqual([]);
    port.pending.next('login').resolve(undefined);
    await login;
    expect(seen).toEqual(['connected']);

    const send = port.send('bob', { action: SignalAction.videoCall, channelId: 'c1' });
    const call = port.pending.next('send');
    expect(call.args).toEqual(['bob', { action: SignalAction.videoCall, channelId: 'c1' }]);
    call.reject(new Error('peer offline'));
    await expect(send).rejects.toThrow('peer offline');

    const logout = port.logout();
    port.pending.next('logout').resolve(undefined);
    await logout;
  });

  it('counts listeners and emits any event', () => {
    const port = new FakeSignallingPort();
    const stop = port.subscribe(() => undefined);
    expect(port.listenerCount).toBe(1);
    stop();
    expect(port.listenerCount).toBe(0);
  });
});
