/**
 * In-memory presence. `FakePresenceServer` keeps each user's status as the reference
 * server does (SPEC §4 Presence): the last code acknowledged, and offline `graceMs` after
 * the user's last socket dropped or closed without having said offline (2).
 * `FakePresencePort` is one socket for a session token: in auto mode `open` and `send`
 * answer at once; in manual mode they wait for the test (`port.pending.next('send')`),
 * and `emit` pushes any event. `drop()` cuts the link as a network fault would.
 */
import { PendingCalls } from './pending';
import { PresenceCode } from './presence.port';
import type { PresenceEvent, PresencePort } from './presence.port';

export class FakePresenceError extends Error {
  override name = 'FakePresenceError';
}

export class FakePresenceServer {
  private readonly sessions = new Map<string, string>();
  private readonly status = new Map<string, PresenceCode>();
  private readonly sockets = new Map<string, Set<FakePresencePort>>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  constructor(readonly graceMs = 15_000) {}

  /** A session token and the user it signs in. */
  register(token: string, user: string): void {
    this.sessions.set(token, user);
  }

  /** The user's stored status; undefined when never heard from. */
  statusOf(user: string): PresenceCode | undefined {
    return this.status.get(user);
  }

  /** @internal */
  connect(port: FakePresencePort, token: string): string {
    const user = this.sessions.get(token);
    if (!user) throw new FakePresenceError('session token invalid');
    clearTimeout(this.timers.get(user));
    this.timers.delete(user);
    const set = this.sockets.get(user) ?? new Set();
    set.add(port);
    this.sockets.set(user, set);
    return user;
  }

  /** @internal */
  record(user: string, code: PresenceCode): void {
    this.status.set(user, code);
  }

  /** @internal */
  disconnect(port: FakePresencePort, user: string): void {
    const set = this.sockets.get(user);
    set?.delete(port);
    if (set && set.size > 0) return;
    if (this.status.get(user) === PresenceCode.offline) return;
    clearTimeout(this.timers.get(user));
    this.timers.set(user, setTimeout(() => {
      this.timers.delete(user);
      if ((this.sockets.get(user)?.size ?? 0) === 0) this.status.set(user, PresenceCode.offline);
    }, this.graceMs));
  }

  /** Stops the grace timers (end of a test). */
  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}

export class FakePresencePort implements PresencePort {
  readonly pending = new PendingCalls();
  /** Every code acknowledged, in order. */
  readonly sent: PresenceCode[] = [];
  private readonly listeners = new Set<(event: PresenceEvent) => void>();
  private user: string | null = null;

  constructor(
    private readonly server: FakePresenceServer = new FakePresenceServer(),
    private readonly token: string = 'session-token',
    private readonly mode: 'auto' | 'manual' = 'auto',
  ) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  get isOpen(): boolean {
    return this.user !== null;
  }

  /** Test hook: deliver any event to the subscribers. */
  emit(event: PresenceEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** Cuts the link as a network fault would: subscribers get `closed`. */
  drop(): void {
    if (!this.user) return;
    this.leave();
    this.emit({ type: 'closed' });
  }

  /** In manual mode the settled call is all there is: the server is not consulted. */
  async open(): Promise<void> {
    if (this.mode === 'manual') {
      await this.pending.add<void>('open', []);
      this.user = this.token;
      return;
    }
    this.leave();
    this.user = this.server.connect(this, this.token);
  }

  async send(code: PresenceCode): Promise<void> {
    if (this.mode === 'manual') {
      await this.pending.add<void>('send', [code]);
      this.sent.push(code);
      return;
    }
    if (!this.user) throw new FakePresenceError('presence socket not open');
    this.server.record(this.user, code);
    this.sent.push(code);
  }

  /** How many times the port was closed. */
  closeCount = 0;

  close(): void {
    this.closeCount += 1;
    this.leave();
  }

  private leave(): void {
    if (this.user && this.mode === 'auto') this.server.disconnect(this, this.user);
    this.user = null;
  }

  subscribe(listener: (event: PresenceEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
