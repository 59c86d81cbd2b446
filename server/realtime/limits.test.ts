/**
 * The hub's limits over real sockets (server/realtime/wire.ts, chatroom.ts): a socket's frame
 * rate (HUB_FRAME_RATE: a flood is closed with tooManyFrames, the app's pace never is), the
 * members a chat room holds (CHATROOM_AUDIENCE_LIMIT, lowered here), and what a member that
 * stops reading may leave unread (MAX_UNREAD_BYTES) before it is cut.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HUB_FRAME_RATE, HubClose, HubCode, RealtimePath } from '../../src/api/contract/realtime';
import { startRealtimeServer, type RealtimeTestServer, type SeededUser } from './testing';
import { Conn, FrameBucket, MAX_UNREAD_BYTES } from './wire';

/** A bare client of the wire protocol that counts replies. */
class Raw {
  readonly replies = new Map<number | string | null, { ok: boolean; code?: number; message?: string }>();
  readonly pushes: { type: string; [k: string]: unknown }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  isClosed = false;
  private nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const frame = JSON.parse(data.toString()) as { id?: number; ok?: boolean; push?: { type: string } };
      if (frame.push) this.pushes.push(frame.push);
      else this.replies.set(frame.id ?? null, frame as { ok: boolean });
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => {
      this.isClosed = true;
      resolve({ code, reason: reason.toString() });
    }));
  }

  static open(url: string): Promise<Raw> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const raw = new Raw(ws);
      ws.once('open', () => resolve(raw));
      ws.once('error', reject);
    });
  }

  /** Sends without waiting; returns the id. */
  fire(op: string, args: object = {}): number {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, op, ...args }));
    return id;
  }

  async call(op: string, args: object = {}) {
    const id = this.fire(op, args);
    return until(() => this.replies.get(id));
  }
}

async function until<T>(find: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error('Nothing came in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let hub: RealtimeTestServer;
let users: SeededUser[];
const AUDIENCE = 2;
beforeAll(async () => {
  hub = await startRealtimeServer({ users: 5, realtime: { chatroomAudienceLimit: AUDIENCE } });
  users = hub.users;
});
afterAll(() => hub.close());

const imLoggedIn = async (user: SeededUser) => {
  const c = await Raw.open(hub.url(RealtimePath.im));
  expect(await c.call('login', { account: user.account, token: user.token })).toMatchObject({ ok: true });
  return c;
};

describe('frame rate', () => {
  it('closes a socket that floods: 10,000 frames at once get at most a burst\'s worth of answers, then tooManyFrames with the rate', async () => {
    const { perSecond, burst } = HUB_FRAME_RATE[RealtimePath.im];
    const flooder = await imLoggedIn(users[0]!);
    const other = await imLoggedIn(users[1]!);
    for (let i = 0; i < 10_000 && flooder.ws.readyState === WebSocket.OPEN; i++) flooder.fire('ping');
    expect(await flooder.closed).toEqual({ code: HubClose.tooManyFrames, reason: `Too many frames: at most ${perSecond} a second (${burst} at once)` });
    // The login, then the burst (less the login's token) and what refilled meanwhile.
    expect(flooder.replies.size).toBeLessThanOrEqual(burst + 5);
    // Nobody else is touched.
    expect(await other.call('ping')).toMatchObject({ ok: true });
    other.ws.close();
  });

  it('never closes the app\'s pace: most of a burst at once, then ten a second, every frame answered', async () => {
    const { burst } = HUB_FRAME_RATE[RealtimePath.im];
    const c = await imLoggedIn(users[2]!);
    const ids = Array.from({ length: burst - 10 }, () => c.fire('ping'));
    for (let i = 0; i < 15; i++) {
      await sleep(100);
      ids.push(c.fire('ping'));
    }
    await until(() => (ids.every((id) => c.replies.has(id)) ? true : undefined));
    expect(ids.every((id) => c.replies.get(id)?.ok)).toBe(true);
    expect(c.isClosed).toBe(false);
    c.ws.close();
  });

  it('the relay takes a live host\'s answers to a full audience at once, and still cuts a flood', async () => {
    const { burst } = HUB_FRAME_RATE[RealtimePath.rtc];
    const host = await Raw.open(hub.url(RealtimePath.rtc));
    const ids = Array.from({ length: burst - 8 }, () => host.fire('ping'));
    await until(() => (ids.every((id) => host.replies.has(id)) ? true : undefined), 10_000);
    expect(host.isClosed).toBe(false);
    for (let i = 0; i < 10_000 && host.ws.readyState === WebSocket.OPEN; i++) host.fire('ping');
    expect((await host.closed).code).toBe(HubClose.tooManyFrames);
  });

  it('a token bucket: a burst at once, then the sustained rate', () => {
    const bucket = new FrameBucket({ perSecond: 20, burst: 100 }, 0);
    expect(Array.from({ length: 100 }, () => bucket.take(0)).every(Boolean)).toBe(true);
    expect(bucket.take(0)).toBe(false);
    // 50 ms refill one token (20 a second), never more than the burst.
    expect(bucket.take(50)).toBe(true);
    expect(bucket.take(50)).toBe(false);
    expect(Array.from({ length: 101 }, () => bucket.take(60_000)).filter(Boolean)).toHaveLength(100);
  });
});

describe('chat room members', () => {
  const enter = (c: Raw, roomId: string, user: SeededUser) => c.call('enter', { roomId, account: user.account, token: user.token, nick: user.login });

  it(`a room holds its owner and ${AUDIENCE} others: one more is refused with the reason; the owner always gets in; a leave frees a place`, async () => {
    const [owner, a, b, c] = users as [SeededUser, SeededUser, SeededUser, SeededUser];
    hub.server.app.realtime.chatrooms.open('cap-1', owner.account);
    const sockets = await Promise.all([0, 1, 2, 3, 4].map(() => Raw.open(hub.url(RealtimePath.chatroom))));
    const [sa, sb, sc, so, so2] = sockets as [Raw, Raw, Raw, Raw, Raw];
    expect(await enter(sa, 'cap-1', a)).toMatchObject({ ok: true });
    expect(await enter(sb, 'cap-1', b)).toMatchObject({ ok: true });
    expect(await enter(sc, 'cap-1', c)).toEqual({
      id: expect.any(Number), ok: false, code: HubCode.forbidden, message: `This live room's chat is full: at most ${AUDIENCE} members besides its host`,
    });
    expect(await enter(so, 'cap-1', owner)).toMatchObject({ ok: true });
    // Entering again from another socket takes the member's own place.
    expect(await enter(so2, 'cap-1', owner)).toMatchObject({ ok: true });
    expect(hub.server.app.realtime.chatrooms.membersOf('cap-1')).toHaveLength(AUDIENCE + 1);
    expect(await sb.call('leave', { roomId: 'cap-1' })).toMatchObject({ ok: true });
    expect(await enter(sc, 'cap-1', c)).toMatchObject({ ok: true });
    for (const s of sockets) s.ws.close();
  });

  it('a member that stops reading in a busy room is cut, and its place goes; a member who reads gets every line', async () => {
    const [owner, reader, idle] = users as [SeededUser, SeededUser, SeededUser];
    const rooms = hub.server.app.realtime.chatrooms;
    rooms.open('busy-1', owner.account);
    const [sr, si] = await Promise.all([Raw.open(hub.url(RealtimePath.chatroom)), Raw.open(hub.url(RealtimePath.chatroom))]) as [Raw, Raw];
    expect(await enter(sr, 'busy-1', reader)).toMatchObject({ ok: true });
    expect(await enter(si, 'busy-1', idle)).toMatchObject({ ok: true });
    // Its network stops: nothing more is read from its socket.
    (si.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const line = 'x'.repeat(2000);
    let posted = 0;
    // Up to 64 MB, in steps that let the sockets drain, until the idle member is out.
    while (rooms.membersOf('busy-1').includes(idle.account) && posted < 32_000) {
      for (let i = 0; i < 200; i++, posted++) rooms.post('busy-1', { from: owner.account, fromNick: 'Host', text: `${posted} ${line}` });
      await sleep(5);
    }
    expect(rooms.membersOf('busy-1')).not.toContain(idle.account);
    await until(() => (sr.pushes.filter((p) => p.type === 'message').length === posted ? true : undefined), 20_000);
    // Told once the hub let go of it, after the last line.
    expect(await until(() => sr.pushes.find((p) => p.type === 'memberExit'))).toMatchObject({ account: idle.account });
    expect(sr.isClosed).toBe(false);
    for (const s of [sr, si]) s.ws.terminate();
  });
});

describe('what a socket may leave unread', () => {
  /** A connection whose socket says `unread` bytes wait; records what it sends and whether it was cut. */
  function conn(path: RealtimePath, unread: number) {
    const sent: string[] = [];
    let cut = false;
    const ws = {
      readyState: 1, OPEN: 1, CLOSED: 3, bufferedAmount: unread,
      send: (frame: string) => sent.push(frame), close: () => undefined, terminate: () => { cut = true; },
    };
    return { conn: new Conn(path, ws as unknown as WebSocket), sent, cut: () => cut };
  }

  it('256 KiB in a chat room, 8 MiB elsewhere: past it the socket is cut and nothing more is sent', () => {
    expect(MAX_UNREAD_BYTES[RealtimePath.chatroom]).toBe(256 * 1024);
    for (const path of Object.values(RealtimePath)) {
      const limit = MAX_UNREAD_BYTES[path];
      const within = conn(path, limit);
      within.conn.push({ type: 'x' });
      expect([within.sent.length, within.cut()]).toEqual([1, false]);
      const over = conn(path, limit + 1);
      over.conn.push({ type: 'x' });
      expect([over.sent.length, over.cut()]).toEqual([0, true]);
    }
    // 300 KiB unread (a chat member the hub kept up to 8 MiB for before) is cut in a chat room, not on the IM.
    const chat = conn(RealtimePath.chatroom, 300 * 1024);
    const im = conn(RealtimePath.im, 300 * 1024);
    for (const c of [chat, im]) c.conn.push({ type: 'x' });
    expect([chat.cut(), im.cut()]).toEqual([true, false]);
  });
});
