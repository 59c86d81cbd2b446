/**
 * Handlers of the session endpoints (SPEC §7 Users: login, registration, visitor entry,
 * the current user) and logout. Every sign-in opens a new server session that records
 * the app id header and the device fields of the request (server/auth/sessions.ts: its
 * lifetime, the cap per user); logout ends it with everything opened under it.
 *
 * The doors are limited (server/auth/limits.ts): a locked sign-in, or a sign-up or visitor
 * entry over its number, is refused with `tooManyAttempts` and the wait, before any password
 * work or any row is written.
 */
import { ResultCode, tooManyAttemptsText } from '../../src/api/codes';
import type { session } from '../../src/api/contract';
import type { DoorLimits } from '../auth/limits';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../auth/password';
import type { Sessions } from '../auth/sessions';
import type { Users } from '../users/users';
import { ApiError, requireSession, TEXT_SESSION_EXPIRED, type HandlersOf } from './transport';

export const TEXT_BAD_CREDENTIALS = 'Incorrect account or password.';
export const TEXT_ACCOUNT_EXISTS = 'This account is already registered.';

const accountExists = () => new ApiError(ResultCode.accountExists, TEXT_ACCOUNT_EXISTS);

const tooManyAttempts = (waitMs: number) => new ApiError(ResultCode.tooManyAttempts, tooManyAttemptsText(waitMs));

export function sessionHandlers(
  { users, sessions, limits }: { users: Users; sessions: Sessions; limits: DoorLimits },
): HandlersOf<typeof session> {
  /** The refusal for too many attempts, answered once it has been held (limits.ts says why). */
  async function refuse(waitMs: number): Promise<never> {
    await new Promise((resolve) => setTimeout(resolve, limits.refusalDelayMs));
    throw tooManyAttempts(waitMs);
  }
  /** Refuses (held) when there is a wait. */
  const refuseWhileLocked = async (waitMs: number) => {
    if (waitMs > 0) await refuse(waitMs);
  };

  return {
    async login({ body, appId, address }) {
      const attempt = await limits.startSignIn(body.account, address);
      if ('waitMs' in attempt) return refuse(attempt.waitMs);
      let valid = false;
      try {
        const user = users.findByAccount(body.account);
        valid = user?.password_hash
          ? await verifyPassword(body.password, user.password_hash)
          : await verifyAgainstDecoy(body.password);
        // One answer for an unknown account and a wrong password.
        if (!user || !valid) throw new ApiError(ResultCode.authFailed, TEXT_BAD_CREDENTIALS);
        return sessions.open(user, appId, body);
      } finally {
        await attempt.end(valid);
      }
    },

    async register({ body, appId, address }) {
      await refuseWhileLocked(await limits.signUpWaitMs(address));
      // A cheap early answer; the unique index is what settles two sign-ups racing for one account.
      if (users.findByAccount(body.account)) throw accountExists();
      const user = users.register(body.account, await hashPassword(body.password), body.nickname);
      if (!user) throw accountExists();
      return sessions.open(user, appId, body);
    },

    async visit({ body, appId, address }) {
      await refuseWhileLocked(await limits.visitWaitMs(address));
      return sessions.open(users.visitor(body.deviceId), appId, body);
    },

    userInfo(ctx) {
      const session = requireSession(ctx);
      const mine = users.mineInfo(session.userId, session.imToken);
      if (!mine) throw new ApiError(ResultCode.authFailed, TEXT_SESSION_EXPIRED);
      return mine;
    },

    logout(ctx) {
      sessions.revoke(requireSession(ctx).token);
      return null;
    },
  };
}
