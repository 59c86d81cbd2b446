import { PendingCalls } from './pending';
import type {
  Credentials, MineInfo, Registration, SessionPort, SignInOutcome, StoredAuth,
} from './session.port';

export const sampleAuth = (over: Partial<StoredAuth> = {}): StoredAuth => ({
  loginUuid: 'uuid-1',
  token: 'token-1',
  appId: 'app-1',
  deviceType: 'android',
  deviceId: 'device-1',
  deviceNo: 'device-no-1',
  osType: 'android',
  osVersion: '14',
  appVersion: '1.0.34',
  ...over,
});

export const sampleProfile = (over: Partial<MineInfo> = {}): MineInfo => ({
  userId: 1,
  userType: 2,
  yxAccid: 'yx1',
  imToken: 'im-token',
  icon: '/avatars/1.svg',
  nickname: 'Host One',
  isNewUser: false,
  vipInfo: { isVip: false },
  userLevel: 3,
  picList: [],
  ...over,
});

/**
 * In-memory session port. In manual mode every call waits for the test
 * (`fake.pending.next('loadProfile').resolve(...)`); in auto mode it answers from
 * `accounts` at once.
 */
export class FakeSessionPort implements SessionPort {
  readonly pending = new PendingCalls();
  stored: StoredAuth | null = null;
  forgetCount = 0;

  constructor(
    private readonly mode: 'manual' | 'auto' = 'manual',
    private readonly profiles: Record<string, MineInfo> = {},
  ) {}

  signIn(credentials: Credentials): Promise<SignInOutcome> {
    if (this.mode === 'manual') return this.pending.add('signIn', [credentials]);
    const profile = this.profiles[credentials.account];
    return Promise.resolve(profile
      ? { kind: 'signedIn', auth: sampleAuth({ token: `token-${credentials.account}` }) }
      : { kind: 'refused', message: 'Incorrect account or password.' });
  }

  register(registration: Registration): Promise<SignInOutcome> {
    if (this.mode === 'manual') return this.pending.add('register', [registration]);
    return Promise.resolve({ kind: 'signedIn', auth: sampleAuth({ token: `token-${registration.account}` }) });
  }

  visit(): Promise<SignInOutcome> {
    if (this.mode === 'manual') return this.pending.add('visit', []);
    return Promise.resolve({ kind: 'signedIn', auth: sampleAuth({ token: 'token-visitor' }) });
  }

  loadProfile(auth: StoredAuth): Promise<MineInfo> {
    this.stored = auth;
    if (this.mode === 'manual') return this.pending.add('loadProfile', [auth]);
    const account = auth.token.replace(/^token-/, '');
    const profile = this.profiles[account];
    return profile ? Promise.resolve(profile) : Promise.reject(new Error('unknown token'));
  }

  refreshImToken(): Promise<string> {
    if (this.mode === 'manual') return this.pending.add('refreshImToken', []);
    return Promise.resolve('im-token-refreshed');
  }

  forget(): Promise<void> {
    this.forgetCount += 1;
    if (this.mode === 'manual') {
      return this.pending.add<void>('forget', []).then(() => { this.stored = null; });
    }
    this.stored = null;
    return Promise.resolve();
  }
}
