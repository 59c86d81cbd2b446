/**
 * IM accounts as the hub sees them: every app user (yxAccid + imToken of the users table)
 * and the IM-only customer-service accounts (`customer_service`, SPEC §7
 * /api/im/getCustomerServiceList).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
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

export function createImAccounts(db: Db) {
  const user = db.prepare<[string], { id: number; nickname: string; icon: string; im_token: string }>(
    'SELECT id, nickname, icon, im_token FROM users WHERE yx_accid = ?',
  );
  const service = db.prepare<[string], CustomerServiceRow & { im_token: string }>(
    'SELECT yx_accid, nickname, icon, im_token FROM customer_service WHERE yx_accid = ?',
  );
  const services = db.prepare<[], CustomerServiceRow>('SELECT yx_accid, nickname, icon FROM customer_service ORDER BY sort, yx_accid');

  function find(accid: string): (ImProfile & { token: string }) | undefined {
    const u = user.get(accid);
    if (u) return { accid, nick: u.nickname, icon: u.icon, userId: u.id, token: u.im_token };
    const s = service.get(accid);
    if (s) return { accid, nick: s.nickname, icon: s.icon, userId: null, token: s.im_token };
    return undefined;
  }

  return {
    /** The account when `token` is its IM token; undefined for an unknown account or a wrong token alike. */
    verify(accid: string, token: string): ImProfile | undefined {
      const found = find(accid);
      // An unknown account still costs one comparison, so timing does not tell the two apart.
      const ok = sameSecret(found?.token ?? '\u0000', token) && found !== undefined;
      if (!ok) return undefined;
      const { token: _token, ...profile } = found;
      return profile;
    },
    profile(accid: string): ImProfile | undefined {
      const found = find(accid);
      if (!found) return undefined;
      const { token: _token, ...profile } = found;
      return profile;
    },
    customerService: (): CustomerServiceRow[] => services.all(),
  };
}
