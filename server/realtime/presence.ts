/**
 * The presence socket on `/realtime/presence` (SPEC §4 Presence, §9: a code on connect and
 * every 5 s unless in the background). The socket is authenticated by the app session
 * token (the `x-login-token` value): the `auth` op, or `?token=` on the URL (then the hub
 * pushes `ready`, or closes with 4401). Each status code is stored with the time
 * (`user_presence`) and acknowledged; every frame counts as a sign of life (`last_seen_at`).
 *
 * A user whose last socket closes without having said 2 (offline) is marked offline after
 * `graceMs`, unless a socket of theirs comes back first (a reload, a network blip).
 */
import { PresenceCode } from '../../machines/ports/presence.port';
import { HubClose, HubCode, PresenceOps, type PresencePush, type PresenceStatusResult } from '../../src/api/contract/realtime';
import type { AuthSession } from '../auth/sessions';
import type { Db } from '../db/database';
import { HubError, op, type Conn, type Service } from './wire';

/** A socket that has not authenticated by then is closed. */
export const AUTH_TIMEOUT_MS = 10_000;

export interface PresenceState {
  status: PresenceCode;
  lastSeenAt: number;
  updatedAt: number;
}

/** The stored presence rows (what later features read for online status). */
export function createPresenceStore(db: Db) {
  const upsert = db.prepare(
    `INSERT INTO user_presence (user_id, status, last_seen_at, updated_at) VALUES (@userId, @status, @time, @time)
     ON CONFLICT (user_id) DO UPDATE SET status = @status, last_seen_at = @time, updated_at = @time`,
  );
  const touch = db.prepare('UPDATE user_presence SET last_seen_at = ? WHERE user_id = ?');
  const get = db.prepare<[number], { status: PresenceCode; last_seen_at: number; updated_at: number }>(
    'SELECT status, last_seen_at, updated_at FROM user_presence WHERE user_id = ?',
  );
  return {
    set(userId: number, status: PresenceCode, time = Date.now()): void {
      upsert.run({ userId, status, time });
    },
    touch(userId: number, time = Date.now()): void {
      touch.run(time, userId);
    },
    /** The user's last status and when they were last heard from; undefined when never connected. */
    get(userId: number): PresenceState | undefined {
      const row = get.get(userId);
      return row && { status: row.status, lastSeenAt: row.last_seen_at, updatedAt: row.updated_at };
    },
  };
}
export type PresenceStore = ReturnType<typeof createPresenceStore>;

export interface PresenceService extends Service {
  statusOf(userId: number): PresenceState | undefined;
  /** The hub is stopping: everyone still connected (or within grace) is marked offline. */
  stop(): void;
}

export interface PresenceDeps {
  store: PresenceStore;
  findSession(token: string): AuthSession | undefined;
  accidOf(userId: number): string | undefined;
  graceMs: number;
}

export function createPresenceService({ store, findSession, accidOf, graceMs }: PresenceDeps): PresenceService {
  const sockets = new Map<number, Set<Conn>>();
  const lastCode = new Map<number, PresenceCode>();
  const grace = new Map<number, ReturnType<typeof setTimeout>>();
  let stopped = false;

  function authenticate(conn: Conn, token: string): number {
    const session = findSession(token);
    if (!session) throw new HubError(HubCode.tokenInvalid, 'Session token invalid');
    if (conn.userId !== null && conn.userId !== session.userId) {
      throw new HubError(HubCode.loginConflict, 'This socket belongs to another user');
    }
    conn.userId = session.userId;
    conn.account = accidOf(session.userId) ?? null;
    // Logout of that session closes this socket (hub.closeSession).
    conn.session = session.token;
    let set = sockets.get(session.userId);
    if (!set) sockets.set(session.userId, (set = new Set()));
    set.add(conn);
    clearTimeout(grace.get(session.userId));
    grace.delete(session.userId);
    return session.userId;
  }

  const user = (conn: Conn): number => {
    if (conn.userId === null) throw new HubError(HubCode.linkLost, 'Not authenticated: send auth first');
    store.touch(conn.userId);
    return conn.userId;
  };

  return {
    statusOf: (userId) => store.get(userId),

    stop() {
      stopped = true;
      for (const timer of grace.values()) clearTimeout(timer);
      const everyone = new Set([...sockets.keys(), ...grace.keys()]);
      for (const userId of everyone) {
        if (lastCode.get(userId) !== PresenceCode.offline) store.set(userId, PresenceCode.offline);
      }
      grace.clear();
      sockets.clear();
    },

    opened(conn, url) {
      const token = url.searchParams.get('token');
      if (token === null) {
        const timer = setTimeout(() => {
          if (conn.userId === null) conn.close(HubClose.unauthenticated, 'Not authenticated in time');
        }, AUTH_TIMEOUT_MS);
        timer.unref();
        conn.ws.once('close', () => clearTimeout(timer));
        return;
      }
      try {
        const userId = authenticate(conn, token);
        conn.push({ type: 'ready', userId } satisfies PresencePush);
      } catch {
        conn.close(HubClose.unauthenticated, 'Session token invalid');
      }
    },

    closed(conn) {
      const userId = conn.userId;
      if (userId === null || stopped) return;
      const set = sockets.get(userId);
      set?.delete(conn);
      if (set && set.size > 0) return;
      sockets.delete(userId);
      if (lastCode.get(userId) === PresenceCode.offline) return;
      clearTimeout(grace.get(userId));
      grace.set(userId, setTimeout(() => {
        grace.delete(userId);
        if (sockets.has(userId)) return;
        lastCode.set(userId, PresenceCode.offline);
        store.set(userId, PresenceCode.offline);
      }, graceMs));
    },

    ops: {
      auth: op(PresenceOps.auth, (conn, { token }) => ({ userId: authenticate(conn, token) })),

      status: op(PresenceOps.status, (conn, { code }): PresenceStatusResult => {
        const userId = user(conn);
        const time = Date.now();
        lastCode.set(userId, code);
        store.set(userId, code, time);
        return { code, time };
      }),

      ping: op(PresenceOps.ping, (conn) => {
        user(conn);
        return { time: Date.now() };
      }),
    },
  };
}
