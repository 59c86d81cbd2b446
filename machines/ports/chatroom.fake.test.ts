/** The chat-room contract against the in-memory fake, and the fake's manual mode. */
import { describe, expect, it } from 'vitest';
import { FakeChatroomNetwork, FakeChatroomPort } from './chatroom.fake';
import { registerChatroomContract } from './chatroom.contract';

registerChatroomContract('in-memory fake', () => {
  const network = new FakeChatroomNetwork();
  const client = (account: string, nick: string) => {
    const avatar = `/avatars/${account}.svg`;
    network.register(account, `im-${account}`, { nick, avatar });
    return { port: new FakeChatroomPort(network), entry: { account, token: `im-${account}`, nick, avatar } };
  };
  return {
    owner: client('host', 'Sofia'),
    viewer: client('alice', 'Alice'),
    other: client('bob', 'Bob'),
    newPort: () => new FakeChatroomPort(network),
    openRoom: (roomId, owner) => network.open(roomId, owner),
    closeRoom: (roomId) => network.close(roomId),
    post: (roomId, message) => { network.post(roomId, message); },
    dropLink: (account) => network.dropLink(account),
    dispose: () => undefined,
  };
});

describe('FakeChatroomPort manual mode', () => {
  it('waits for the test to settle each call', async () => {
    const port = new FakeChatroomPort(new FakeChatroomNetwork(), 'manual');
    const enter = port.enter('r1', { account: 'a', token: 't', nick: 'A' });
    port.pending.next('enter').resolve(undefined);
    await enter;
    expect(port.entered).toEqual(['r1']);
    const members = port.members('r1', 500);
    expect(port.pending.next('members').args).toEqual(['r1', 500]);
    port.pending.next('members').resolve([]);
    await expect(members).resolves.toEqual([]);
  });

  it('delivers emitted events to the room\'s subscribers only', () => {
    const port = new FakeChatroomPort();
    const seen: string[] = [];
    port.subscribe('r1', (e) => seen.push(`r1:${e.type}`));
    port.subscribe('r2', (e) => seen.push(`r2:${e.type}`));
    expect(port.listenerCount()).toBe(2);
    port.emit('r1', { type: 'memberExit', account: 'x' });
    expect(seen).toEqual(['r1:memberExit']);
  });
});
