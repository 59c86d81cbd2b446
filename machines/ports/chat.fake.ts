/**
 * In-memory chat requests. `FakeChatServer` keeps what the reference server keeps for them
 * (SPEC §7 blockUser / removeBlockUser, uploadPrivateInfo, privateInfo): the people with their
 * diamonds and whether they are hosts, whom each blocked, the secret messages and their unlocks,
 * and the payments under their idempotency keys (the same payment again answers as the first
 * did). A payment short of diamonds takes nothing and says TEXT_SECRET_NOT_ENOUGH_DIAMONDS.
 * `FakeChatApiPort` is one signed-in person's port: in auto mode it asks the server at once;
 * `loseNextAnswer()` lets the next call happen on the server and then rejects it with
 * UnansweredError, as an answer lost on the way back does. In manual mode every call waits for
 * the test (`pending.next('openSecret')`, 'setBlocked', 'storeSecret'), the names the session's
 * tests settle; a shared `pending` may be passed in.
 */
import { UnansweredError } from '../shared/intent-key';
import { TEXT_SECRET_NOT_ENOUGH_DIAMONDS } from './chat.port';
import type { ChatApiPort, SecretInfo } from './chat.port';
import { PendingCalls } from './pending';

export class FakeChatError extends Error {
  override name = 'FakeChatError';
}

export const TEXT_FAKE_NO_SUCH_USER = 'no.match.user';
export const TEXT_FAKE_HOSTS_ONLY = 'Only hosts can send secret messages.';
export const TEXT_FAKE_REFUSED = 'This user does not accept your messages.';
export const TEXT_FAKE_NO_SUCH_SECRET = 'This secret message does not exist.';

interface Secret {
  id: number;
  from: string;
  to: string;
  price: number;
  content: string;
  unlocked: boolean;
}

export class FakeChatServer {
  private readonly people = new Map<string, { diamonds: number; host: boolean }>();
  private readonly blocks = new Set<string>();
  private readonly secrets = new Map<number, Secret>();
  private readonly payments = new Map<string, SecretInfo>();

  /** Someone the service knows: their IM account, diamonds, and whether a host. */
  register(account: string, { diamonds = 0, host = false }: { diamonds?: number; host?: boolean } = {}): void {
    this.people.set(account, { diamonds, host });
  }

  diamondsOf(account: string): number {
    return this.people.get(account)?.diamonds ?? 0;
  }

  /** Whether `by` blocked `peer`. */
  isBlocked(by: string, peer: string): boolean {
    return this.blocks.has(`${by}>${peer}`);
  }

  /** @internal */
  setBlocked(by: string, peer: string, blocked: boolean): void {
    if (!this.people.has(peer)) throw new FakeChatError(TEXT_FAKE_NO_SUCH_USER);
    if (blocked) this.blocks.add(`${by}>${peer}`);
    else this.blocks.delete(`${by}>${peer}`);
  }

  /** @internal */
  storeSecret(from: string, { to, price, content }: { to: string; price: number; content: string }): Record<string, unknown> {
    if (!this.people.get(from)?.host) throw new FakeChatError(TEXT_FAKE_HOSTS_ONLY);
    if (!this.people.has(to)) throw new FakeChatError(TEXT_FAKE_NO_SUCH_USER);
    if (this.isBlocked(to, from)) throw new FakeChatError(TEXT_FAKE_REFUSED);
    const id = this.secrets.size + 1;
    this.secrets.set(id, { id, from, to, price, content, unlocked: false });
    return { extensionType: 'privateMsg', data: { id, price } };
  }

  /** @internal */
  openSecret(caller: string, id: number, payment?: { idempotencyKey: string }): SecretInfo {
    const secret = this.secrets.get(id);
    if (!secret || (caller !== secret.from && caller !== secret.to)) throw new FakeChatError(TEXT_FAKE_NO_SUCH_SECRET);
    if (!payment) return this.show(secret, caller);
    const key = `${caller}:${payment.idempotencyKey}`;
    const replay = this.payments.get(key);
    if (replay) return replay;
    if (caller === secret.to && !secret.unlocked) {
      const payer = this.people.get(caller)!;
      // Refused: nothing taken, nothing kept under the key.
      if (payer.diamonds < secret.price) throw new Error(TEXT_SECRET_NOT_ENOUGH_DIAMONDS);
      payer.diamonds -= secret.price;
      secret.unlocked = true;
    }
    const answer = this.show(secret, caller);
    this.payments.set(key, answer);
    return answer;
  }

  private show(secret: Secret, caller: string): SecretInfo {
    const open = caller === secret.from || secret.unlocked;
    return {
      id: secret.id,
      price: secret.price,
      unlocked: open,
      content: open ? secret.content : null,
      mediaList: [],
      balance: this.diamondsOf(caller),
    };
  }
}

export class FakeChatApiPort implements ChatApiPort {
  private loseNext = false;

  constructor(
    private readonly server: FakeChatServer = new FakeChatServer(),
    /** The signed-in person's IM account. */
    readonly account: string = 'me',
    readonly mode: 'auto' | 'manual' = 'auto',
    readonly pending: PendingCalls = new PendingCalls(),
  ) {}

  /** The next call is carried out, but its answer never comes: it rejects with UnansweredError. */
  loseNextAnswer(): void {
    this.loseNext = true;
  }

  async setBlocked(peer: string, blocked: boolean): Promise<void> {
    if (this.mode === 'manual') return this.pending.add('setBlocked', [peer, blocked]);
    return this.answer(() => this.server.setBlocked(this.account, peer, blocked));
  }

  async storeSecret(secret: { to: string; price: number; content: string }): Promise<Record<string, unknown>> {
    if (this.mode === 'manual') return this.pending.add('storeSecret', [secret]);
    return this.answer(() => this.server.storeSecret(this.account, secret));
  }

  async openSecret(id: number, payment?: { idempotencyKey: string }): Promise<SecretInfo> {
    if (this.mode === 'manual') return this.pending.add('openSecret', [id, payment]);
    return this.answer(() => this.server.openSecret(this.account, id, payment));
  }

  private answer<T>(act: () => T): T {
    const lost = this.loseNext;
    this.loseNext = false;
    const result = act();
    if (lost) throw new UnansweredError('No answer came.');
    return result;
  }
}
