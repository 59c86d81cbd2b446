/**
 * The Agora tokens of /api/index/getAgoraRtmToken (SPEC §7). Locally an rtm token is a
 * random secret stored with its user and expiry, which the hub's signalling login checks
 * (the account is the user's yxAccid); the rtc token is stored the same way and checked by
 * the hub's RTC relay (server/realtime/rtc.ts) when the local RTC adapter joins a channel.
 * Tokens live 24 hours, as Agora's do by default.
 */
import { randomBytes } from 'node:crypto';
import type { AuthSession } from '../auth/sessions';
import type { Db } from '../db/database';

export const AGORA_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

export type AgoraTokens = ReturnType<typeof createAgoraTokens>;

/** A valid token names its user and the app session (login token) it was issued to. */
export type TokenCheck = { ok: true; userId: number; session: string } | { ok: false; reason: 'invalid' | 'expired' };

export function createAgoraTokens(db: Db, findSession: (token: string) => AuthSession | undefined, now: () => number = Date.now) {
  const insert = db.prepare('INSERT INTO agora_tokens (token, kind, user_id, session_token, expires_at) VALUES (?, ?, ?, ?, ?)');
  const purge = db.prepare('DELETE FROM agora_tokens WHERE user_id = ? AND expires_at < ?');
  const find = db.prepare<[string, string], { user_id: number; session_token: string; expires_at: number; yx_accid: string }>(
    `SELECT t.user_id, t.session_token, t.expires_at, u.yx_accid FROM agora_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token = ? AND t.kind = ?`,
  );

  const fresh = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

  function check(kind: 'rtm' | 'rtc', accid: string, token: string): TokenCheck {
    const row = find.get(token, kind);
    // A token of a session that ended is no token at all (the app signs in again, not refreshes).
    if (!row || row.yx_accid !== accid || !findSession(row.session_token)) return { ok: false, reason: 'invalid' };
    if (row.expires_at <= now()) return { ok: false, reason: 'expired' };
    return { ok: true, userId: row.user_id, session: row.session_token };
  }

  return {
    /** Fresh rtm and rtc tokens for the session's user, bound to the session. */
    issue({ userId, token: session }: Pick<AuthSession, 'userId' | 'token'>): { rtmToken: string; rtcToken: string } {
      const t = now();
      const rtmToken = fresh('rtm_');
      const rtcToken = fresh('rtc_');
      db.transaction(() => {
        purge.run(userId, t);
        insert.run(rtmToken, 'rtm', userId, session, t + AGORA_TOKEN_TTL_MS);
        insert.run(rtcToken, 'rtc', userId, session, t + AGORA_TOKEN_TTL_MS);
      })();
      return { rtmToken, rtcToken };
    },
    /** Whether `token` is an rtm token issued to the user whose yxAccid is `accid`. */
    checkRtm: (accid: string, token: string): TokenCheck => check('rtm', accid, token),
    /** Whether `token` is an rtc token issued to the user whose yxAccid is `accid` (the RTC relay's join). */
    checkRtc: (accid: string, token: string): TokenCheck => check('rtc', accid, token),
  };
}
