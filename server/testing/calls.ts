/**
 * Test support for calls and gifts: sign people in, open their hub sockets (presence makes a
 * host reachable; IM and signalling collect what the server pushes), and a writable
 * connection to the test database for setting balances (the server's own writes go through
 * the API; WAL and the busy time-out let both write).
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll } from 'vitest';
import WebSocket from 'ws';
import { PresenceCode } from '../../machines/ports/presence.port';
import { endpoints } from '../../src/api/contract';
import { RealtimePath } from '../../src/api/contract/realtime';
import { SEED_PASSWORD, type SeedOptions } from '../db/seed';
import { device, startTestServer, type TestServer } from './harness';

export interface Person {
  userId: number;
  account: string;
  yxAccid: string;
  imToken: string;
  token: string;
}

/** A hub socket with request/reply and the pushes it received. */
export interface HubSocket {
  call(op: string, args?: object): Promise<unknown>;
  pushes: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function hubSocket(server: TestServer, path: string): Promise<HubSocket> {
  const ws = new WebSocket(server.base.replace(/^http/, 'ws') + path);
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const pushes: Record<string, unknown>[] = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(data.toString()) as { id?: number; ok?: boolean; result?: unknown; message?: string; push?: Record<string, unknown> };
    if (frame.push) pushes.push(frame.push);
    if (typeof frame.id !== 'number') return;
    const w = waiting.get(frame.id);
    waiting.delete(frame.id);
    if (frame.ok) w?.resolve(frame.result);
    else w?.reject(new Error(frame.message ?? 'hub error'));
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  return {
    pushes,
    call(op, args = {}) {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, op, ...args }));
      });
    },
    close: () => new Promise<void>((resolve) => {
      if (ws.readyState === ws.CLOSED) return resolve();
      ws.once('close', () => resolve());
      ws.close();
    }),
  };
}

export interface CallPeople {
  signIn(account: string): Promise<Person>;
  /** Opens the person's presence socket and says `code` (foreground by default). */
  presence(person: Person, code?: PresenceCode): Promise<HubSocket>;
  /** Logs the person in to the IM; its `pushes` collect notifications. */
  im(person: Person): Promise<HubSocket>;
  /** Logs the person in to signalling with a fresh rtm token. */
  signal(person: Person): Promise<HubSocket>;
  /** Closes every socket opened here. */
  closeAll(): Promise<void>;
}

export function callPeople(server: TestServer): CallPeople {
  const sockets: HubSocket[] = [];
  const open = async (path: string) => {
    const socket = await hubSocket(server, path);
    sockets.push(socket);
    return socket;
  };
  return {
    async signIn(account) {
      const res = await server.call(endpoints.login, { ...device, account, password: SEED_PASSWORD });
      if (!res.data) throw new Error(`Cannot sign ${account} in: ${res.code} ${res.message}`);
      // The IM token is the session's own (userInfo imToken).
      const mine = await server.call(endpoints.userInfo, {}, { token: res.data.token });
      if (!mine.data) throw new Error(`No profile for ${account}: ${mine.code} ${mine.message}`);
      return { userId: mine.data.userId, account, yxAccid: mine.data.yxAccid, imToken: mine.data.imToken, token: res.data.token };
    },
    async presence(person, code = PresenceCode.foreground) {
      const socket = await open(RealtimePath.presence);
      await socket.call('auth', { token: person.token });
      await socket.call('status', { code });
      return socket;
    },
    async im(person) {
      const socket = await open(RealtimePath.im);
      await socket.call('login', { account: person.yxAccid, token: person.imToken });
      return socket;
    },
    async signal(person) {
      const tokens = await server.call(endpoints.getAgoraRtmToken, {}, { token: person.token });
      const socket = await open(RealtimePath.signal);
      await socket.call('login', { account: person.yxAccid, token: tokens.data!.rtmToken });
      return socket;
    },
    async closeAll() {
      await Promise.all(sockets.splice(0).map((s) => s.close()));
    },
  };
}

/** A writable connection to the server's database (test set-up only: balances, prices). */
export function writeDb(server: { dbPath: string }): Database.Database {
  const db = new Database(server.dbPath);
  db.pragma('busy_timeout = 5000');
  return db;
}

export interface CallWorld {
  server: TestServer;
  people: CallPeople;
  /** Read-only, as the server's reads see it. */
  db: Database.Database;
  /** Writable (set-up only: balances, prices). */
  rw: Database.Database;
  /** The people signed in, by name ('host1', 'user1'…). */
  p: Record<string, Person>;
}

export interface CallWorldOptions {
  seed: SeedOptions;
  /** Seeded people (`${name}@example.com`) to sign in before the tests. */
  signIn: readonly string[];
  /** Those of them whose presence socket is open (foreground): hosts that can be called. */
  present: readonly string[];
}

/**
 * A test file's server for calls and gifts, started before its tests (no build) with the
 * people signed in and present, and closed after them. The fields are set once `beforeAll` ran.
 */
export function callWorld({ seed, signIn, present }: CallWorldOptions): CallWorld {
  const world = { p: {} } as CallWorld;
  beforeAll(async () => {
    world.server = await startTestServer({ build: false, seed });
    world.people = callPeople(world.server);
    world.db = world.server.readDb();
    world.rw = writeDb(world.server);
    for (const name of signIn) world.p[name] = await world.people.signIn(`${name}@example.com`);
    for (const name of present) await world.people.presence(world.p[name]!);
  });
  afterAll(async () => {
    await world.people.closeAll();
    world.rw.close();
    await world.server.close();
  });
  return world;
}

export interface NoticeRow {
  from_accid: string;
  to_accid: string;
  content: Record<string, unknown>;
}

/** The IM notifications stored for `to` (all, or of one attachType), oldest first. */
export function noticesOf(db: Database.Database, to: string, attachType?: number): NoticeRow[] {
  return db.prepare<[string], { from_accid: string; to_accid: string; content: string }>(
    'SELECT from_accid, to_accid, content FROM im_notifications WHERE to_accid = ? ORDER BY to_seq',
  ).all(to)
    .map((r) => ({ ...r, content: JSON.parse(r.content) as Record<string, unknown> }))
    .filter((r) => attachType === undefined || r.content.attachType === attachType);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
