/**
 * The session port over the encrypted API (SPEC §7 /api/login/*, current-user lookup) and
 * browser storage. It also holds the credentials the API client sends with each call.
 */
import type {
  Credentials, MineInfo, Registration, SessionPort, SignInOutcome, StoredAuth,
} from '../../../machines/ports/session.port';
import type { ApiClient, ApiCredentials } from '../../api/client';
import * as session from '../../api/contract/session';
import type { DeviceInfo } from '../../api/contract/session';
import type { ApiResult } from '../../api/outcome';
import { credentialsOf } from '../../api/request';
import { currentDevice } from '../device';
import { clearAllStorage, writeStoredAuth } from '../storage';

/** The credentials of the session in force, read by the API client at every call. */
export class SessionCredentials {
  private auth: StoredAuth | null = null;

  set(auth: StoredAuth | null): void {
    this.auth = auth;
  }

  token = (): string | null => this.auth?.token ?? null;

  forApi = (): ApiCredentials | null => (this.auth ? credentialsOf(this.auth) : null);
}

export interface HttpSessionDeps {
  api: ApiClient;
  credentials: SessionCredentials;
  /** The app id used when the shell supplied none. */
  appId: string;
  device?: () => DeviceInfo;
}

/** How long logout waits for the server to revoke the token before clearing locally anyway. */
const LOGOUT_GRACE_MS = 1500;

export function createHttpSessionPort(deps: HttpSessionDeps): SessionPort {
  const device = deps.device ?? currentDevice;

  function outcome(result: ApiResult<{ token: string; loginUuid: string }>, info: DeviceInfo): SignInOutcome {
    if (result.kind === 'ok') {
      return {
        kind: 'signedIn',
        auth: { ...info, appId: deps.appId, token: result.data.token, loginUuid: result.data.loginUuid },
      };
    }
    return { kind: 'refused', message: result.message };
  }

  return {
    async signIn(credentials: Credentials) {
      const info = device();
      return outcome(await deps.api.call(session.login, { ...info, ...credentials }, { loginCall: true, silent: true }), info);
    },
    async register(registration: Registration) {
      const info = device();
      return outcome(await deps.api.call(session.register, { ...info, ...registration }, { silent: true }), info);
    },
    async visit() {
      const info = device();
      return outcome(await deps.api.call(session.visit, info, { silent: true }), info);
    },
    async loadProfile(auth: StoredAuth): Promise<MineInfo> {
      deps.credentials.set(auth);
      writeStoredAuth(auth);
      return deps.api.data(session.userInfo, {});
    },
    async refreshImToken() {
      return (await deps.api.data(session.userInfo, {}, { silent: true })).imToken;
    },
    async forget() {
      // Revoke the token on the server when it answers in time; the local wipe happens regardless.
      const revoke = deps.api.call(session.logout, {}, { silent: true }).catch(() => undefined);
      await Promise.race([revoke, new Promise((resolve) => setTimeout(resolve, LOGOUT_GRACE_MS))]);
      deps.credentials.set(null);
      await clearAllStorage();
    },
  };
}
