/** The presence contract against the in-memory fake, and the fake's manual mode. */
import { describe, expect, it } from 'vitest';
import { PresenceCode } from './presence.port';
import { FakePresencePort, FakePresenceServer } from './presence.fake';
import { registerPresenceContract } from './presence.contract';

registerPresenceContract('in-memory fake', () => {
  const graceMs = 100;
  const server = new FakePresenceServer(graceMs);
  server.register('session-alice', 'alice');
  const ports: FakePresencePort[] = [];
  const newPort = (token = 'session-alice') => {
    const port = new FakePresencePort(server, token);
    ports.push(port);
    return port;
  };
  const port = newPort();
  return {
    port,
    newPort: () => newPort(),
    badPort: () => newPort('not-a-session'),
    status: () => server.statusOf('alice'),
    dropLink: () => ports.forEach((p) => p.drop()),
    graceMs,
    dispose: () => server.dispose(),
  };
});

describe('FakePresencePort manual mode', () => {
  it('waits for the test to settle open and send, and records acknowledged codes', async () => {
    const port = new FakePresencePort(new FakePresenceServer(), 'any', 'manual');
    const open = port.open();
    expect(port.isOpen).toBe(false);
    port.pending.next('open').resolve(undefined);
    await open;
    const send = port.send(PresenceCode.foreground);
    expect(port.pending.next('send').args).toEqual([PresenceCode.foreground]);
    port.pending.next('send').resolve(undefined);
    await send;
    expect(port.sent).toEqual([PresenceCode.foreground]);
  });

  it('emits closed on a drop, not on close', () => {
    const port = new FakePresencePort(new FakePresenceServer(), 'any', 'manual');
    const seen: string[] = [];
    port.subscribe((e) => seen.push(e.type));
    expect(port.listenerCount).toBe(1);
    port.emit({ type: 'closed' });
    expect(seen).toEqual(['closed']);
  });
});
