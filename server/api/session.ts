/**
 * Handlers of the session endpoints (SPEC §7 Users: login, registration, visitor entry,
 * the current user) and logout. Every sign-in opens a new server session that records
 * the app id header and the device fields of the request.
 */
import { ResultCode } from '../../src/api/codes';
import type { session } from '../../src/api/contract';
import { hashPassword, verifyAgainstDecoy, verifyPassword } from '../auth/password';
import type { Sessions } from '../auth/sessions';
import type { Users } from '../users/users';
import { ApiError, requireSession, TEXT_SESSION_EXPIRED, type HandlersOf } from './transport';

export const TEXT_BAD_CREDENTIALS = 'Incorrect account or password.';
export const TEXT_ACCOUNT_EXISTS = 'This account is already registered.';

const accountExists = () => new ApiError(ResultCode.accountExists, TEXT_ACCOUNT_EXISTS);

export function sessionHandlers({ users, sessions }: { users: Users; sessions: Sessions }): HandlersOf<typeof session> {
  return {
    async login({ body, appId }) {
      const user = users.findByAccount(body.account);
      const valid = user?.password_hash
        ? await verifyPassword(body.password, user.password_hash)
        : await verifyAgainstDecoy(body.password);
      // One answer for an unknown account and a wrong password.
      if (!user || !valid) throw new ApiError(ResultCode.authFailed, TEXT_BAD_CREDENTIALS);
      return sessions.open(user, appId, body);
    },

    async register({ body, appId }) {
      // A cheap early answer; the unique index is what settles two sign-ups racing for one account.
      if (users.findByAccount(body.account)) throw accountExists();
      const user = users.register(body.account, await hashPassword(body.password), body.nickname);
      if (!user) throw accountExists();
      return sessions.open(user, appId, body);
    },

    visit({ body, appId }) {
      return sessions.open(users.visitor(body.deviceId), appId, body);
    },

    userInfo(ctx) {
      const mine = users.mineInfo(requireSession(ctx).userId);
      if (!mine) throw new ApiError(ResultCode.authFailed, TEXT_SESSION_EXPIRED);
      return mine;
    },

    logout(ctx) {
      sessions.revoke(requireSession(ctx).token);
      return null;
    },
  };
}
