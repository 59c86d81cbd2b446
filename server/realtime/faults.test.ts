/**
 * Fault tests of the IM over real sockets on loopback, through the local adapter: resets
 * in the middle of a stream, a server restart on the same port and database, and a kick.
 * Each client runs the loop the imConnection machine runs (log in again after
 * `disconnected`, never after `kicked`); the sender retries a failed send with the same
 * idClient once logged in again. Prints reconnect time and delivery latency.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ImEvent, ImMessage, ImPort } from '../../machines/ports/im.port';
import { RealtimePath } from '../../src/api/contract/realtime';
import type { WebSocketImpl } from '../../src/adapters/hub.socket';
import { createLocalImPort } from '../../src/adapters/im.local';
import { createServer } from '../app';
import { SEED_PASSWORD } from '../db/seed';
import { callAt, signInForIm } from '../testing/harness';
import { startRealtimeServer, type RealtimeTestServer, type SeededUser } from './testing';
import { seededRandom } from '../testing/random';

const WebSocketImpl = WebSocket as unknown as WebSocketImpl;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));


function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
const ms = (v: number) => `${v.toFixed(2)} ms`;

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(5);
  }
}

/**
 * One client as the machine drives it: logs in, logs in again (every `retryMs`) after each
 * `disconnected`, stops for good on `kicked`. Records every message and the time from a
 * drop (as marked by the test, or as seen) to the next successful login.
 */
class Client {
  readonly port: ImPort;
  readonly messages: ImMessage[] = [];
  readonly arrivals: number[] = [];
  readonly events: ImEvent[] = [];
  readonly reconnects: number[] = [];
  kicked = false;
  private ready: Promise<void> = Promise.resolve();
  private droppedAt: number | null = null;
  private stopped = false;

  constructor(url: string, readonly user: SeededUser, private readonly retryMs = 5) {
    this.port = createLocalImPort({ url, WebSocketImpl, loginTimeoutMs: 2000 });
    this.port.subscribe((event) => {
      this.events.push(event);
      if (event.type === 'message') {
        this.messages.push(event.message);
        this.arrivals.push(performance.now());
      } else if (event.type === 'kicked') {
        this.kicked = true;
      } else if (event.type === 'disconnected' && !this.stopped) {
        this.ready = this.relogin(this.droppedAt ?? performance.now());
      }
    });
  }

  /** The test is about to cut this client's link: measure from now. */
  markDrop(): void {
    this.droppedAt = performance.now();
  }

  async login(): Promise<void> {
    this.ready = this.relogin(null);
    await this.ready;
  }

  /** Resolves once logged in (waiting for a relogin under way). */
  async whenReady(): Promise<void> {
    for (;;) {
      const current = this.ready;
      await current;
      if (current === this.ready) return;
    }
  }

  stop(): Promise<void> {
    this.stopped = true;
    return this.port.logout();
  }

  private async relogin(since: number | null): Promise<void> {
    for (;;) {
      if (this.stopped || this.kicked) return;
      try {
        await this.port.login(this.user.account, this.user.token);
        if (since !== null) this.reconnects.push(performance.now() - since);
        this.droppedAt = null;
        return;
      } catch {
        await sleep(this.retryMs);
      }
    }
  }
}

const sends = { failed: 0 };

/** Sends with one idClient until the hub has it, logging in again in between as needed. */
async function sendSurely(client: Client, to: string, text: string, idClient: string): Promise<ImMessage> {
  for (;;) {
    await client.whenReady();
    try {
      return await client.port.sendText(to, text, { idClient });
    } catch {
      sends.failed += 1;
      await sleep(1);
    }
  }
}

let hub: RealtimeTestServer | null = null;
afterEach(async () => {
  await hub?.close();
  hub = null;
});

describe('[fault] IM under socket resets', () => {
  it('delivers a 1,000-message stream exactly once and in order through 20 resets on both sides', async () => {
    // A stream as fast as the machine sends it, far past a person's pace: the IM's frame rate is raised for it.
    hub = await startRealtimeServer({ users: 2, realtime: { frameRate: { [RealtimePath.im]: { perSecond: 100_000, burst: 100_000 } } } });
    const url = hub.url(RealtimePath.im);
    const [ua, ub] = hub.users as [SeededUser, SeededUser];
    const a = new Client(url, ua);
    const b = new Client(url, ub);
    await a.login();
    await b.login();
    const realtime = hub.server.app.realtime;

    const TOTAL = 1000;
    const RESETS = 20;
    /** Of the resets, this many cut A right after the hub stored its message, so that the answer is lost. */
    const LOST_ANSWERS = 5;
    const rand = seededRandom(Number(process.env.FAULT_SEED ?? 20261121));
    const resetAt = new Map<number, 'a' | 'b' | 'a-after-store'>();
    while (resetAt.size < RESETS - LOST_ANSWERS) resetAt.set(1 + Math.floor(rand() * (TOTAL - 50)), rand() < 0.5 ? 'a' : 'b');
    while (resetAt.size < RESETS) resetAt.set(1 + Math.floor(rand() * (TOTAL - 50)), 'a-after-store');

    // Fault injection on the hub object: the send op's socket is cut once the message is stored.
    const cutAfterStore = new Set<string>();
    const idClientsSeen = new Set<string>();
    let answeredFromStore = 0;
    const sendOp = realtime.im.ops.send!;
    const run = sendOp.run;
    sendOp.run = (conn, args, ctx) => {
      const { idClient } = args as { idClient: string };
      if (idClientsSeen.has(idClient)) answeredFromStore += 1;
      idClientsSeen.add(idClient);
      const result = run(conn, args, ctx);
      if (cutAfterStore.delete(idClient)) {
        a.markDrop();
        conn.terminate();
        effective += 1;
      }
      return result;
    };
    let effective = 0;
    let owed: ('a' | 'b')[] = [];
    const reset = (side: 'a' | 'b') => {
      const client = side === 'a' ? a : b;
      client.markDrop();
      if (realtime.dropConnections(client.user.account) > 0) effective += 1;
      else owed.push(side); // mid-relogin: nothing to cut yet, so cut it a little later
    };

    const started = performance.now();
    for (let i = 0; i < TOTAL; i++) {
      const planned = resetAt.get(i);
      if (planned === 'a-after-store') cutAfterStore.add(`stream-${i}`);
      const due = [...owed, ...(planned === 'a' || planned === 'b' ? [planned] : [])];
      owed = [];
      // At a random moment around this send: before it, or while it is in flight.
      for (const side of due) setTimeout(() => reset(side), Math.floor(rand() * 3));
      await sendSurely(a, ub.account, `msg ${i}`, `stream-${i}`);
    }
    // Resets owed at the very end (the target was between logins) happen now.
    await sleep(10);
    while (effective < RESETS) {
      await a.whenReady();
      await b.whenReady();
      const side = owed.shift() ?? 'b';
      owed = owed.filter((o) => o !== side);
      reset(side);
      await sleep(5);
    }
    await a.whenReady();
    await b.whenReady();
    await until(() => b.messages.length >= TOTAL, 20_000, 'the whole stream at B');
    await sleep(300);
    const streamMs = performance.now() - started;

    expect(effective).toBe(RESETS);
    expect(cutAfterStore.size).toBe(0);
    // Each lost answer was followed by a resend that the hub answered from its store.
    expect(answeredFromStore).toBeGreaterThanOrEqual(LOST_ANSWERS);
    expect(b.messages).toHaveLength(TOTAL);
    expect(b.messages.map((m) => m.text)).toEqual(Array.from({ length: TOTAL }, (_, i) => `msg ${i}`));
    expect(new Set(b.messages.map((m) => m.idServer)).size).toBe(TOTAL);
    // In sequence order: server ids are given in the recipient's sequence order for one sender.
    const ids = b.messages.map((m) => Number(m.idServer));
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true);
    const stored = hub.server.readDb().prepare('SELECT count(*) FROM im_messages WHERE from_accid = ?').pluck().get(ua.account);
    expect(stored).toBe(TOTAL);

    const [conversation] = await b.port.conversations(10);
    expect(conversation).toMatchObject({ id: ua.account, unread: TOTAL });
    await until(() => b.events.filter((e) => e.type === 'unread').at(-1)?.type === 'unread'
      && (b.events.filter((e) => e.type === 'unread').at(-1) as { total: number }).total === TOTAL, 5000, 'unread 1000');
    await b.port.markRead(ua.account);
    expect((await b.port.conversations(10))[0]).toMatchObject({ unread: 0 });
    await until(() => (b.events.filter((e) => e.type === 'unread').at(-1) as { total: number }).total === 0, 5000, 'unread 0');

    const reconnects = [...a.reconnects, ...b.reconnects];
    expect(reconnects.length).toBeGreaterThanOrEqual(RESETS);
    console.log(
      `[realtime] reconnect after a reset (drop to logged in again): p50 ${ms(percentile(reconnects, 50))}, ` +
      `p95 ${ms(percentile(reconnects, 95))} (n=${reconnects.length}; ${TOTAL} messages, ${RESETS} resets in ${ms(streamMs)}; ` +
      `${sends.failed} failed send attempts retried, ${answeredFromStore} resends answered from the store)`,
    );

    // Delivery latency on a quiet link: from the send call to the peer's message event.
    const latencies: number[] = [];
    for (let i = 0; i < 200; i++) {
      const before = b.messages.length;
      const t0 = performance.now();
      await a.port.sendText(ub.account, `ping ${i}`);
      await until(() => b.messages.length > before, 2000, 'a latency sample');
      latencies.push(b.arrivals[before]! - t0);
    }
    console.log(
      `[realtime] message delivery latency A→B on loopback: p50 ${ms(percentile(latencies, 50))}, ` +
      `p95 ${ms(percentile(latencies, 95))} (n=${latencies.length})`,
    );
    await a.stop();
    await b.stop();
  }, 40_000);

  it('a second login of the same account kicks the first, which does not come back', async () => {
    hub = await startRealtimeServer({ users: 2 });
    const url = hub.url(RealtimePath.im);
    const [ua, ub] = hub.users as [SeededUser, SeededUser];
    const first = new Client(url, ua);
    const second = new Client(url, ua);
    const peer = new Client(url, ub);
    await first.login();
    await peer.login();
    await second.login();
    await until(() => first.kicked, 2000, 'the kick');
    await sendSurely(peer, ua.account, 'to the second', 'k-1');
    await until(() => second.messages.length === 1, 2000, 'delivery to the second login');
    await sleep(100);
    expect(first.messages).toEqual([]);
    expect(first.events.map((e) => e.type)).toContain('kicked');
    expect(first.events.map((e) => e.type)).not.toContain('disconnected');
    expect(hub.server.app.realtime.im.connectionOf(ua.account)).toBeDefined();
    await Promise.all([first.stop(), second.stop(), peer.stop()]);
  });
});

describe('[fault] IM across a server restart', () => {
  it('gives clients everything sent before and after the restart once they are logged in again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'anchor-restart-'));
    const dbPath = join(dir, 'app.db');
    const start = async (port: number): Promise<FastifyInstance> => {
      const app = await createServer({ dbPath, distDir: join(dir, 'dist'), logger: false, seed: { hosts: 0, users: 2 } });
      await app.listen({ port, host: '127.0.0.1' });
      return app;
    };
    let app = await start(0);
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const url = `ws://127.0.0.1:${address.port}${RealtimePath.im}`;
    const reader = new Database(dbPath, { readonly: true });
    const logins = reader.prepare('SELECT account FROM users ORDER BY id').pluck().all() as string[];
    reader.close();
    // IM tokens are per session; the sessions (and so the tokens) outlive the restart.
    const base = `http://127.0.0.1:${address.port}`;
    const users = await Promise.all(logins.map(async (login): Promise<SeededUser> => {
      const c = await signInForIm((e, b, o) => callAt(base, e, b, o), login, SEED_PASSWORD);
      return { userId: c.userId, login, account: c.yxAccid, token: c.imToken, session: c.token };
    }));
    const [ua, ub] = users as [SeededUser, SeededUser];
    const a = new Client(url, ua, 50);
    const b = new Client(url, ub, 50);
    try {
      await a.login();
      await b.login();
      for (let i = 0; i < 5; i++) await sendSurely(a, ub.account, `before ${i}`, `r-before-${i}`);
      await until(() => b.messages.length === 5, 2000, 'the first five');
      await b.stop(); // B goes away; what follows waits for it
      for (let i = 0; i < 5; i++) await sendSurely(a, ub.account, `offline ${i}`, `r-offline-${i}`);
      await a.port.sendNotification(ub.account, { kind: 'nudge', num: 1 });

      await app.close();
      await until(() => a.events.some((e) => e.type === 'disconnected'), 2000, 'A to see the stop');
      await sleep(100); // A keeps trying to log in while the server is down
      app = await start(address.port);
      await a.whenReady();
      for (let i = 0; i < 5; i++) await sendSurely(a, ub.account, `after ${i}`, `r-after-${i}`);

      const b2 = new Client(url, ub, 50); // B comes back (a reload: a new client)
      await b2.login();
      const expected = [...[0, 1, 2, 3, 4].map((i) => `offline ${i}`), ...[0, 1, 2, 3, 4].map((i) => `after ${i}`)];
      await until(() => b2.messages.length >= expected.length, 5000, 'everything missed');
      await sleep(100);
      expect(b2.messages.map((m) => m.text)).toEqual(expected);
      expect(b2.events.filter((e) => e.type === 'notification')).toHaveLength(1);
      expect((await b2.port.conversations(10))[0]).toMatchObject({ id: ua.account, unread: 15 });
      expect((await b2.port.history(ua.account, { limit: 100 })).length).toBe(15);
      await Promise.all([a.stop(), b2.stop()]);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
