/**
 * Server sessions: one row per sign-in, holding the random token the app sends as
 * `x-login-token` and the SPEC §3 stored auth data (app id and device fields). A revoked
 * session never comes back.
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
}

export type Sessions = ReturnType<typeof createSessions>;

export function createSessions(db: Db) {
  const insert = db.prepare(
    `INSERT INTO sessions (token, login_uuid, user_id, app_id, device_type, device_id, device_no, os_type, os_version,
                           app_version, created_at)
     VALUES (@token, @loginUuid, @userId, @appId, @deviceType, @deviceId, @deviceNo, @osType, @osVersion,
             @appVersion, @createdAt)`,
  );
  const find = db.prepare<[string], Omit<AuthSession, 'isVisitor'> & { isVisitor: 0 | 1 }>(
    `SELECT s.token, s.login_uuid AS loginUuid, s.user_id AS userId, u.user_type AS userType, u.is_visitor AS isVisitor
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token = ? AND s.revoked_at IS NULL`,
  );
  const revoke = db.prepare('UPDATE sessions SET revoked_at = ? WHERE token = ? AND revoked_at IS NULL');

  return {
    /** Starts a session for the user and returns what the sign-in endpoints answer. */
    open(user: { id: number; user_type: UserType }, appId: string, device: DeviceInfo): z.output<typeof SignedIn> {
      const token = randomBytes(32).toString('hex');
      const loginUuid = randomUUID();
      insert.run({ token, loginUuid, userId: user.id, appId, ...device, createdAt: new Date().toISOString() });
      return { token, loginUuid, userId: user.id, userType: user.user_type };
    },
    find(token: string): AuthSession | undefined {
      const row = find.get(token);
      return row && { ...row, isVisitor: row.isVisitor === 1 };
    },
    revoke(token: string): void {
      revoke.run(new Date().toISOString(), token);
    },
  };
}
