/**
 * IM accounts as the hub sees them: every app user (its yxAccid, with the IM token of one of
 * its live sessions: userInfo `imToken`) and the IM-only customer-service accounts
 * (`customer_service`, SPEC §7 /api/im/getCustomerServiceList), which keep a token of their own.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthSession } from '../auth/sessions';
import type { Db } from '../db/database';

export interface ImProfile {
  accid: string;
  nick: string;
  icon: string;
  /** The app user behind the account; null for customer service. */
  userId: number | null;
}

export interface CustomerServiceRow {
  yx_accid: string;
  nickname: string;
  icon: string;
}

/** Constant-time comparison of two secrets of any length. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

export type ImAccounts = ReturnType<typeof createImAccounts>;

/**
 * An account's profile and the app session its IM token belongs to (null for customer service),
 * and whether that session is a visitor's (SPEC §6: a visitor may not chat; the hub refuses it).
 */
export type ImLogin = ImProfile & { session: string | null; visitor: boolean };

export function createImAccounts(db: Db, findImSession: (imToken: string) => AuthSession | undefined) {
  const user = db.prepare<[string], { id: number; nickname: string; icon: string }>(
    'SELECT id, nickname, icon FROM users WHERE yx_accid = ?',
  );
  const userById = db.prepare<[number], { yx_accid: string; nickname: string; icon: string }>(
    'SELECT yx_accid, nickname, icon FROM users WHERE id = ?',
  );
  const service = db.prepare<[string], CustomerServiceRow & { im_token: string }>(
    'SELECT yx_accid, nickname, icon, im_token FROM customer_service WHERE yx_accid = ?',
  );
  const services = db.prepare<[], CustomerServiceRow>('SELECT yx_accid, nickname, icon FROM customer_service ORDER BY sort, yx_accid');

  function find(accid: string): ImProfile | undefined {
    const u = user.get(accid);
    if (u) return { accid, nick: u.nickname, icon: u.icon, userId: u.id };
    const s = service.get(accid);
    if (s) return { accid, nick: s.nickname, icon: s.icon, userId: null };
    return undefined;
  }

  /** The app user whose live session holds this IM token, when its account is `accid`. */
  function userLogin(accid: string, token: string): ImLogin | undefined {
    const session = findImSession(token);
    const u = session && userById.get(session.userId);
    if (!session || !u || u.yx_accid !== accid) return undefined;
    return { accid, nick: u.nickname, icon: u.icon, userId: session.userId, session: session.token, visitor: session.isVisitor };
  }

  /** The customer-service account when `token` is its own IM token. */
  function serviceLogin(accid: string, token: string): ImLogin | undefined {
    const s = service.get(accid);
    // An unknown account still costs one comparison, so timing does not tell the two apart.
    const matches = sameSecret(s?.im_token ?? '\u0000', token);
    if (!s || !matches) return undefined;
    return { accid, nick: s.nickname, icon: s.icon, userId: null, session: null, visitor: false };
  }

  return {
    /**
     * The account when `token` is the IM token of one of its live sessions (or, for customer
     * service, its own token); undefined for an unknown account, a wrong token and a token of a
     * session that ended alike.
     */
    verify: (accid: string, token: string): ImLogin | undefined => userLogin(accid, token) ?? serviceLogin(accid, token),
    profile: find,
    customerService: (): CustomerServiceRow[] => services.all(),
  };
}
