/**
 * The plumbing every account-based fake client shares (the IM's and the signalling's): the
 * manual-mode calls the test settles (`port.pending.next('login').resolve()`), the listeners of
 * `subscribe`, `emit` for a test to push any event, and the login and logout against its
 * in-memory network (auto mode) or the test (manual mode). A fake adds its own requests.
 */
import { PendingCalls } from './pending';

/** What a fake network does for a client's session. Methods, so a network of a narrower client fits. */
export interface FakeAccountNetwork {
  isOnline(port: object, account: string): boolean;
  login(port: object, account: string, token: string): void;
  logout(port: object, account: string): void;
}

export abstract class FakeClientPort<E, N extends FakeAccountNetwork> {
  readonly pending = new PendingCalls();
  private readonly listeners = new Set<(event: E) => void>();
  /** Who logged in (manual mode: whoever the test let in). */
  protected account: string | null = null;

  constructor(
    protected readonly network: N,
    protected readonly mode: 'auto' | 'manual' = 'auto',
  ) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  get loggedInAs(): string | null {
    return this.account && this.network.isOnline(this, this.account) ? this.account : null;
  }

  /** Test hook: deliver any event to the subscribers. */
  emit(event: E): void {
    this.push(event);
  }

  /** @internal called by the network */
  push(event: E): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** What the client tells its subscribers once logged in (nothing, unless the port says so). */
  protected loggedIn(): void {}

  async login(account: string, token: string): Promise<void> {
    if (this.mode === 'manual') await this.pending.add<void>('login', [account, token]);
    else this.network.login(this, account, token);
    this.account = account;
    this.loggedIn();
  }

  async logout(): Promise<void> {
    if (this.mode === 'manual') await this.pending.add<void>('logout', []);
    if (this.account) this.network.logout(this, this.account);
    this.account = null;
  }

  subscribe(listener: (event: E) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
