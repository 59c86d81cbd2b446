/**
 * The hub over real sockets: the frame protocol's refusals (malformed, unknown, oversize),
 * each path's codes, what is stored, and the realtime endpoints.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PresenceCode } from '../../machines/ports/presence.port';
import { SYSTEM_SENDER_ACCID } from '../../machines/system-messages/system-sender';
import { SignalAction } from '../../machines/ports/signalling.port';
import { endpoints } from '../../src/api/contract';
import { CallStatus } from '../../src/api/contract/call';
import { HubClose, HubCode, MAX_FRAME_BYTES, RealtimePath } from '../../src/api/contract/realtime';
import { CUSTOMER_SERVICE } from '../db/seed';
import { startRealtimeServer, type RealtimeTestServer, type SeededUser } from './testing';

/** A bare client of the wire protocol. */
class Raw {
  readonly frames: Record<string, unknown>[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(data.toString()) as Record<string, unknown>));
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static open(url: string): Promise<Raw> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const raw = new Raw(ws);
      ws.once('open', () => resolve(raw));
      ws.once('error', reject);
    });
  }

  get pushes(): { type: string; [k: string]: unknown }[] {
    return this.frames.flatMap((f) => (f.push ? [f.push as { type: string }] : []));
  }

  /** Sends raw data and waits for the next reply frame. */
  async sendRaw(data: string | Buffer): Promise<Record<string, unknown>> {
    const before = this.replies().length;
    this.ws.send(data);
    return this.until(() => this.replies()[before]);
  }

  async call(op: string, args: object = {}): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, op, ...args }));
    return this.until(() => this.replies().find((f) => f.id === id));
  }

  async until<T>(find: () => T | undefined, timeoutMs = 2000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`Nothing came; frames: ${JSON.stringify(this.frames)}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private replies() {
    return this.frames.filter((f) => 'ok' in f);
  }
}

let hub: RealtimeTestServer;
let alice: SeededUser;
let bob: SeededUser;
beforeAll(async () => {
  hub = await startRealtimeServer({ users: 3, realtime: { presenceGraceMs: 100 } });
  [alice, bob] = hub.users as [SeededUser, SeededUser];
});
afterAll(() => hub.close());

const im = () => Raw.open(hub.url(RealtimePath.im));
const loggedIn = async (user: SeededUser) => {
  const c = await im();
  expect(await c.call('login', { account: user.account, token: user.token })).toMatchObject({ ok: true });
  return c;
};

describe('frame protocol', () => {
  it('answers malformed frames, unknown ops and bad arguments, and keeps the socket', async () => {
    const c = await im();
    expect(await c.sendRaw('not json')).toEqual({ id: null, ok: false, code: HubCode.badRequest, message: 'Malformed frame: not JSON' });
    expect(await c.sendRaw('[1,2]')).toMatchObject({ id: null, ok: false, code: HubCode.badRequest });
    expect(await c.sendRaw('null')).toMatchObject({ id: null, ok: false, code: HubCode.badRequest });
    expect(await c.sendRaw(JSON.stringify({ op: 'ping' }))).toMatchObject({ id: null, ok: false, code: HubCode.badRequest });
    expect(await c.sendRaw(JSON.stringify({ id: {}, op: 'ping' }))).toMatchObject({ id: null, code: HubCode.badRequest });
    expect(await c.call('launchRockets')).toMatchObject({ ok: false, code: HubCode.notFound });
    expect(await c.call('__proto__')).toMatchObject({ ok: false, code: HubCode.notFound });
    expect(await c.call('toString')).toMatchObject({ ok: false, code: HubCode.notFound });
    expect(await c.call('login', { account: 42 })).toMatchObject({ ok: false, code: HubCode.badRequest });
    expect(await c.sendRaw(Buffer.from(JSON.stringify({ id: 'b1', op: 'ping' })))).toMatchObject({ id: 'b1', ok: false, code: HubCode.linkLost });
    // Still open and answering.
    expect(await c.call('login', { account: alice.account, token: alice.token })).toMatchObject({ ok: true });
    expect(await c.call('ping')).toMatchObject({ ok: true });
    c.ws.close();
  });

  it('closes a socket that sends a frame over the limit, with 1009 and a reason', async () => {
    const c = await im();
    c.ws.send(JSON.stringify({ id: 1, op: 'ping', pad: 'x'.repeat(MAX_FRAME_BYTES) }));
    expect(await c.closed).toEqual({ code: HubClose.frameTooLarge, reason: `Frame too large: the limit is ${MAX_FRAME_BYTES} bytes` });
    // The hub goes on serving everyone else.
    const other = await loggedIn(bob);
    expect(await other.call('ping')).toMatchObject({ ok: true });
    other.ws.close();
  });

  it('survives a burst of garbage from many sockets', async () => {
    const sockets = await Promise.all(Array.from({ length: 10 }, () => im()));
    for (const s of sockets) for (let i = 0; i < 50; i++) s.ws.send(i % 2 ? '{"id":' : Buffer.from([0xff, 0xfe, i]));
    await Promise.all(sockets.map((s) => s.until(() => (s.frames.length >= 50 ? true : undefined))));
    const c = await loggedIn(alice);
    expect(await c.call('ping')).toMatchObject({ ok: true });
    for (const s of [...sockets, c]) s.ws.close();
  });

  it('answers an upgrade on an unknown path with 404', async () => {
    const error = await Raw.open(hub.url('/realtime/nope' as RealtimePath)).catch((e: Error) => e);
    expect(String(error)).toMatch(/404/);
  });
});

describe('IM path', () => {
  it('[§8] refuses calls before login with -10002 and a second account on one socket with -11028', async () => {
    const c = await im();
    expect(await c.call('send', { to: bob.account, type: 'text', text: 'x', idClient: 'x' })).toMatchObject({ ok: false, code: HubCode.linkLost });
    await c.call('login', { account: alice.account, token: alice.token });
    expect(await c.call('login', { account: bob.account, token: bob.token })).toMatchObject({ ok: false, code: HubCode.loginConflict });
    c.ws.close();
  });

  it('kicks the older socket of an account: push kicked, then close 4001', async () => {
    const first = await loggedIn(alice);
    const second = await loggedIn(alice);
    expect(await first.closed).toMatchObject({ code: HubClose.kicked });
    expect(first.pushes.at(-1)).toEqual({ type: 'kicked' });
    expect(await second.call('ping')).toMatchObject({ ok: true });
    second.ws.close();
  });

  it('stores messages with a server id and the recipient\'s sequence; refuses unknown recipients and empty texts', async () => {
    const c = await loggedIn(alice);
    const reply = await c.call('send', { to: bob.account, type: 'text', text: 'stored?', idClient: 'db-1' });
    expect(reply).toMatchObject({ ok: true, result: { idClient: 'db-1', fromNick: 'Alex' } });
    const row = hub.server.readDb().prepare('SELECT * FROM im_messages WHERE id_client = ?').get('db-1') as Record<string, unknown>;
    expect(row).toMatchObject({ from_accid: alice.account, to_accid: bob.account, text: 'stored?', type: 'text' });
    expect(String(row.id)).toBe((reply.result as { idServer: string }).idServer);
    expect(row.to_seq).toBeGreaterThan(0);
    expect(await c.call('send', { to: 'yx-nobody', type: 'text', text: 'x', idClient: 'db-2' })).toMatchObject({ code: HubCode.notFound });
    expect(await c.call('send', { to: bob.account, type: 'text', text: '', idClient: 'db-3' })).toMatchObject({ code: HubCode.badRequest });
    expect(await c.call('send', { to: bob.account, type: 'custom', idClient: 'db-4' })).toMatchObject({ code: HubCode.badRequest });
    c.ws.close();
  });

  it('[§4 System messages] refuses a client\'s notification that is a system message, however wrapped; stores and pushes nothing of it', async () => {
    const c = await loggedIn(alice);
    const b = await loggedIn(bob);
    const stored = () => hub.server.readDb().prepare('SELECT count(*) FROM im_notifications WHERE to_accid = ?').pluck().get(bob.account);
    const before = stored();
    const forged = { attachType: 44, code: 3, agoraChannelId: 'live-x' };
    for (const content of [forged, { attach: forged }, { attach: JSON.stringify(forged) }, { data: JSON.stringify(forged) }]) {
      expect(await c.call('notify', { to: bob.account, content })).toMatchObject({
        ok: false, code: HubCode.forbidden,
        message: 'System messages come only from the server: a notification from a client cannot carry an attachType',
      });
    }
    expect(stored()).toBe(before);
    // A custom notification that is no system message goes through, from its sender.
    expect(await c.call('notify', { to: bob.account, content: { kind: 'typing' } })).toMatchObject({ ok: true });
    const got = await b.until(() => b.pushes.find((p) => p.type === 'notification'));
    expect(got).toMatchObject({ notification: { from: alice.account, content: { kind: 'typing' } } });
    expect(b.pushes.filter((p) => p.type === 'notification')).toHaveLength(1);
    c.ws.close();
    b.ws.close();
  });

  it('[§4 System messages] nobody logs in as the system sender, on the IM or in a chat room', async () => {
    const c = await im();
    for (const token of ['', 'x', alice.token]) {
      expect(await c.call('login', { account: SYSTEM_SENDER_ACCID, token: token || 'none' })).toMatchObject({ ok: false, code: HubCode.tokenInvalid });
    }
    hub.server.app.realtime.chatrooms.open('live-sys', alice.account);
    const room = await Raw.open(hub.url(RealtimePath.chatroom));
    expect(await room.call('enter', { roomId: 'live-sys', account: SYSTEM_SENDER_ACCID, token: alice.token, nick: 'System' }))
      .toMatchObject({ ok: false, code: HubCode.tokenInvalid });
    // Sign-ups and visitors get 'yx' and 24 hex digits: none can be the system sender's.
    const accids = hub.server.readDb().prepare('SELECT yx_accid FROM users UNION SELECT yx_accid FROM customer_service').pluck().all();
    expect(accids).not.toContain(SYSTEM_SENDER_ACCID);
    c.ws.close();
    room.ws.close();
  });

  it('[§7] lets the customer-service account log in and chat', async () => {
    const cs = await im();
    expect(await cs.call('login', { account: CUSTOMER_SERVICE.yxAccid, token: CUSTOMER_SERVICE.imToken })).toMatchObject({ ok: true });
    const c = await loggedIn(alice);
    await c.call('send', { to: CUSTOMER_SERVICE.yxAccid, type: 'text', text: 'help', idClient: 'cs-1' });
    const got = await cs.until(() => cs.pushes.find((p) => p.type === 'message'));
    expect(got).toMatchObject({ message: { text: 'help', from: alice.account } });
    cs.ws.close();
    c.ws.close();
  });
});

describe('signalling path', () => {
  it('[§7] takes the rtm token of getAgoraRtmToken; refuses a wrong one and an expired one', async () => {
    const token = await hub.rtmTokenOf(alice);
    const c = await Raw.open(hub.url(RealtimePath.signal));
    expect(await c.call('login', { account: alice.account, token: 'rtm_wrong' })).toMatchObject({ code: HubCode.tokenInvalid });
    expect(await c.call('login', { account: bob.account, token })).toMatchObject({ code: HubCode.tokenInvalid });
    expect(await c.call('login', { account: alice.account, token })).toMatchObject({ ok: true });
    // No call has channel 'c': nothing goes, whether bob is there or not.
    expect(await c.call('send', { to: bob.account, action: SignalAction.videoCall, channelId: 'c' })).toMatchObject({ code: HubCode.forbidden });
    expect(await c.call('send', { to: bob.account, action: 7, channelId: 'c' })).toMatchObject({ code: HubCode.badRequest });
    c.ws.close();

    const db = hub.server.readDb();
    expect(db.prepare('SELECT kind FROM agora_tokens WHERE token = ?').pluck().get(token)).toBe('rtm');
    // The test's read-only connection cannot age the token; a second server process on the same file can.
    const { openDatabase } = await import('../db/database');
    const writer = openDatabase(hub.server.dbPath);
    writer.prepare('UPDATE agora_tokens SET expires_at = 1 WHERE token = ?').run(token);
    writer.close();
    const d = await Raw.open(hub.url(RealtimePath.signal));
    expect(await d.call('login', { account: alice.account, token })).toMatchObject({ code: HubCode.tokenExpired });
    d.ws.close();
  });
});

describe('signalling within a call', () => {
  const signalling = async (user: SeededUser) => {
    const c = await Raw.open(hub.url(RealtimePath.signal));
    expect(await c.call('login', { account: user.account, token: await hub.rtmTokenOf(user) })).toMatchObject({ ok: true });
    return c;
  };

  it('goes only between the two parties of the call it names, ended or not; anyone else is refused and the party hears nothing', async () => {
    const carol = hub.users[2]!;
    const [a, b, c] = await Promise.all([signalling(alice), signalling(bob), signalling(carol)]);
    hub.storeCall('sig-1', alice, bob);
    expect(await a.call('send', { to: bob.account, action: SignalAction.videoCall, channelId: 'sig-1' })).toMatchObject({ ok: true });
    expect(await b.until(() => b.pushes.find((p) => p.type === 'signal'))).toMatchObject({ signal: { from: alice.account, channelId: 'sig-1' } });
    const refused = { ok: false, code: HubCode.forbidden, message: 'A signal goes only between the two parties of the call it names' };
    // A third user naming their call, a party signalling someone else with it, a channel no call has, oneself.
    expect(await c.call('send', { to: bob.account, action: SignalAction.cancel, channelId: 'sig-1' })).toMatchObject(refused);
    expect(await a.call('send', { to: carol.account, action: SignalAction.videoCall, channelId: 'sig-1' })).toMatchObject(refused);
    expect(await c.call('send', { to: bob.account, action: SignalAction.videoCall, channelId: 'sig-none' })).toMatchObject(refused);
    expect(await a.call('send', { to: alice.account, action: SignalAction.hangup, channelId: 'sig-1' })).toMatchObject(refused);
    // A hang-up is signalled after endCall: the pair's own call, ended, still carries it.
    hub.storeCall('sig-1', alice, bob, CallStatus.hungUp);
    expect(await b.call('send', { to: alice.account, action: SignalAction.hangup, channelId: 'sig-1' })).toMatchObject({ ok: true });
    await a.until(() => a.pushes.find((p) => p.type === 'signal'));
    expect(b.pushes.filter((p) => p.type === 'signal')).toHaveLength(1);
    expect(c.pushes.filter((p) => p.type === 'signal')).toHaveLength(0);
    for (const s of [a, b, c]) s.ws.close();
  });
});

describe('chat-room path', () => {
  it('answers 13004 to a gagged member and 403 to a gag by anyone but the owner', async () => {
    hub.server.app.realtime.chatrooms.open('live-7', alice.account);
    const owner = await Raw.open(hub.url(RealtimePath.chatroom));
    const viewer = await Raw.open(hub.url(RealtimePath.chatroom));
    const enter = (c: Raw, u: SeededUser) => c.call('enter', { roomId: 'live-7', account: u.account, token: u.token, nick: u.login });
    expect(await enter(owner, alice)).toMatchObject({ ok: true, result: { owner: alice.account } });
    expect(await enter(viewer, bob)).toMatchObject({ ok: true });
    expect(await viewer.call('setGagged', { roomId: 'live-7', account: alice.account, gagged: true })).toMatchObject({ code: HubCode.forbidden });
    expect(await owner.call('setGagged', { roomId: 'live-7', account: bob.account, gagged: true })).toMatchObject({ ok: true });
    expect(await viewer.call('send', { roomId: 'live-7', text: 'hi' })).toMatchObject({ code: HubCode.gagged });
    expect(await viewer.call('members', { roomId: 'nope', limit: 5 })).toMatchObject({ code: HubCode.forbidden });
    expect(await viewer.call('enter', { roomId: 'closed-room', account: bob.account, token: bob.token, nick: 'b' })).toMatchObject({ code: HubCode.notFound });
    owner.ws.close();
    viewer.ws.close();
  });
});

describe('presence path', () => {
  it('[§4] authenticates by the session token (first frame or ?token=), acknowledges each code and stores it', async () => {
    const session = await hub.sessionOf(alice);
    const c = await Raw.open(hub.url(RealtimePath.presence));
    expect(await c.call('status', { code: PresenceCode.foreground })).toMatchObject({ code: HubCode.linkLost });
    expect(await c.call('auth', { token: 'wrong' })).toMatchObject({ code: HubCode.tokenInvalid });
    expect(await c.call('auth', { token: session })).toMatchObject({ ok: true, result: { userId: alice.userId } });
    for (const code of [10002, 10000, 10001, 10003]) {
      expect(await c.call('status', { code })).toMatchObject({ ok: true, result: { code } });
      const row = hub.server.readDb().prepare('SELECT status, last_seen_at FROM user_presence WHERE user_id = ?').get(alice.userId);
      expect(row).toMatchObject({ status: code });
    }
    expect(await c.call('status', { code: 3 })).toMatchObject({ code: HubCode.badRequest });
    c.ws.close();

    const q = await Raw.open(`${hub.url(RealtimePath.presence)}?token=${session}`);
    expect(await q.until(() => q.pushes[0])).toEqual({ type: 'ready', userId: alice.userId });
    q.ws.close();
    const bad = await Raw.open(`${hub.url(RealtimePath.presence)}?token=nope`);
    expect(await bad.closed).toEqual({ code: HubClose.unauthenticated, reason: 'Session token invalid' });
  });
});

describe('[§7] realtime endpoints', () => {
  it('getAgoraRtmToken gives fresh tokens to a session only', async () => {
    const session = await hub.sessionOf(bob);
    const a = await hub.server.call(endpoints.getAgoraRtmToken, {}, { token: session });
    const b = await hub.server.call(endpoints.getAgoraRtmToken, {}, { token: session });
    expect(a).toMatchObject({ code: '0000', data: { rtmToken: expect.stringMatching(/^rtm_/), rtcToken: expect.stringMatching(/^rtc_/) } });
    expect(b.data!.rtmToken).not.toBe(a.data!.rtmToken);
    expect((await hub.server.call(endpoints.getAgoraRtmToken, {})).code).toBe('1005');
  });

  it('getChatRoomAddress gives the hub\'s chat-room path', async () => {
    const res = await hub.server.call(endpoints.getChatRoomAddress, { searchValue: 'live-7' }, { token: await hub.sessionOf(bob) });
    expect(res).toMatchObject({ code: '0000', data: [RealtimePath.chatroom] });
  });

  it('getCustomerServiceList gives the seeded customer-service IM account', async () => {
    const res = await hub.server.call(endpoints.getCustomerServiceList, {}, { token: await hub.sessionOf(bob) });
    expect(res).toMatchObject({ code: '0000', data: [{ imId: CUSTOMER_SERVICE.yxAccid, nickname: 'Customer Service' }] });
  });
});

describe('heartbeat', () => {
  it('cuts a socket that stops answering pings, which frees its IM login', async () => {
    const quick = await startRealtimeServer({ users: 1, realtime: { heartbeatMs: 40 } });
    try {
      const user = quick.users[0]!;
      const c = await Raw.open(quick.url(RealtimePath.im));
      await c.call('login', { account: user.account, token: user.token });
      expect(quick.server.app.realtime.im.connectionOf(user.account)).toBeDefined();
      // A client whose network went away: it reads nothing more, so it answers no ping.
      (c.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      await c.until(() => (quick.server.app.realtime.im.connectionOf(user.account) ? undefined : true), 2000);
      expect(quick.server.app.realtime.connectionCount()[RealtimePath.im]).toBe(0);
      c.ws.terminate();
    } finally {
      await quick.close();
    }
  });
});
