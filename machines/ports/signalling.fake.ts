/**
 * In-memory call signalling. `FakeSignallingNetwork` plays the service for any number of
 * `FakeSignallingPort` clients (auto mode: accounts with tokens, one login per account, the
 * older one dropped, signals with unique ids to connected peers only); in manual mode
 * `login`, `logout` and `send` wait for the test (`port.pending.next('send').resolve(signal)`),
 * and `emit` pushes any event.
 */
import { FakeClientPort } from './fake-client';
import { SignalFailure, TEXT_PEER_UNAVAILABLE } from './signalling.port';
import type { CallSignal, SignalEvent, SignallingPort } from './signalling.port';
import type { SignalAction } from '../codes/call.codes';

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

export class FakeSignallingPort extends FakeClientPort<SignalEvent, FakeSignallingNetwork> implements SignallingPort {
  constructor(network: FakeSignallingNetwork = new FakeSignallingNetwork(), mode: 'auto' | 'manual' = 'auto') {
    super(network, mode);
  }

  /** @internal */
  linkDropped(): void {
    this.account = null;
    this.push({ type: 'disconnected' });
  }

  protected override loggedIn(): void {
    this.push({ type: 'connected' });
  }

  async send(to: string, signal: { action: SignalAction; channelId: string; payload?: Record<string, unknown> }): Promise<CallSignal> {
    if (this.mode === 'manual') return this.pending.add<CallSignal>('send', [to, signal]);
    const me = this.loggedInAs;
    if (!me) throw new SignalFailure('disconnected', 'not logged in');
    return this.network.send(me, to, signal);
  }
}
