/**
 * In-memory tokens of one signed-in person. In auto mode each call issues a new token and
 * registers it with the fake IM network (`refreshIm`) or the fake signalling network (`rtm`),
 * when given, so that their logins accept it, as the server's do. `signedIn: false` refuses
 * both, as the server refuses a request without a session. In manual mode every call waits for
 * the test (`pending.next('rtmToken')`, `pending.next('refreshImToken')`), the names the
 * session's tests settle; a shared `pending` may be passed in.
 */
import type { FakeImNetwork } from './im.fake';
import { PendingCalls } from './pending';
import type { FakeSignallingNetwork } from './signalling.fake';
import type { TokensPort } from './tokens.port';

export const TEXT_FAKE_NO_SESSION = 'Token invalid, please log in again';

export interface FakeTokensOptions {
  im?: FakeImNetwork;
  signalling?: FakeSignallingNetwork;
  /** false: no session, every call refused. */
  signedIn?: boolean;
}

export class FakeTokensPort implements TokensPort {
  /** Every token issued, in order. */
  readonly issued: { kind: 'im' | 'rtm'; token: string }[] = [];

  constructor(
    readonly account: string,
    readonly mode: 'auto' | 'manual' = 'auto',
    private readonly options: FakeTokensOptions = {},
    readonly pending: PendingCalls = new PendingCalls(),
  ) {}

  async refreshIm(): Promise<string> {
    if (this.mode === 'manual') return this.pending.add('refreshImToken', []);
    const token = this.issue('im');
    this.options.im?.register(this.account, token);
    return token;
  }

  async rtm(): Promise<string> {
    if (this.mode === 'manual') return this.pending.add('rtmToken', []);
    const token = this.issue('rtm');
    this.options.signalling?.register(this.account, token);
    return token;
  }

  private issue(kind: 'im' | 'rtm'): string {
    if (this.options.signedIn === false) throw new Error(TEXT_FAKE_NO_SESSION);
    const token = `${kind}-${this.account}-${this.issued.length + 1}`;
    this.issued.push({ kind, token });
    return token;
  }
}
