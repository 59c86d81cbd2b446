/**
 * Server sessions: one row per sign-in, holding the random token the app sends as
 * `x-login-token`, the SPEC §3 stored auth data (app id and device fields) and the
 * session's own random IM token (userInfo `imToken`, which the hub's IM and chat-room logins
 * check). A revoked session never comes back.
 *
 * Sessions end three ways, and each ends everything opened under the session (its IM token,
 * its Agora tokens, its hub sockets, through `onEnded`):
 * - logout revokes it;
 * - it expires `lifetimeMs` after sign-in (30 days by default: the app runs inside a native
 *   shell that keeps the token, and people expect to stay signed in on their phone for weeks,
 *   while a token copied off a device should not work forever; there is no refresh token in
 *   the contract, so the lifetime is counted from sign-in, and signing in again starts anew);
 * - a user holds at most `maxPerUser` live sessions (10 by default: phones, a tablet,
 *   reinstalls), and a new sign-in revokes the oldest beyond that.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type * as z from 'zod/mini';
import type { DeviceInfo, SignedIn } from '../../src/api/contract/session';
import type { Db } from '../db/database';
import type { UserType } from '../users/users';

/** The signed-in caller of a request; the only source of "who is asking". */
export interface AuthSession {
  token: string;
  loginUuid: string;
  userId: number;
  userType: UserType;
  /** A visitor (SPEC §6: login and register only): endpoints that act on others or move money refuse it. */
  isVisitor: boolean;
  /** The session's IM token (userInfo `imToken`): random, and valid only while the session lives. */
  imToken: string;
}

export interface SessionOptions {
  /** How long a session lives from sign-in; default SESSION_LIFETIME_MS (30 days). */
  lifetimeMs?: number;
  /** Live sessions one user may hold; a new sign-in revokes the oldest beyond it; default MAX_SESSIONS_PER_USER (10). */
  maxPerUser?: number;
}

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
export const MAX_SESSIONS_PER_USER = 10;

export type Sessions = ReturnType<typeof createSessions>;

export function createSessions(db: Db, options: SessionOptions = {}, now: () => number = Date.now) {
  const lifetimeMs = options.lifetimeMs ?? SESSION_LIFETIME_MS;
  const maxPerUser = options.maxPerUser ?? MAX_SESSIONS_PER_USER;
  if (!Number.isSafeInteger(lifetimeMs) || lifetimeMs <= 0) throw new RangeError('A session lifetime is a positive number of ms.');
  if (!Number.isSafeInteger(maxPerUser) || maxPerUser < 1) throw new RangeError('At least one session per user must be allowed.');

  const insert = db.prepare(
    `INSERT INTO sessions (token, login_uuid, user_id, im_token, app_id, device_type, device_id, device_no, os_type,
                           os_version, app_version, created_at, expires_at)
     VALUES (@token, @loginUuid, @userId, @imToken, @appId, @deviceType, @deviceId, @deviceNo, @osType,
             @osVersion, @appVersion, @createdAt, @expiresAt)`,
  );
  type Row = Omit<AuthSession, 'isVisitor'> & { isVisitor: 0 | 1 };
  const select = `SELECT s.token, s.login_uuid AS loginUuid, s.user_id AS userId, u.user_type AS userType,
                         u.is_visitor AS isVisitor, s.im_token AS imToken
                    FROM sessions s JOIN users u ON u.id = s.user_id`;
  const live = 's.revoked_at IS NULL AND s.expires_at > @now';
  const find = db.prepare<{ token: string; now: number }, Row>(`${select} WHERE s.token = @token AND ${live}`);
  const findByIm = db.prepare<{ imToken: string; now: number }, Row>(`${select} WHERE s.im_token = @imToken AND ${live}`);
  const revoke = db.prepare<[string, string]>('UPDATE sessions SET revoked_at = ? WHERE token = ? AND revoked_at IS NULL');
  // Newest first; everything past the first maxPerUser is over the cap.
  const overCap = db.prepare<{ userId: number; now: number; keep: number }, string>(
    `SELECT s.token FROM sessions s WHERE s.user_id = @userId AND ${live}
      ORDER BY s.created_at DESC, s.rowid DESC LIMIT -1 OFFSET @keep`,
  ).pluck();
  const dropAgoraTokens = db.prepare<[string]>('DELETE FROM agora_tokens WHERE session_token = ?');

  const listeners = new Set<(token: string) => void>();
  const ended = (tokens: readonly string[]) => {
    for (const token of tokens) for (const listener of listeners) listener(token);
  };
  const toSession = (row: Row | undefined): AuthSession | undefined => row && { ...row, isVisitor: row.isVisitor === 1 };

  /** Revokes in the database; the caller tells the listeners after the commit. */
  const revokeRows = (tokens: readonly string[], at: string): string[] =>
    tokens.filter((token) => {
      dropAgoraTokens.run(token);
      return revoke.run(at, token).changes === 1;
    });

  const openTx = db.transaction((user: { id: number }, appId: string, device: DeviceInfo) => {
    const t = now();
    const session = { token: randomBytes(32).toString('hex'), loginUuid: randomUUID(), imToken: randomBytes(16).toString('hex') };
    insert.run({
      ...session, userId: user.id, appId, ...device, createdAt: new Date(t).toISOString(), expiresAt: t + lifetimeMs,
    });
    const evicted = revokeRows(overCap.all({ userId: user.id, now: t, keep: maxPerUser }), new Date(t).toISOString());
    return { session, evicted };
  });

  return {
    /** Starts a session for the user and returns what the sign-in endpoints answer; may end the user's oldest session. */
    open(user: { id: number; user_type: UserType }, appId: string, device: DeviceInfo): z.output<typeof SignedIn> {
      const { session, evicted } = openTx(user, appId, device);
      ended(evicted);
      return { token: session.token, loginUuid: session.loginUuid, userId: user.id, userType: user.user_type };
    },
    /** The live session of the login token: not revoked, not expired. */
    find(token: string): AuthSession | undefined {
      return toSession(find.get({ token, now: now() }));
    },
    /** The live session whose IM token this is. */
    findByImToken(imToken: string): AuthSession | undefined {
      return toSession(findByIm.get({ imToken, now: now() }));
    },
    /** Ends the session and its Agora tokens; its sockets are closed by the `onEnded` listeners. */
    revoke(token: string): void {
      ended(db.transaction(() => revokeRows([token], new Date(now()).toISOString()))());
    },
    /** Called with the token of every session that logout or the cap ends (expiry is noticed by `find`). */
    onEnded(listener: (token: string) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
