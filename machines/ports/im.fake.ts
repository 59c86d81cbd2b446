/**
 * In-memory IM. `FakeImNetwork` plays the service for any number of `FakeImPort` clients
 * (auto mode: accounts, p2p delivery with server ids, offline delivery, conversations with
 * unread counts, history, kicks, refusals, a client's system message refused); in manual mode `login`, `logout`, `ping` and
 * `sendText` wait for the test (`port.pending.next('login').resolve()`), and `emit` pushes any event.
 */
import { ImCode, ImError } from './im.port';
import type {
  ImConversation, ImEvent, ImMessage, ImNotification, ImPort, SendOptions,
} from './im.port';
import { PendingCalls } from './pending';
import { systemAttachOf } from '../system-messages/system-messages';

/** The service's refusal of a request it does not allow (NetEase's and the reference hub's 403). */
const NOT_ALLOWED = 403;

interface Stored {
  message: ImMessage;
  /** Per-recipient delivery: undelivered messages wait for the next login. */
  delivered: boolean;
}

export class FakeImNetwork {
  private readonly tokens = new Map<string, string>();
  private readonly online = new Map<string, FakeImPort>();
  /** Every message by id, and each account's view (history and conversations). */
  private readonly inbox = new Map<string, Stored[]>();
  private readonly outboxIds = new Map<string, ImMessage>();
  private readonly unread = new Map<string, Map<string, number>>();
  private readonly cleared = new Map<string, Map<string, number>>();
  private readonly pendingNotifications = new Map<string, ImNotification[]>();
  private readonly blocked = new Set<string>();
  private seq = 0;
  private clock = 1_700_000_000_000;

  register(account: string, token: string): void {
    this.tokens.set(account, token);
  }

  /** `blocker` refuses messages from `blocked` (SPEC §8: code 7101). */
  block(blocker: string, blockedAccount: string): void {
    this.blocked.add(`${blocker}<${blockedAccount}`);
  }

  /** Drops the link of `account` as a network fault would. */
  dropLink(account: string, code: number = ImCode.linkLost): void {
    const port = this.online.get(account);
    if (!port) return;
    this.online.delete(account);
    port.linkDropped(code);
  }

  now(): number {
    this.clock += 1;
    return this.clock;
  }

  login(port: FakeImPort, account: string, token: string): void {
    if (this.tokens.get(account) !== token) throw new ImError(ImCode.tokenInvalid, 'token invalid');
    const older = this.online.get(account);
    if (older && older !== port) older.kicked();
    this.online.set(account, port);
    for (const stored of this.inbox.get(account) ?? []) {
      if (stored.delivered || stored.message.flow === 'out') continue;
      stored.delivered = true;
      port.push({ type: 'message', message: stored.message });
    }
    for (const n of this.pendingNotifications.get(account) ?? []) port.push({ type: 'notification', notification: n });
    this.pendingNotifications.delete(account);
    port.push({ type: 'unread', total: this.totalUnread(account) });
  }

  logout(port: FakeImPort, account: string): void {
    if (this.online.get(account) === port) this.online.delete(account);
  }

  /** Whether some client of `account` is logged in. */
  isOnlineAccount(account: string): boolean {
    return this.online.has(account);
  }

  isOnline(port: FakeImPort, account: string): boolean {
    return this.online.get(account) === port;
  }

  send(from: string, to: string, body: Pick<ImMessage, 'type' | 'text' | 'attach' | 'ext'>, options: SendOptions = {}): ImMessage {
    const idClient = options.idClient ?? `c${++this.seq}`;
    const key = `${from}/${idClient}`;
    const existing = this.outboxIds.get(key);
    if (existing) return existing; // a retry of a message already stored
    if (this.blocked.has(`${to}<${from}`)) throw new ImError(ImCode.refused, 'refused by the peer');

    const time = this.now();
    const base = { idClient, idServer: `s${++this.seq}`, from, to, scene: 'p2p' as const, time, status: 'sent' as const, ...body };
    const outgoing: ImMessage = { ...base, sessionId: to, flow: 'out' };
    const incoming: ImMessage = { ...base, sessionId: from, flow: 'in' };
    this.outboxIds.set(key, outgoing);
    this.store(from, outgoing, true);
    const recipient = this.online.get(to);
    this.store(to, incoming, Boolean(recipient));
    const counts = this.unreadOf(to);
    counts.set(from, (counts.get(from) ?? 0) + 1);
    if (recipient) {
      recipient.push({ type: 'message', message: incoming });
      recipient.push({ type: 'conversation', conversation: this.conversation(to, from)! });
      recipient.push({ type: 'unread', total: this.totalUnread(to) });
    }
    return outgoing;
  }

  notify(from: string, to: string, content: Record<string, unknown>): void {
    const notification: ImNotification = { idServer: `n${++this.seq}`, from, to, time: this.now(), content };
    const recipient = this.online.get(to);
    if (recipient) recipient.push({ type: 'notification', notification });
    else this.pendingNotifications.set(to, [...(this.pendingNotifications.get(to) ?? []), notification]);
  }

  conversations(account: string, limit: number): ImConversation[] {
    const peers = new Set((this.inbox.get(account) ?? []).map((s) => s.message.sessionId));
    return [...peers]
      .map((peer) => this.conversation(account, peer))
      .filter((c): c is ImConversation => c !== null)
      .sort((a, b) => b.updateTime - a.updateTime)
      .slice(0, limit);
  }

  markRead(account: string, peer: string): void {
    this.unreadOf(account).set(peer, 0);
    this.online.get(account)?.push({ type: 'unread', total: this.totalUnread(account) });
  }

  history(account: string, peer: string, limit: number, before = Infinity): ImMessage[] {
    const from = this.cleared.get(account)?.get(peer) ?? 0;
    return (this.inbox.get(account) ?? [])
      .map((s) => s.message)
      .filter((m) => m.sessionId === peer && m.time < before && m.time > from)
      .sort((a, b) => b.time - a.time)
      .slice(0, limit);
  }

  clearHistory(account: string, peer: string): void {
    const cleared = this.cleared.get(account) ?? new Map<string, number>();
    cleared.set(peer, this.now());
    this.cleared.set(account, cleared);
  }

  totalUnread(account: string): number {
    return [...this.unreadOf(account).values()].reduce((n, c) => n + c, 0);
  }

  private conversation(account: string, peer: string): ImConversation | null {
    const last = this.history(account, peer, 1)[0] ?? null;
    const any = (this.inbox.get(account) ?? []).some((s) => s.message.sessionId === peer);
    if (!any) return null;
    return { id: peer, to: peer, lastMsg: last, updateTime: last?.time ?? 0, unread: this.unreadOf(account).get(peer) ?? 0 };
  }

  private store(account: string, message: ImMessage, delivered: boolean): void {
    this.inbox.set(account, [...(this.inbox.get(account) ?? []), { message, delivered }]);
  }

  private unreadOf(account: string): Map<string, number> {
    let counts = this.unread.get(account);
    if (!counts) {
      counts = new Map();
      this.unread.set(account, counts);
    }
    return counts;
  }
}

export class FakeImPort implements ImPort {
  readonly pending = new PendingCalls();
  private readonly listeners = new Set<(event: ImEvent) => void>();
  private account: string | null = null;

  constructor(
    private readonly network: FakeImNetwork = new FakeImNetwork(),
    private readonly mode: 'auto' | 'manual' = 'auto',
  ) {}

  get listenerCount(): number {
    return this.listeners.size;
  }

  get loggedInAs(): string | null {
    return this.account && this.network.isOnline(this, this.account) ? this.account : null;
  }

  /** Test hook: deliver any event to the subscribers. */
  emit(event: ImEvent): void {
    this.push(event);
  }

  /** @internal called by the network */
  push(event: ImEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  /** @internal */
  kicked(): void {
    this.account = null;
    this.push({ type: 'kicked' });
  }

  /** @internal */
  linkDropped(code: number): void {
    this.push({ type: 'disconnected', code });
  }

  async login(account: string, token: string): Promise<void> {
    if (this.mode === 'manual') {
      await this.pending.add<void>('login', [account, token]);
      this.account = account;
      return;
    }
    this.network.login(this, account, token);
    this.account = account;
  }

  async logout(): Promise<void> {
    if (this.mode === 'manual') await this.pending.add<void>('logout', []);
    if (this.account) this.network.logout(this, this.account);
    this.account = null;
  }

  subscribe(listener: (event: ImEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private me(): string {
    const account = this.mode === 'manual' ? this.account : this.loggedInAs;
    if (!account) throw new ImError(ImCode.linkLost, 'not logged in');
    return account;
  }

  async sendText(to: string, text: string, options?: SendOptions): Promise<ImMessage> {
    if (this.mode === 'manual') return this.pending.add('sendText', [to, text, options]);
    return this.network.send(this.me(), to, { type: 'text', text, ext: options?.ext }, options);
  }

  async sendCustom(to: string, attach: Record<string, unknown>, options?: SendOptions): Promise<ImMessage> {
    return this.network.send(this.me(), to, { type: 'custom', attach, ext: options?.ext }, options);
  }

  async sendNotification(to: string, content: Record<string, unknown>): Promise<void> {
    const from = this.me();
    // As the reference hub: a system message comes only from the server.
    if (systemAttachOf(content)) throw new ImError(NOT_ALLOWED, 'System messages come only from the server');
    this.network.notify(from, to, content);
  }

  async conversations(limit: number): Promise<ImConversation[]> {
    return this.network.conversations(this.me(), limit);
  }

  async markRead(conversationId: string): Promise<void> {
    this.network.markRead(this.me(), conversationId);
  }

  async history(peer: string, options: { limit: number; before?: number }): Promise<ImMessage[]> {
    return this.network.history(this.me(), peer, options.limit, options.before);
  }

  async clearHistory(peer: string): Promise<void> {
    this.network.clearHistory(this.me(), peer);
  }

  async ping(): Promise<void> {
    if (this.mode === 'manual') return this.pending.add<void>('ping', []);
    this.me();
  }
}
