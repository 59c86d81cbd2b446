import { describe, expect, it, vi } from 'vitest';
import { ImCode, ImError } from '../../machines/ports/im.port';
import type { ImEvent, ImMessage, ImPort } from '../../machines/ports/im.port';
import { SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-sender';
import { NimCloud, NimDoubleCode, NimDoubleSdk } from './doubles/nim.double';
import { NIM_OTHER_OPTIONS, UNKNOWN_IM_CODE, createNimImPort, toImMessage } from './im.nim';

interface Device {
  port: ImPort;
  sdk: NimDoubleSdk;
  events: ImEvent[];
  loads: () => number;
}

function device(cloud: NimCloud): Device {
  const sdk = new NimDoubleSdk(cloud);
  let loads = 0;
  const port = createNimImPort({ appkey: 'app-key', loadSdk: async () => { loads += 1; return sdk; } });
  const events: ImEvent[] = [];
  port.subscribe((e) => events.push(e));
  return { port, sdk, events, loads: () => loads };
}

function world() {
  const cloud = new NimCloud();
  cloud.register('alice', 'ta');
  cloud.register('bob', 'tb');
  cloud.register('carol', 'tc');
  return { cloud, alice: device(cloud), bob: device(cloud), carol: device(cloud) };
}

async function loggedIn() {
  const w = world();
  await w.alice.port.login('alice', 'ta');
  await w.bob.port.login('bob', 'tb');
  w.alice.events.length = 0;
  w.bob.events.length = 0;
  return w;
}

const messagesOf = (events: ImEvent[]): ImMessage[] => events.flatMap((e) => (e.type === 'message' ? [e.message] : []));
const lastOf = <T extends ImEvent['type']>(events: ImEvent[], type: T) =>
  events.filter((e): e is Extract<ImEvent, { type: T }> => e.type === type).at(-1);

async function rejection(promise: Promise<unknown>): Promise<ImError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(ImError);
  return error as ImError;
}

describe('NetEase IM adapter: login [§4 Message service]', () => {
  it('loads the SDK lazily, once, and creates the V2 instance with telemetry off', async () => {
    const { alice } = world();
    expect(alice.loads()).toBe(0);
    await alice.port.login('alice', 'ta');
    await alice.port.logout();
    await alice.port.login('alice', 'ta');
    expect(alice.loads()).toBe(1);
    expect(alice.sdk.instances).toHaveLength(1);
    const { options, otherOptions } = alice.sdk.instances[0]!;
    expect(options).toEqual({ appkey: 'app-key', apiVersion: 'v2' });
    expect(otherOptions).toEqual(NIM_OTHER_OPTIONS);
    expect(otherOptions?.reporterConfig).toEqual({ enableCompass: false, isDataReportEnable: false });
    expect(otherOptions?.abtestConfig?.isAbtestEnable).toBe(false);
    expect(alice.sdk.nim.V2NIMLoginService.calls.login.at(-1)).toEqual({ account: 'alice', token: 'ta', option: { forceMode: false } });
    await expect(alice.port.ping()).resolves.toBeUndefined();
  });

  it.each([ImCode.tokenExpired, ImCode.tokenInvalid, ImCode.linkLost, ImCode.loginTimeout, ImCode.serverBusy, ImCode.loginConflict])(
    '[§8] a login failing with %i is surfaced as ImError with that code',
    async (code) => {
      const { cloud, alice } = world();
      cloud.failNextLogin('alice', code);
      const error = await rejection(alice.port.login('alice', 'ta'));
      expect(error.code).toBe(code);
      await expect(alice.port.ping()).rejects.toMatchObject({ code: ImCode.linkLost });
      // the failure is the login's answer, not a later event
      expect(alice.events).toEqual([]);
      await alice.port.login('alice', 'ta');
      await expect(alice.port.ping()).resolves.toBeUndefined();
    },
  );

  it('a wrong token is refused with the SDK code', async () => {
    const { alice } = world();
    expect((await rejection(alice.port.login('alice', 'wrong'))).code).toBe(NimDoubleCode.invalidToken);
  });

  it('an SDK that cannot be loaded fails the login with ImError, and the next login tries again', async () => {
    const cloud = new NimCloud();
    cloud.register('alice', 'ta');
    const sdk = new NimDoubleSdk(cloud);
    const loadSdk = vi.fn<() => Promise<NimDoubleSdk>>()
      .mockRejectedValueOnce(new Error('The SDK could not be loaded after 3 attempts: offline'))
      .mockResolvedValue(sdk);
    const port = createNimImPort({ appkey: 'k', loadSdk });
    const error = await rejection(port.login('alice', 'ta'));
    expect(error.code).toBe(UNKNOWN_IM_CODE);
    expect(error.message).toMatch(/could not be loaded/);
    await port.login('alice', 'ta');
    expect(loadSdk).toHaveBeenCalledTimes(2);
  });

  it('calls before login reject with the link-lost code', async () => {
    const { alice } = world();
    expect((await rejection(alice.port.sendText('bob', 'hi'))).code).toBe(ImCode.linkLost);
    expect((await rejection(alice.port.conversations(10))).code).toBe(ImCode.linkLost);
    expect((await rejection(alice.port.ping())).code).toBe(ImCode.linkLost);
  });
});

describe('NetEase IM adapter: messages', () => {
  it('sends text both ways and maps every field', async () => {
    const { alice, bob } = await loggedIn();
    const sent = await alice.port.sendText('bob', 'hello bob', { ext: { extensionType: 'privateMsg', data: { n: 1 } } });
    expect(sent).toEqual({
      idClient: expect.any(String),
      idServer: expect.any(String),
      from: 'alice',
      to: 'bob',
      sessionId: 'bob',
      scene: 'p2p',
      flow: 'out',
      type: 'text',
      text: 'hello bob',
      ext: JSON.stringify({ extensionType: 'privateMsg', data: { n: 1 } }),
      time: expect.any(Number),
      status: 'sent',
    });
    expect(sent.idClient).not.toBe('');
    expect(sent.idServer).not.toBe('');
    const [received] = messagesOf(bob.events);
    expect(received).toEqual({ ...sent, sessionId: 'alice', flow: 'in' });
    // what went to the SDK
    const call = alice.sdk.nim.V2NIMMessageService.sent[0]!;
    expect(call.conversationId).toBe('alice|1|bob');
    expect(call.message.serverExtension).toBe(sent.ext);

    const reply = await bob.port.sendText('alice', 'hi alice', { ext: '{"extensionType":"friendMsg"}' });
    expect(reply).toMatchObject({ from: 'bob', to: 'alice', sessionId: 'alice', flow: 'out', text: 'hi alice', ext: '{"extensionType":"friendMsg"}' });
    expect(messagesOf(alice.events)).toEqual([{ ...reply, sessionId: 'bob', flow: 'in' }]);
  });

  it('sends a custom message: the attach object arrives as an object', async () => {
    const { alice, bob } = await loggedIn();
    const attach = { attachType: 4, giftImg: 'https://cdn/gift.png', giftNum: 3, giftId: 12 };
    const sent = await alice.port.sendCustom('bob', attach);
    expect(sent).toMatchObject({ type: 'custom', attach, flow: 'out', status: 'sent' });
    expect(sent.text).toBeUndefined();
    expect(alice.sdk.nim.V2NIMMessageService.sent[0]!.message.attachment).toEqual({ raw: JSON.stringify(attach) });
    expect(messagesOf(bob.events)).toEqual([{ ...sent, sessionId: 'alice', flow: 'in' }]);
  });

  it('keeps a given idClient, and a retry after a failure resends the same SDK message once', async () => {
    const { cloud, alice, bob } = await loggedIn();
    cloud.failNextSend('alice', NimDoubleCode.disconnect);
    const error = await rejection(alice.port.sendText('bob', 'once', { idClient: 'fixed-1' }));
    expect(error.code).toBe(NimDoubleCode.disconnect);
    const sent = await alice.port.sendText('bob', 'once', { idClient: 'fixed-1' });
    expect(sent.idClient).toBe('fixed-1');
    const calls = alice.sdk.nim.V2NIMMessageService.sent;
    expect(calls).toHaveLength(2);
    expect(calls[1]!.message).toBe(calls[0]!.message);
    // a second retry of a message the server already stored is not delivered twice
    await alice.port.sendText('bob', 'once', { idClient: 'fixed-1' });
    expect(messagesOf(bob.events).map((m) => m.idClient)).toEqual(['fixed-1']);
  });

  it.each([NimDoubleCode.accountInBlockList, ImCode.refused])('[§5] a send the peer refuses (SDK code %i) rejects with 7101', async (code) => {
    const { cloud, alice, bob } = await loggedIn();
    cloud.refusalCode = code;
    cloud.block('bob', 'alice');
    const error = await rejection(alice.port.sendText('bob', 'let me in'));
    expect(error.code).toBe(ImCode.refused);
    expect((await rejection(alice.port.sendCustom('bob', { attachType: 4 }))).code).toBe(ImCode.refused);
    expect(messagesOf(bob.events)).toEqual([]);
  });

  it('delivers messages sent while the peer was offline at its next login', async () => {
    const { alice, bob } = await loggedIn();
    await bob.port.logout();
    const sent = await alice.port.sendText('bob', 'while you were away');
    expect(messagesOf(bob.events)).toEqual([]);
    await bob.port.login('bob', 'tb');
    expect(messagesOf(bob.events)).toEqual([{ ...sent, sessionId: 'alice', flow: 'in' }]);
    expect(lastOf(bob.events, 'unread')).toEqual({ type: 'unread', total: 1 });
  });

  it('a message the SDK refuses to create (empty text) rejects with its code', async () => {
    const { alice } = await loggedIn();
    expect((await rejection(alice.port.sendText('bob', ''))).code).toBe(NimDoubleCode.invalidParameter);
  });

  it('a message this account sent from another device is outgoing', () => {
    const m = toImMessage({
      messageClientId: 'c', messageServerId: 's', createTime: 5, senderId: 'alice', receiverId: 'bob', conversationType: 1,
      conversationId: 'alice|1|bob', isSelf: true, sendingState: 1, messageType: 0, text: 'from my phone', messageStatus: { errorCode: 200 },
    });
    expect(m).toMatchObject({ flow: 'out', sessionId: 'bob', from: 'alice', to: 'bob', text: 'from my phone', status: 'sent' });
  });

  it('maps file attachments without the File and a failed sending state', () => {
    const file = { name: 'x' };
    const m = toImMessage({
      messageClientId: 'c', messageServerId: 's', createTime: 5, senderId: 'bob', receiverId: 'alice',
      conversationType: 1, conversationId: 'alice|1|bob', isSelf: false, sendingState: 2, messageType: 1,
      attachment: { url: 'https://img/x.png', size: 10, ext: 'png', name: 'x.png', sceneName: 'im', uploadState: 1, width: 4, height: 3, file } as never,
      messageStatus: { errorCode: 200 },
    });
    expect(m).toEqual({
      idClient: 'c', idServer: 's', from: 'bob', to: 'alice', sessionId: 'bob', scene: 'p2p', flow: 'in', type: 'image', time: 5,
      status: 'failed', attach: { url: 'https://img/x.png', size: 10, ext: 'png', name: 'x.png', sceneName: 'im', uploadState: 1, width: 4, height: 3 },
    });
  });
});

describe('NetEase IM adapter: conversations, unread, history', () => {
  it('lists conversations newest first with unread counts and last message; the total unread is pushed', async () => {
    const { alice, bob, carol } = await loggedIn();
    await carol.port.login('carol', 'tc');
    await alice.port.sendText('bob', 'one');
    await alice.port.sendText('bob', 'two');
    const fromCarol = await carol.port.sendCustom('bob', { attachType: 15, num: 2 });
    expect(lastOf(bob.events, 'unread')).toEqual({ type: 'unread', total: 3 });
    expect(lastOf(bob.events, 'conversation')?.conversation).toMatchObject({ id: 'bob|1|carol', to: 'carol', unread: 1 });

    const list = await bob.port.conversations(10);
    expect(list.map((c) => [c.id, c.to, c.unread])).toEqual([['bob|1|carol', 'carol', 1], ['bob|1|alice', 'alice', 2]]);
    expect(list[0]!.lastMsg).toEqual({ ...fromCarol, sessionId: 'carol', flow: 'in' });
    expect(list[1]!.lastMsg).toMatchObject({ from: 'alice', to: 'bob', flow: 'in', type: 'text', text: 'two', status: 'sent' });
    expect(list[0]!.updateTime).toBeGreaterThan(list[1]!.updateTime);
    expect(await bob.port.conversations(1)).toHaveLength(1);
  });

  it('markRead clears one conversation (by conversation id or by peer) and pushes the new total', async () => {
    const { alice, bob, carol } = await loggedIn();
    await carol.port.login('carol', 'tc');
    await alice.port.sendText('bob', 'one');
    await carol.port.sendText('bob', 'two');
    await bob.port.markRead('bob|1|alice');
    expect(lastOf(bob.events, 'unread')).toEqual({ type: 'unread', total: 1 });
    await bob.port.markRead('carol');
    expect(lastOf(bob.events, 'unread')).toEqual({ type: 'unread', total: 0 });
    expect((await bob.port.conversations(10)).map((c) => c.unread)).toEqual([0, 0]);
    expect((await rejection(bob.port.markRead('nobody'))).code).toBe(NimDoubleCode.conversationNotExist);
  });

  it('history is newest first, limited, and pages with `before`', async () => {
    const { alice, bob } = await loggedIn();
    const a = await alice.port.sendText('bob', 'a');
    const b = await bob.port.sendText('alice', 'b');
    const c = await alice.port.sendText('bob', 'c');
    const page1 = await alice.port.history('bob', { limit: 2 });
    expect(page1).toEqual([c, { ...b, sessionId: 'bob', flow: 'in' }]);
    const page2 = await alice.port.history('bob', { limit: 2, before: page1[1]!.time });
    expect(page2).toEqual([a]);
    expect(alice.sdk.nim.V2NIMMessageService.sent).toHaveLength(2);
    const seenByBob = await bob.port.history('alice', { limit: 10 });
    expect(seenByBob.map((m) => [m.text, m.flow])).toEqual([['c', 'in'], ['b', 'out'], ['a', 'in']]);
  });

  it('clearHistory empties only this side', async () => {
    const { alice, bob } = await loggedIn();
    await alice.port.sendText('bob', 'a');
    await alice.port.clearHistory('bob');
    expect(await alice.port.history('bob', { limit: 10 })).toEqual([]);
    expect(await bob.port.history('alice', { limit: 10 })).toHaveLength(1);
  });
});

describe('NetEase IM adapter: notifications [§4 System messages]', () => {
  it('sends a custom notification and the peer receives its raw content', async () => {
    const { alice, bob } = await loggedIn();
    const content = { attachType: -3, type: 0, channelId: 'ch-1' };
    await alice.port.sendNotification('bob', content);
    expect(alice.sdk.nim.V2NIMNotificationService.sent[0]).toMatchObject({ conversationId: 'alice|1|bob', content: JSON.stringify(content) });
    const note = lastOf(bob.events, 'notification')?.notification;
    expect(note).toEqual({ idServer: expect.any(String), from: 'alice', to: 'bob', time: expect.any(Number), content: JSON.stringify(content) });
    expect(JSON.parse(note!.content as string)).toEqual(content);
    expect(messagesOf(bob.events)).toEqual([]);
  });

  it('a notification to an offline peer arrives at its next login', async () => {
    const { alice, bob } = await loggedIn();
    await bob.port.logout();
    await alice.port.sendNotification('bob', { attachType: 99, paid: true });
    await bob.port.login('bob', 'tb');
    expect(lastOf(bob.events, 'notification')?.notification.from).toBe('alice');
  });
});

describe('NetEase IM adapter: who sent a system message [§4 System messages]', () => {
  it('gives the sender NetEase stamps: a client\'s forged 44 is from that client, the server API\'s is from the system sender', async () => {
    const { cloud, alice, bob } = await loggedIn();
    // NetEase lets a client send any custom notification; it cannot choose the sender.
    await alice.port.sendNotification('bob', { attachType: 44, code: 3 });
    expect(lastOf(bob.events, 'notification')?.notification).toMatchObject({ from: 'alice', to: 'bob' });
    // The server sends through NetEase's server API, as the system sender.
    cloud.notify(SYSTEM_SENDER_ACCID, 'bob', JSON.stringify({ attachType: 44, code: 3 }));
    expect(lastOf(bob.events, 'notification')?.notification).toMatchObject({ from: SYSTEM_SENDER_ACCID, to: 'bob' });
  });
});

describe('NetEase IM adapter: link events [§4 Message service]', () => {
  it('a login of the same account elsewhere gives `kicked`, and the heartbeat then fails', async () => {
    const { cloud, alice } = await loggedIn();
    const elsewhere = device(cloud);
    await elsewhere.port.login('alice', 'ta');
    expect(alice.events).toEqual([{ type: 'kicked' }]);
    expect((await rejection(alice.port.ping())).code).toBe(ImCode.linkLost);
    await expect(elsewhere.port.ping()).resolves.toBeUndefined();
  });

  it('a dropped link gives `disconnected` with the SDK code; a new login starts clean', async () => {
    const { cloud, alice } = await loggedIn();
    cloud.dropLink('alice', ImCode.linkLost);
    expect(alice.events).toEqual([{ type: 'disconnected', code: ImCode.linkLost }]);
    expect((await rejection(alice.port.ping())).code).toBe(ImCode.linkLost);
    const logouts = alice.sdk.nim.V2NIMLoginService.calls.logout;
    await alice.port.login('alice', 'ta');
    expect(alice.sdk.nim.V2NIMLoginService.calls.logout).toBe(logouts + 1);
    await expect(alice.port.ping()).resolves.toBeUndefined();
  });

  it('a reconnect the SDK gives up on (token expired) gives `disconnected` with that code', async () => {
    const { cloud, alice } = await loggedIn();
    cloud.failReconnect('alice', ImCode.tokenExpired);
    expect(alice.events).toEqual([{ type: 'disconnected', code: ImCode.tokenExpired }]);
    await alice.port.login('alice', 'ta');
    await expect(alice.port.ping()).resolves.toBeUndefined();
  });

  it('logout stops the session: no link events, later calls reject', async () => {
    const { cloud, alice } = await loggedIn();
    await alice.port.logout();
    expect(cloud.isOnline('alice')).toBe(false);
    expect(alice.sdk.nim.V2NIMLoginService.getLoginStatus()).toBe(0);
    expect((await rejection(alice.port.sendText('bob', 'x'))).code).toBe(ImCode.linkLost);
    await alice.port.logout();
    expect(alice.events).toEqual([]);
  });

  it('an unsubscribed listener hears nothing more', async () => {
    const { alice, bob } = await loggedIn();
    const heard: ImEvent[] = [];
    const off = bob.port.subscribe((e) => heard.push(e));
    await alice.port.sendText('bob', 'one');
    const count = heard.length;
    off();
    await alice.port.sendText('bob', 'two');
    expect(count).toBeGreaterThan(0);
    expect(heard).toHaveLength(count);
  });
});
