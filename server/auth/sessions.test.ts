/**
 * Sessions that end, over real HTTP and WebSocket: each sign-in has its own IM token; logout
 * revokes the session with its IM and Agora tokens and closes every hub socket it opened; a
 * session expires after its lifetime; a user holds at most `maxPerUser` live sessions.
 */
import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { HubClose, HubCode, RealtimePath } from '../../src/api/contract/realtime';
import { SEED_PASSWORD } from '../db/seed';
import { signInForIm, startTestServer, type ImCredentials, type TestServer } from '../testing/harness';
import { TEXT_SESSION_EXPIRED } from '../api/transport';

const { userInfo, logout, getAgoraRtmToken, beginLiveRoom } = endpoints;
const SESSION_EXPIRED = { code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED };

/** A hub socket: request/reply by id, and how it closed. */
interface Socket {
  call(op: string, args?: object): Promise<{ ok: boolean; code?: number; result?: unknown }>;
  /** Resolves with the close code once the server closes it. */
  closed: Promise<number>;
  isOpen(): boolean;
  close(): void;
}

const opened: Socket[] = [];

async function socket(server: TestServer, path: RealtimePath): Promise<Socket> {
  const ws = new WebSocket(server.base.replace(/^http/, 'ws') + path);
  const waiting = new Map<number, (frame: { ok: boolean; code?: number; result?: unknown }) => void>();
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { id?: number; ok: boolean; code?: number; result?: unknown };
    if (typeof frame.id === 'number') waiting.get(frame.id)?.(frame);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  const s: Socket = {
    call: (op, args = {}) => new Promise((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, op, ...args }));
    }),
    closed,
    isOpen: () => ws.readyState === WebSocket.OPEN,
    close: () => ws.close(),
  };
  opened.push(s);
  return s;
}

afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

/** Settles within `ms`, or says it did not. */
const within = <T>(promise: Promise<T>, ms: number): Promise<T | 'still open'> =>
  Promise.race([promise, new Promise<'still open'>((resolve) => setTimeout(() => resolve('still open'), ms))]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('[sessions] IM tokens per session', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ build: false, seed: { hosts: 1, users: 2 } });
  });
  afterAll(() => server.close());

  it('gives each sign-in an IM token of its own, random rather than derived from the account', async () => {
    const a = await signInForIm(server.call, 'user1@example.com', SEED_PASSWORD);
    const b = await signInForIm(server.call, 'user1@example.com', SEED_PASSWORD);
    expect(a.yxAccid).toBe(b.yxAccid);
    expect(a.imToken).toMatch(/^[0-9a-f]{32}$/);
    expect(b.imToken).not.toBe(a.imToken);
    // What the development seed used to hand out, computable by anyone who knows the account.
    const derived = createHash('sha256').update('seed:im:user1@example.com').digest('hex').slice(0, 32);
    expect([a.imToken, b.imToken]).not.toContain(derived);
    // Both sessions' tokens open the IM, each on its own socket.
    for (const creds of [a, b]) {
      const im = await socket(server, RealtimePath.im);
      expect(await im.call('login', { account: creds.yxAccid, token: creds.imToken })).toMatchObject({ ok: true });
    }
  });

  it('refuses an IM token on another account', async () => {
    const user1 = await signInForIm(server.call, 'user1@example.com', SEED_PASSWORD);
    const user2 = await signInForIm(server.call, 'user2@example.com', SEED_PASSWORD);
    const im = await socket(server, RealtimePath.im);
    expect(await im.call('login', { account: user2.yxAccid, token: user1.imToken })).toMatchObject({ ok: false, code: HubCode.tokenInvalid });
  });
});

describe('[sessions] logout ends what the session opened', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ build: false, seed: { hosts: 1, users: 2 } });
  });
  afterAll(() => server.close());

  /** Every hub socket a session can open: presence, IM, signalling and a live room's chat. */
  async function socketsOf(session: ImCredentials, roomId: string) {
    const { data: agora } = await server.call(getAgoraRtmToken, {}, { token: session.token });
    const presence = await socket(server, RealtimePath.presence);
    const im = await socket(server, RealtimePath.im);
    const signal = await socket(server, RealtimePath.signal);
    const chat = await socket(server, RealtimePath.chatroom);
    expect(await presence.call('auth', { token: session.token })).toMatchObject({ ok: true });
    expect(await im.call('login', { account: session.yxAccid, token: session.imToken })).toMatchObject({ ok: true });
    expect(await signal.call('login', { account: session.yxAccid, token: agora!.rtmToken })).toMatchObject({ ok: true });
    expect(await chat.call('enter', { roomId, account: session.yxAccid, token: session.imToken, nick: 'me' })).toMatchObject({ ok: true });
    return { agora: agora!, sockets: { presence, im, signal, chat } };
  }

  it('closes the presence, IM, signalling and chat-room sockets of that session only, and its IM, rtm and rtc tokens die', async () => {
    const host = await signInForIm(server.call, 'host1@example.com', SEED_PASSWORD);
    const live = await server.call(beginLiveRoom, { title: 'Hello', privateCallOpen: false }, { token: host.token });
    expect(live.code).toBe(ResultCode.success);
    const roomId = live.data!.yxRoomId;

    const leaving = await signInForIm(server.call, 'user1@example.com', SEED_PASSWORD);
    const staying = await signInForIm(server.call, 'user1@example.com', SEED_PASSWORD);
    const { agora, sockets } = await socketsOf(leaving, roomId);
    const other = await socket(server, RealtimePath.presence);
    expect(await other.call('auth', { token: staying.token })).toMatchObject({ ok: true });

    expect(await server.call(logout, {}, { token: leaving.token })).toMatchObject({ code: ResultCode.success });

    for (const [path, s] of Object.entries(sockets)) {
      expect([path, await within(s.closed, 2000)]).toEqual([path, HubClose.unauthenticated]);
    }
    expect(other.isOpen()).toBe(true);
    expect(await other.call('ping')).toMatchObject({ ok: true });

    expect(await server.call(userInfo, {}, { token: leaving.token })).toEqual(SESSION_EXPIRED);
    const im = await socket(server, RealtimePath.im);
    expect(await im.call('login', { account: leaving.yxAccid, token: leaving.imToken })).toMatchObject({ ok: false, code: HubCode.tokenInvalid });
    const chat = await socket(server, RealtimePath.chatroom);
    expect(await chat.call('enter', { roomId, account: leaving.yxAccid, token: leaving.imToken, nick: 'me' }))
      .toMatchObject({ ok: false, code: HubCode.tokenInvalid });
    const signal = await socket(server, RealtimePath.signal);
    expect(await signal.call('login', { account: leaving.yxAccid, token: agora.rtmToken })).toMatchObject({ ok: false, code: HubCode.tokenInvalid });
    const rtc = await socket(server, RealtimePath.rtc);
    expect(await rtc.call('join', { channelId: 'any-call', account: leaving.yxAccid, token: agora.rtcToken }))
      .toMatchObject({ ok: false, code: HubCode.tokenInvalid });
    const rows = server.readDb().prepare('SELECT count(*) FROM agora_tokens WHERE session_token = ?').pluck().get(leaving.token);
    expect(rows).toBe(0);

    // The other session of the same person goes on.
    const still = await socket(server, RealtimePath.im);
    expect(await still.call('login', { account: staying.yxAccid, token: staying.imToken })).toMatchObject({ ok: true });
  });
});

describe('[sessions] a session expires after its lifetime', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      build: false, seed: { hosts: 0, users: 1 }, sessions: { lifetimeMs: 1500 }, realtime: { heartbeatMs: 100 },
    });
  });
  afterAll(() => server.close());

  it('[§8 1005] refuses the login token and the IM token once the lifetime has passed, and the heartbeat closes its sockets', async () => {
    const creds = await signInForIm(server.call, 'user1@example.com', SEED_PASSWORD);
    const presence = await socket(server, RealtimePath.presence);
    expect(await presence.call('auth', { token: creds.token })).toMatchObject({ ok: true });
    const im = await socket(server, RealtimePath.im);
    expect(await im.call('login', { account: creds.yxAccid, token: creds.imToken })).toMatchObject({ ok: true });

    await sleep(1600);
    expect(await server.call(userInfo, {}, { token: creds.token })).toEqual(SESSION_EXPIRED);
    const again = await socket(server, RealtimePath.im);
    expect(await again.call('login', { account: creds.yxAccid, token: creds.imToken })).toMatchObject({ ok: false, code: HubCode.tokenInvalid });
    expect(await within(presence.closed, 1000)).toBe(HubClose.unauthenticated);
    expect(await within(im.closed, 1000)).toBe(HubClose.unauthenticated);

    // Signing in again starts a new lifetime.
    const fresh = await signInForIm(server.call, 'user1@example.com', SEED_PASSWORD);
    expect((await server.call(userInfo, {}, { token: fresh.token })).code).toBe(ResultCode.success);
  });
});

describe('[sessions] live sessions per user are capped', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ build: false, seed: { hosts: 0, users: 2 } });
  });
  afterAll(() => server.close());

  it('keeps the 10 newest of 40 sign-ins live: the 30 oldest are refused and their sockets closed', async () => {
    const first = await signInForIm(server.call, 'user1@example.com', SEED_PASSWORD);
    const presence = await socket(server, RealtimePath.presence);
    expect(await presence.call('auth', { token: first.token })).toMatchObject({ ok: true });
    const tokens = [first.token];
    for (let i = 1; i < 40; i++) tokens.push((await signInForIm(server.call, 'user1@example.com', SEED_PASSWORD)).token);
    // Another person's sessions are not counted with these.
    const bystander = await signInForIm(server.call, 'user2@example.com', SEED_PASSWORD);

    const live = server.readDb().prepare('SELECT count(*) FROM sessions WHERE user_id = ? AND revoked_at IS NULL').pluck();
    expect(live.get(first.userId)).toBe(10);
    const answers = await Promise.all(tokens.map(async (token) => (await server.call(userInfo, {}, { token })).code));
    expect(answers.slice(0, 30)).toEqual(Array(30).fill(ResultCode.authFailed));
    expect(answers.slice(30)).toEqual(Array(10).fill(ResultCode.success));
    expect(await within(presence.closed, 2000)).toBe(HubClose.unauthenticated);
    expect((await server.call(userInfo, {}, { token: bystander.token })).code).toBe(ResultCode.success);
  });

  it('refuses options that would make sessions unusable', async () => {
    await expect(startTestServer({ build: false, sessions: { maxPerUser: 0 } })).rejects.toThrow(/At least one session per user/);
    await expect(startTestServer({ build: false, sessions: { lifetimeMs: -5 } })).rejects.toThrow(/positive number of ms/);
  });
});
