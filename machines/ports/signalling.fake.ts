/**
 * In-memory call signalling. `FakeSignallingNetwork` plays the service for any number of
 * `FakeSignallingPort` clients (auto mode: accounts with tokens, one login per account, the
 * older one dropped, signals with unique ids to connected peers only); in manual mode
 * `login`, `logout` and `send` wait for the test (`port.pending.next('send').resolve(signal)`),
 * and `emit` pushes any event.
 */
import { PendingCalls } from './pending';
import { SignalFailure, TEXT_PEER_UNAVAILABLE } from './signalling.port';
import type { CallSignal, SignalAction, SignalEvent, SignallingPort } from './signalling.port';

/** A refusal of the fake service's login (wrong token). */
export class FakeSignallingError extends Error {
  override name = 'FakeSignallingError';
}

export class FakeSignallingNetwork {
  private readonly tokens = new Map<string, string>();
  private readonly online = new Map<string, FakeSignallingPort>();
  private seq = 0;
  private clock = 1_700_000_000_000;

  register(account: string, token: string): void {
    this.tokens.set(account, token);
  }

  /** Drops the link of `account` as a network fault would. */
  dropLink(account: string): void {
    const port = this.online.get(account);
    if (!port) return;
    this.online.delete(account);
    port.linkDropped();
  }

  isOnline(port: FakeSignallingPort, account: string): boolean {
    return this.online.get(account) === port;
  }

  login(port: FakeSignallingPort, account: string, token: string): void {
    if (this.tokens.get(account) !== token) throw new FakeSignallingError('token invalid');
    const older = this.online.get(account);
    this.online.set(account, port);
    if (older && older !== port) older.linkDropped();
  }

  logout(port: FakeSignallingPort, account: string): void {
    if (this.online.get(account) === port) this.online.delete(account);
  }

  send(from: string, to: string, body: { action: SignalAction; channelId: string; payload?: Record<string, unknown> }): CallSignal {
    const peer = this.online.get(to);
    if (!peer) throw new SignalFailure('unavailable', TEXT_PEER_UNAVAILABLE);
    this.clock += 1;
    const signal: CallSignal = {
      id: `sig${++this.seq}`,
      action: body.action,
      channelId: body.channelId,
      from,
      to,
      time: this.clock,
      ...(body.payload !== undefined ? { payload: body.payload } : {}),
    };
    peer.push({ type: 'signal', signal });
    return signal;
  }
}

export class FakeSignallingPort implements SignallingPort {
  readonly pending = new PendingCalls();
  private readonly listeners = new Set<(event: SignalEvent) => void>();
  private account: string | null = null;

  constructor(
    private readonly network: FakeSignallingNetwork = new FakeSignallingNetwork(),
    private readonly mode: 'auto' | 'manual' = 'auto',
  ) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  get loggedInAs(): string | null {
    return this.account && this.network.isOnline(this, this.account) ? this.account : null;
  }

  /** Test hook: deliver any event to the subscribers. */
  emit(event: SignalEvent): void {
    this.push(event);
  }

  /** @internal called by the network */
  push(event: SignalEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** @internal */
  linkDropped(): void {
    this.account = null;
    this.push({ type: 'disconnected' });
  }

  async login(account: string, token: string): Promise<void> {
    if (this.mode === 'manual') {
      await this.pending.add<void>('login', [account, token]);
      this.account = account;
      this.push({ type: 'connected' });
      return;
    }
    this.network.login(this, account, token);
    this.account = account;
    this.push({ type: 'connected' });
  }

  async logout(): Promise<void> {
    if (this.mode === 'manual') await this.pending.add<void>('logout', []);
    if (this.account) this.network.logout(this, this.account);
    this.account = null;
  }

  async send(to: string, signal: { action: SignalAction; channelId: string; payload?: Record<string, unknown> }): Promise<CallSignal> {
    if (this.mode === 'manual') return this.pending.add<CallSignal>('send', [to, signal]);
    const me = this.loggedInAs;
    if (!me) throw new SignalFailure('disconnected', 'not logged in');
    return this.network.send(me, to, signal);
  }

  subscribe(listener: (event: SignalEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
