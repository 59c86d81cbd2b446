/**
 * Test support for the hub: a real server on port 0 over a temporary database (see
 * server/testing/harness.ts) with a small seed, the ws:// URL of each hub path, and the
 * seeded users' credentials (IM account and the IM token of a session opened at start, a
 * session token on demand).
 */
import type { RealtimePath } from '../../src/api/contract/realtime';
import { endpoints } from '../../src/api/contract';
import { CallStatus } from '../../src/api/contract/call';
import { openDatabase, type Db } from '../db/database';
import { SEED_PASSWORD } from '../db/seed';
import { device, startTestServer, type TestServer } from '../testing/harness';
import type { ServerOptions } from '../app';

export interface SeededUser {
  userId: number;
  login: string;
  /** IM account (yxAccid) and the IM token of the session signed in at start. */
  account: string;
  token: string;
  /** The login token of that session (its logout ends the IM token too). */
  session: string;
}

export interface RealtimeTestServer {
  server: TestServer;
  /** ws:// URL of a hub path. */
  url(path: RealtimePath): string;
  /** The seeded normal users, in id order. */
  users: SeededUser[];
  /** Signs the user in over the API and returns the session token. */
  sessionOf(user: SeededUser): Promise<string>;
  /** The user's rtm token from /api/index/getAgoraRtmToken. */
  rtmTokenOf(user: SeededUser): Promise<string>;
  /** The user's rtc token from /api/index/getAgoraRtmToken. */
  rtcTokenOf(user: SeededUser): Promise<string>;
  /**
   * Stores a call (ringing unless `status` says otherwise) on `channelId` between the two, as
   * createCall would: the hub's relay and signalling admit by it. Again for the same channel: its status.
   */
  storeCall(channelId: string, caller: SeededUser, callee: SeededUser, status?: number): void;
  /** Stores `host`'s live room on `channelId` (her earlier one ended), or ends it (`live` false), as the live endpoints would. */
  storeLive(channelId: string, host: SeededUser, live?: boolean): void;
  close(): Promise<void>;
}

export async function startRealtimeServer(
  opts: Partial<ServerOptions> & { users?: number } = {},
): Promise<RealtimeTestServer> {
  const { users: count = 3, ...rest } = opts;
  const server = await startTestServer({ build: false, seed: { hosts: 0, users: count }, ...rest });
  const db = server.readDb();
  const seeded = db.prepare('SELECT id AS userId, account AS login, yx_accid AS account FROM users ORDER BY id')
    .all() as Omit<SeededUser, 'token' | 'session'>[];
  const wsBase = server.base.replace(/^http/, 'ws');

  async function sessionOf(user: Pick<SeededUser, 'login'>): Promise<string> {
    const res = await server.call(endpoints.login, { ...device, account: user.login, password: SEED_PASSWORD });
    if (!res.data) throw new Error(`Cannot sign ${user.login} in: ${res.code} ${res.message}`);
    return res.data.token;
  }

  // IM tokens belong to sessions: each user is signed in once here for the one its IM logins use.
  const users = await Promise.all(seeded.map(async (user): Promise<SeededUser> => {
    const session = await sessionOf(user);
    const mine = await server.call(endpoints.userInfo, {}, { token: session });
    if (!mine.data) throw new Error(`No profile for ${user.login}: ${mine.code} ${mine.message}`);
    return { ...user, token: mine.data.imToken, session };
  }));

  async function agoraTokensOf(user: SeededUser): Promise<{ rtmToken: string; rtcToken: string }> {
    const res = await server.call(endpoints.getAgoraRtmToken, {}, { token: await sessionOf(user) });
    if (!res.data) throw new Error(`No Agora tokens: ${res.code} ${res.message}`);
    return res.data;
  }

  // A second connection writes beside the server (WAL), as the test of an expired token does.
  let writer: Db | undefined;
  const write = (): Db => (writer ??= openDatabase(server.dbPath));

  return {
    server,
    url: (path) => wsBase + path,
    users,
    sessionOf,
    rtmTokenOf: async (user) => (await agoraTokensOf(user)).rtmToken,
    rtcTokenOf: async (user) => (await agoraTokensOf(user)).rtcToken,
    storeCall(channelId, caller, callee, status = CallStatus.calling) {
      const now = Date.now();
      write().prepare(
        `INSERT INTO calls (channel_id, caller_id, callee_id, payer_id, host_id, call_type, status, price, list_price, created_at, connected_at)
         VALUES (@channelId, @caller, @callee, @caller, @callee, 0, @status, 0, 0, @now, @now)
         ON CONFLICT (channel_id) DO UPDATE SET status = @status`,
      ).run({ channelId, caller: caller.userId, callee: callee.userId, status, now });
    },
    storeLive(channelId, host, live = true) {
      const now = Date.now();
      const db = write();
      db.prepare('UPDATE live_rooms SET state = 1, ended_at = ? WHERE user_id = ? AND state = 0').run(now, host.userId);
      if (!live) return;
      db.prepare(
        `INSERT INTO live_rooms (user_id, agora_channel_id, yx_room_id, started_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (agora_channel_id) DO UPDATE SET state = 0, ended_at = NULL`,
      ).run(host.userId, channelId, `room-${channelId}`, now);
    },
    async close() {
      writer?.close();
      await server.close();
    },
  };
}
