/** The chat contract against the in-memory fake (blocks looked up through the profiles fake), and the fake's manual mode. */
import { describe, expect, it } from 'vitest';
import { FakeChatApiPort, FakeChatServer } from './chat.fake';
import { registerChatContract } from './chat.contract';
import { FakeProfilesPort } from './profiles.fake';

registerChatContract('in-memory fake', () => {
  const server = new FakeChatServer();
  server.register('yx-host', { host: true });
  server.register('yx-payer', { diamonds: 1000 });
  server.register('yx-broke', { diamonds: 0 });
  const payer = new FakeChatApiPort(server, 'yx-payer');
  const payerProfiles = new FakeProfilesPort('auto', {
    profiles: { 'yx-host': { nickname: 'Sofia', icon: '', onlineStatus: 3 } },
    isBlocked: (peer) => server.isBlocked('yx-payer', peer),
  });
  return {
    host: new FakeChatApiPort(server, 'yx-host'),
    hostAccount: 'yx-host',
    payer,
    payerAccount: 'yx-payer',
    broke: new FakeChatApiPort(server, 'yx-broke'),
    brokeAccount: 'yx-broke',
    unknownAccount: 'yx-nobody',
    payerBlocks: async (peer) => (await payerProfiles.lookup([peer]))[peer]?.blocked === true,
    loseNextAnswerToPayer: () => payer.loseNextAnswer(),
    dispose: () => {},
  };
});

describe('FakeChatApiPort', () => {
  it('manual mode: waits for the test, under the names the session\'s tests settle', async () => {
    const port = new FakeChatApiPort(new FakeChatServer(), 'me', 'manual');
    const blocked = port.setBlocked('yx-a', true);
    const stored = port.storeSecret({ to: 'yx-a', price: 5, content: 'hi' });
    const opened = port.openSecret(3, { idempotencyKey: 'k-0123456789abcdef' });
    expect(port.pending.next('openSecret').args).toEqual([3, { idempotencyKey: 'k-0123456789abcdef' }]);
    port.pending.next('setBlocked').resolve(undefined);
    port.pending.next('storeSecret').resolve({ extensionType: 'privateMsg', data: { id: 3, price: 5 } });
    port.pending.next('openSecret').resolve({ id: 3, price: 5, unlocked: true, content: 'hi', mediaList: [], balance: 0 });
    await blocked;
    expect(await stored).toEqual({ extensionType: 'privateMsg', data: { id: 3, price: 5 } });
    expect((await opened).unlocked).toBe(true);
  });

  it('refuses a secret from someone who is not a host, and to someone who blocked the host', async () => {
    const server = new FakeChatServer();
    server.register('yx-host', { host: true });
    server.register('yx-user', { diamonds: 10 });
    await expect(new FakeChatApiPort(server, 'yx-user').storeSecret({ to: 'yx-host', price: 1, content: 'x' })).rejects.toThrow(/hosts/);
    await new FakeChatApiPort(server, 'yx-user').setBlocked('yx-host', true);
    await expect(new FakeChatApiPort(server, 'yx-host').storeSecret({ to: 'yx-user', price: 1, content: 'x' })).rejects.toThrow(/accept/);
  });
});
