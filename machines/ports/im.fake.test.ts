/** The IM contract against the in-memory fake, and the fake's manual mode. */
import { describe, expect, it } from 'vitest';
import { FakeImNetwork, FakeImPort } from './im.fake';
import { registerImContract } from './im.contract';

registerImContract('in-memory fake', () => {
  const network = new FakeImNetwork();
  const client = (account: string) => {
    network.register(account, `token-${account}`);
    return { port: new FakeImPort(network), account, token: `token-${account}` };
  };
  return {
    a: client('alice'),
    b: client('bob'),
    c: client('carol'),
    newPort: () => new FakeImPort(network),
    dropLink: (account) => network.dropLink(account),
    block: (blocker, blocked) => network.block(blocker, blocked),
    dispose: () => undefined,
  };
});

describe('FakeImPort manual mode', () => {
  it('waits for the test to settle login, ping and sendText', async () => {
    const port = new FakeImPort(new FakeImNetwork(), 'manual');
    const login = port.login('alice', 't');
    expect(port.pending.next('login').args).toEqual(['alice', 't']);
    port.pending.next('login').resolve(undefined);
    await login;
    expect(port.loggedInAs).toBe(null); // manual logins never reach the network
    const ping = port.ping();
    port.pending.next('ping').reject(new Error('dead'));
    await expect(ping).rejects.toThrow('dead');
  });

  it('counts listeners and emits any event', () => {
    const port = new FakeImPort();
    const seen: string[] = [];
    const stop = port.subscribe((e) => seen.push(e.type));
    expect(port.listenerCount).toBe(1);
    port.emit({ type: 'kicked' });
    stop();
    expect(port.listenerCount).toBe(0);
    expect(seen).toEqual(['kicked']);
  });
});
