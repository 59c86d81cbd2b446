import { describe, expect, it, vi } from 'vitest';
import type { ChatroomEntry, ChatroomEvent, ChatroomPort } from '../../machines/ports/chatroom.port';
import { ImError } from '../../machines/ports/im.port';
import { CHATROOM_OTHER_PARAMS, createNimChatroomPort } from './chatroom.nim';
import { ChatroomCloud, ChatroomDoubleCode, ChatroomDoubleSdk } from './doubles/chatroom.double';

const ROOM = 'room-1';

interface Device {
  port: ChatroomPort;
  sdk: ChatroomDoubleSdk;
  addresses: ReturnType<typeof vi.fn<(roomId: string, account: string) => Promise<string[]>>>;
  loads: () => number;
  events: ChatroomEvent[];
}

function device(cloud: ChatroomCloud, roomId = ROOM): Device {
  const sdk = new ChatroomDoubleSdk(cloud);
  let loads = 0;
  const addresses = vi.fn(async (_roomId: string, _account: string) => [cloud.validAddress]);
  const port = createNimChatroomPort({
    appkey: 'app-key',
    loadSdk: async () => { loads += 1; return sdk; },
    chatroomAddresses: addresses,
  });
  const events: ChatroomEvent[] = [];
  port.subscribe(roomId, (e) => events.push(e));
  return { port, sdk, addresses, loads: () => loads, events };
}

const entry = (account: string, extra: Partial<ChatroomEntry> = {}): ChatroomEntry => ({
  account, token: `t-${account}`, nick: `Nick ${account}`, ...extra,
});

function world() {
  const cloud = new ChatroomCloud();
  for (const a of ['host', 'u1', 'u2']) cloud.register(a, `t-${a}`);
  cloud.createRoom(ROOM, 'host');
  return { cloud, host: device(cloud), u1: device(cloud), u2: device(cloud) };
}

async function inRoom() {
  const w = world();
  await w.host.port.enter(ROOM, entry('host'));
  await w.u1.port.enter(ROOM, entry('u1', { avatar: 'https://img/u1.png', ext: { isVip: true, userLevel: 3 } }));
  w.host.events.length = 0;
  w.u1.events.length = 0;
  return w;
}

async function rejection(promise: Promise<unknown>): Promise<ImError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ImError);
  return error as ImError;
}

const ofType = <T extends ChatroomEvent['type']>(events: ChatroomEvent[], type: T) =>
  events.filter((e): e is Extract<ChatroomEvent, { type: T }> => e.type === type);

describe('NetEase chat-room adapter: enter and leave', () => {
  it('enters through linkProvider fed by chatroomAddresses, with the profile, telemetry off, SDK loaded lazily once', async () => {
    const { host, u1 } = world();
    expect(u1.loads()).toBe(0);
    await host.port.enter(ROOM, entry('host'));
    await u1.port.enter(ROOM, entry('u1', { avatar: 'https://img/u1.png', ext: { isVip: true, userLevel: 3 } }));
    expect(u1.addresses).toHaveBeenCalledWith(ROOM, 'u1');
    expect(u1.addresses).toHaveBeenCalledTimes(1);
    const [created] = u1.sdk.created;
    expect(created!.initParams).toEqual({ appkey: 'app-key' });
    expect(created!.otherParams).toEqual(CHATROOM_OTHER_PARAMS);
    expect(created!.otherParams?.reporterConfig).toEqual({ enableCompass: false, isDataReportEnable: false });
    const { roomId, params } = created!.client.enterCalls[0]!;
    expect(roomId).toBe(ROOM);
    expect(params).toMatchObject({
      accountId: 'u1', token: 't-u1', roomNick: 'Nick u1', roomAvatar: 'https://img/u1.png', serverExtension: JSON.stringify({ isVip: true, userLevel: 3 }),
    });
    expect(typeof params.linkProvider).toBe('function');
    await u1.port.leave(ROOM);
    await u1.port.enter(ROOM, entry('u1'));
    expect(u1.loads()).toBe(1);
  });

  it('no usable link address: the entry fails with the SDK code and its client is destroyed', async () => {
    const { u1 } = world();
    u1.addresses.mockResolvedValueOnce([]);
    expect((await rejection(u1.port.enter(ROOM, entry('u1')))).code).toBe(ChatroomDoubleCode.linkUnavailable);
    expect(u1.sdk.destroyed).toEqual([1]);
    expect(u1.sdk.live).toEqual([]);
    expect(u1.sdk.created[0]!.client.totalListeners).toBe(0);
  });

  it.each([
    ['a wrong token', entry('u1', { token: 'nope' }), ROOM, ChatroomDoubleCode.invalidToken],
    ['an unknown room', entry('u1'), 'no-room', ChatroomDoubleCode.roomNotExist],
  ])('%s is refused with the SDK code', async (_name, e, roomId, code) => {
    const { u1 } = world();
    expect((await rejection(u1.port.enter(roomId, e))).code).toBe(code);
  });

  it('one client per room: a second room has its own client, a re-entry replaces the old one', async () => {
    const { cloud, u1 } = world();
    cloud.createRoom('room-2', 'host');
    await u1.port.enter(ROOM, entry('u1'));
    await u1.port.enter('room-2', entry('u1'));
    expect(u1.sdk.live.map((c) => c.roomId)).toEqual([ROOM, 'room-2']);
    await u1.port.enter(ROOM, entry('u1'));
    expect(u1.sdk.destroyed).toEqual([1]);
    expect(u1.sdk.live.map((c) => c.roomId)).toEqual(['room-2', ROOM]);
  });

  it('leave exits and destroys the client, detaches every listener; others see the exit', async () => {
    const { cloud, host, u1 } = await inRoom();
    const client = u1.sdk.live[0]!;
    await u1.port.leave(ROOM);
    expect(u1.sdk.destroyed).toEqual([client.getInstanceId()]);
    expect(client.totalListeners).toBe(0);
    expect(ofType(host.events, 'memberExit')).toEqual([{ type: 'memberExit', account: 'u1' }]);
    expect(cloud.onlineCount(ROOM)).toBe(1);
    await expect(u1.port.send(ROOM, { text: 'still here?' })).rejects.toThrow(/Not in chat room/);
    await expect(u1.port.leave(ROOM)).resolves.toBeUndefined();
  });
});

describe('NetEase chat-room adapter: messages', () => {
  it('sends text both ways with sender, nick and time', async () => {
    const { host, u1 } = await inRoom();
    const sent = await u1.port.send(ROOM, { text: 'hello host' });
    expect(sent).toEqual({ idServer: expect.any(String), roomId: ROOM, from: 'u1', fromNick: 'Nick u1', text: 'hello host', time: expect.any(Number) });
    expect(ofType(host.events, 'message')).toEqual([{ type: 'message', message: sent }]);
    const reply = await host.port.send(ROOM, { text: 'welcome' });
    expect(ofType(u1.events, 'message')).toEqual([{ type: 'message', message: reply }]);
    expect(reply.from).toBe('host');
  });

  it('sends a custom payload (gift) that arrives as an object', async () => {
    const { host, u1 } = await inRoom();
    const attach = { giftImg: 'https://cdn/g.png', giftNum: 2, isVip: true, userLevel: 3 };
    const sent = await u1.port.send(ROOM, { attach });
    expect(sent.attach).toEqual(attach);
    expect(sent.text).toBeUndefined();
    expect(ofType(host.events, 'message')[0]!.message.attach).toEqual(attach);
  });

  it('[§3] what the server posts through the server API is marked fromServer; a client\'s own message never is, whatever it claims', async () => {
    const { cloud, host, u1 } = await inRoom();
    const attach = { giftId: 14, giftImg: '/gifts/castle.svg', giftNum: 99 };
    cloud.serverPost(ROOM, 'u1', 'Nick u1', attach);
    expect(ofType(host.events, 'message').at(-1)!.message).toMatchObject({ from: 'u1', attach, fromServer: true });
    expect(ofType(u1.events, 'message').at(-1)!.message).toMatchObject({ from: 'u1', attach, fromServer: true });
    const forged = await u1.port.send(ROOM, { attach });
    expect(forged.fromServer).toBeUndefined();
    expect(ofType(host.events, 'message').at(-1)!.message.fromServer).toBeUndefined();
  });

  it('history asks for the limit (5) of chat lines, newest first, without notices', async () => {
    const { cloud, u1 } = world();
    for (let i = 1; i <= 8; i += 1) cloud.seed(ROOM, 'host', `line ${i}`);
    await u1.port.enter(ROOM, entry('u1'));
    const history = await u1.port.history(ROOM, 5);
    expect(history.map((m) => m.text)).toEqual(['line 8', 'line 7', 'line 6', 'line 5', 'line 4']);
    expect(u1.sdk.live[0]!.V2NIMChatroomService.historyQueries).toEqual([{ direction: 0, limit: 5, messageTypes: [0, 100] }]);
  });
});

describe('NetEase chat-room adapter: members [§4 Live state]', () => {
  it('member query honours the limit (500) over pages of online members', async () => {
    const { cloud, u1 } = world();
    for (let i = 0; i < 520; i += 1) cloud.seedMember(ROOM, `m${i}`, true);
    for (let i = 0; i < 5; i += 1) cloud.seedMember(ROOM, `gone${i}`, false);
    await u1.port.enter(ROOM, entry('u1'));
    const members = await u1.port.members(ROOM, 500);
    expect(members).toHaveLength(500);
    expect(members.every((m) => !m.account.startsWith('gone'))).toBe(true);
    const queries = u1.sdk.live[0]!.V2NIMChatroomService.memberQueries;
    expect(queries.map((q) => [q.pageToken, q.limit, q.onlyOnline])).toEqual([['', 200, true], ['200', 200, true], ['400', 100, true]]);
    expect(await u1.port.members(ROOM, 3)).toHaveLength(3);
  });

  it('members map account, nick, avatar, gag and the profile they entered with (SPEC §6 highlights)', async () => {
    const { u1 } = await inRoom();
    const members = await u1.port.members(ROOM, 500);
    expect(members).toEqual([
      { account: 'host', nick: 'Nick host', gagged: false },
      { account: 'u1', nick: 'Nick u1', avatar: 'https://img/u1.png', gagged: false, ext: { isVip: true, userLevel: 3 } },
    ]);
  });

  it('enter and exit of others are reported once each, never as chat lines', async () => {
    const { u1, u2 } = await inRoom();
    await u2.port.enter(ROOM, entry('u2', { avatar: 'https://img/u2.png' }));
    expect(u1.events).toEqual([{ type: 'memberEnter', member: { account: 'u2', nick: 'Nick u2', avatar: 'https://img/u2.png', gagged: false } }]);
    await u2.port.leave(ROOM);
    expect(u1.events.slice(1)).toEqual([{ type: 'memberExit', account: 'u2' }]);
  });

  it('the host gags and ungags: everyone hears it, a gagged member cannot send', async () => {
    const { host, u1 } = await inRoom();
    await host.port.setGagged(ROOM, 'u1', true);
    expect(ofType(u1.events, 'gag')).toEqual([{ type: 'gag', account: 'u1', gagged: true }]);
    expect(ofType(host.events, 'gag')).toEqual([{ type: 'gag', account: 'u1', gagged: true }]);
    expect((await rejection(u1.port.send(ROOM, { text: 'let me talk' }))).code).toBe(ChatroomDoubleCode.memberChatBanned);
    expect((await host.port.members(ROOM, 500)).find((m) => m.account === 'u1')?.gagged).toBe(true);
    await host.port.setGagged(ROOM, 'u1', false);
    expect(ofType(u1.events, 'gag').at(-1)).toEqual({ type: 'gag', account: 'u1', gagged: false });
    await expect(u1.port.send(ROOM, { text: 'thanks' })).resolves.toMatchObject({ text: 'thanks' });
    expect(ofType(u1.events, 'message')).toEqual([]);
  });

  it('a temporary gag is reported like a gag', async () => {
    const { cloud, u1 } = await inRoom();
    cloud.tempGag(ROOM, 'host', 'u1', true);
    cloud.tempGag(ROOM, 'host', 'u1', false);
    expect(ofType(u1.events, 'gag')).toEqual([{ type: 'gag', account: 'u1', gagged: true }, { type: 'gag', account: 'u1', gagged: false }]);
  });

  it('only the room owner may gag', async () => {
    const { u1 } = await inRoom();
    expect((await rejection(u1.port.setGagged(ROOM, 'host', true))).code).toBe(ChatroomDoubleCode.ownerOrManagerRequired);
  });
});

describe('NetEase chat-room adapter: room closed', () => {
  it('the live ends: `closed` with roomClosed, and the client is destroyed', async () => {
    const { cloud, u1 } = await inRoom();
    const client = u1.sdk.live[0]!;
    cloud.closeRoom(ROOM);
    expect(u1.events).toEqual([{ type: 'closed', reason: 'roomClosed' }]);
    expect(u1.sdk.destroyed).toContain(client.getInstanceId());
    expect(client.totalListeners).toBe(0);
  });

  it('removed by a manager: `closed` with kicked', async () => {
    const { cloud, host, u1 } = await inRoom();
    cloud.kick(ROOM, 'u1');
    expect(u1.events).toEqual([{ type: 'closed', reason: 'kicked' }]);
    expect(ofType(host.events, 'memberExit')).toEqual([{ type: 'memberExit', account: 'u1' }]);
  });

  it('subscriptions are per room and end with their unsubscribe', async () => {
    const { cloud, host, u1 } = await inRoom();
    cloud.createRoom('room-2', 'host');
    const other: ChatroomEvent[] = [];
    const off = u1.port.subscribe('room-2', (e) => other.push(e));
    await u1.port.enter('room-2', entry('u1'));
    await host.port.enter('room-2', entry('host'));
    await host.port.send('room-2', { text: 'in room 2' });
    expect(ofType(other, 'message').map((e) => e.message.text)).toEqual(['in room 2']);
    expect(ofType(u1.events, 'message')).toEqual([]);
    off();
    await host.port.send('room-2', { text: 'again' });
    expect(ofType(other, 'message')).toHaveLength(1);
  });
});
