/**
 * In-memory money out (withdraw.port.ts), one host's. In auto mode it keeps what the reference
 * server keeps for them: the income and its ledger (newest first), the collection methods (the
 * number kept whole here, answered masked), the withdrawal password with its wrong attempts and
 * lock (PASSWORD_ATTEMPTS, PASSWORD_LOCK_MS against the injected `now`), the withdrawals and the
 * rules (`rules`, `kinds`, `providers`, settable). Applying takes the amount from the income at
 * once (held) and answers what the same key answered first; the test acts as the operator
 * (`process`, `pay`, `refuse`: a refused one returns its amount exactly once) and as the host's
 * earnings (`earn`). `refuseNextApply(error)` and `loseNextAnswer()` make the next apply refused,
 * or carried out with its answer lost (an UnansweredError). Refusals are the errors the HTTP
 * adapter throws for the server's: PasswordRefusedError, AccountRefusedError naming the field the
 * server's text is about, Error with the server's text. In manual mode every call waits for the
 * test under the port's method names (`pending.next('apply')`); a shared `pending` may be passed in.
 */
import {
  HELD_STATUSES, MAX_ACCOUNTS, PASSWORD_ATTEMPTS, PASSWORD_LOCK_MS, TEXT_ACCOUNT_EXISTS, TEXT_ACCOUNT_NOT_FOUND, TEXT_PASSWORD_FORMAT,
  TEXT_PASSWORD_NOT_SET, TEXT_PASSWORD_SAME, TEXT_PASSWORD_SET_ALREADY, TEXT_RECORD_ENDED, TEXT_RECORD_NOT_FOUND, TEXT_TOO_MANY_ACCOUNTS,
  accountProblems, amountProblem, isPasswordFormat, maskAccount, normalisedDraft, quoteOf, textPasswordLocked, textWrongPassword, utcWeekday,
} from '../codes/withdraw.codes';
import type { AccountDraft, AccountKind, IncomeKind, WithdrawRules } from '../codes/withdraw.codes';
import { UnansweredError } from '../shared/intent-key';
import { PendingCalls } from './pending';
import { AccountRefusedError, PasswordRefusedError } from './withdraw.port';
import type {
  CollectionMethod, HostBalance, HostWalletSummary, IncomeEntry, IncomeQuery, WithdrawConfig, WithdrawPort, WithdrawRequest, WithdrawalRecord,
} from './withdraw.port';

/** The reference server's seeded rules. */
export const FAKE_WITHDRAW_RULES: WithdrawRules = { minimum: 1000, maximum: 100_000, feePercent: 5, rate: 100, allowedDays: [1, 2, 3, 4, 5, 6, 7] };
export const FAKE_PROVIDERS: readonly string[] = ['PayPal', 'GCash', 'Paytm'];
export const TEXT_FAKE_KIND_NOT_OFFERED = 'This kind of collection method is not offered.';

export interface FakeWithdrawOptions {
  /** Income to start with (one 'call' entry in the ledger). */
  income?: number;
  diamonds?: number;
  /** A withdrawal password set already. */
  password?: string;
  rules?: WithdrawRules;
  kinds?: readonly AccountKind[];
  providers?: readonly string[];
  /** The clock of the ledger, the lock and the allowed days (default Date.now). */
  now?: () => number;
}

export class FakeWithdrawPort implements WithdrawPort {
  rules: WithdrawRules;
  kinds: AccountKind[];
  providers: string[];
  income = 0;
  diamonds: number;
  /** Newest first. */
  readonly flows: IncomeEntry[] = [];
  /** Newest first, each with its whole number. */
  readonly methods: (CollectionMethod & { accountNumber: string })[] = [];
  /** Newest first. */
  readonly withdrawals: WithdrawalRecord[] = [];
  /** Every apply asked for, in order (a replay too). */
  readonly requests: WithdrawRequest[] = [];
  password: string | null;
  failedAttempts = 0;
  lockedUntil = 0;
  private readonly byKey = new Map<string, WithdrawalRecord>();
  private readonly now: () => number;
  private refusal: Error | null = null;
  private loseNext = false;

  constructor(
    readonly mode: 'auto' | 'manual' = 'auto',
    options: FakeWithdrawOptions = {},
    readonly pending: PendingCalls = new PendingCalls(),
  ) {
    this.rules = { ...(options.rules ?? FAKE_WITHDRAW_RULES) };
    this.kinds = [...(options.kinds ?? ['bank', 'ewallet', 'usdt'])];
    this.providers = [...(options.providers ?? FAKE_PROVIDERS)];
    this.diamonds = options.diamonds ?? 0;
    this.password = options.password ?? null;
    this.now = options.now ?? (() => Date.now());
    if (options.income) this.earn(options.income, 'call');
  }

  /** The next apply is refused with `error`. */
  refuseNextApply(error: Error): void {
    this.refusal = error;
  }

  /** The next apply is carried out, but its answer never comes: it rejects with UnansweredError. */
  loseNextAnswer(): void {
    this.loseNext = true;
  }

  async balance(): Promise<HostBalance> {
    if (this.mode === 'manual') return this.pending.add('balance', []);
    return this.balanceNow();
  }

  async summary(): Promise<HostWalletSummary> {
    if (this.mode === 'manual') return this.pending.add('summary', []);
    const earned = this.flows.filter((f) => f.amount > 0 && f.kind !== 'withdrawalReturned').reduce((sum, f) => sum + f.amount, 0);
    const paidOut = this.withdrawals.filter((w) => w.status === 'paid').reduce((sum, w) => sum + w.amount, 0);
    return { ...this.balanceNow(), earned, paidOut, diamonds: this.diamonds, hasPassword: this.password !== null };
  }

  async incomeFlows(query: IncomeQuery): Promise<IncomeEntry[]> {
    if (this.mode === 'manual') return this.pending.add('incomeFlows', [query]);
    const rows = this.flows.filter((f) => (query.kind === undefined || f.kind === query.kind)
      && (query.from === undefined || f.createdAt >= query.from) && (query.to === undefined || f.createdAt < query.to));
    return pageOf(rows, query).map((f) => ({ ...f }));
  }

  async accounts(): Promise<CollectionMethod[]> {
    if (this.mode === 'manual') return this.pending.add('accounts', []);
    return this.methods.map(({ accountNumber: _, ...shown }) => ({ ...shown }));
  }

  async addAccount(draft: AccountDraft): Promise<CollectionMethod> {
    if (this.mode === 'manual') return this.pending.add('addAccount', [draft]);
    const d = normalisedDraft(draft);
    if (!this.kinds.includes(d.kind)) throw new AccountRefusedError(TEXT_FAKE_KIND_NOT_OFFERED);
    // The server says the first problem; the adapter names its field.
    const [first] = Object.entries(accountProblems(d, this.providers) ?? {});
    if (first) throw new AccountRefusedError(first[1], { [first[0]]: first[1] });
    if (this.methods.length >= MAX_ACCOUNTS) throw new AccountRefusedError(TEXT_TOO_MANY_ACCOUNTS);
    if (this.methods.some((m) => m.kind === d.kind && m.accountNumber === d.accountNumber)) throw new AccountRefusedError(TEXT_ACCOUNT_EXISTS);
    const method = {
      id: (this.methods[0]?.id ?? 0) + 1, kind: d.kind, holderName: d.holderName, institution: d.institution, chain: d.chain,
      masked: maskAccount(d.kind, d.accountNumber), createdAt: this.now(), accountNumber: d.accountNumber,
    };
    this.methods.unshift(method);
    const { accountNumber: _, ...shown } = method;
    return { ...shown };
  }

  async config(): Promise<WithdrawConfig> {
    if (this.mode === 'manual') return this.pending.add('config', []);
    return {
      ...this.rules, allowedDays: [...this.rules.allowedDays], kinds: [...this.kinds], providers: [...this.providers],
      openToday: this.rules.allowedDays.includes(utcWeekday(this.now())), hasPassword: this.password !== null,
    };
  }

  async setPassword(password: string, oldPassword?: string): Promise<void> {
    if (this.mode === 'manual') return this.pending.add('setPassword', oldPassword === undefined ? [password] : [password, oldPassword]);
    if (!isPasswordFormat(password)) throw new Error(TEXT_PASSWORD_FORMAT);
    if (this.password === null) {
      this.password = password;
      return;
    }
    if (oldPassword === undefined) throw new Error(TEXT_PASSWORD_SET_ALREADY);
    this.check(oldPassword);
    if (password === oldPassword) throw new Error(TEXT_PASSWORD_SAME);
    this.password = password;
  }

  async apply(request: WithdrawRequest): Promise<WithdrawalRecord> {
    this.requests.push(request);
    if (this.mode === 'manual') return this.pending.add('apply', [request]);
    const refusal = this.refusal;
    this.refusal = null;
    if (refusal) throw refusal;
    const record = this.byKey.get(request.idempotencyKey) ?? this.take(request);
    this.byKey.set(request.idempotencyKey, record);
    const lost = this.loseNext;
    this.loseNext = false;
    if (lost) throw new UnansweredError('No answer came.');
    return { ...record };
  }

  async records(query: { page: number; pageSize: number }): Promise<WithdrawalRecord[]> {
    if (this.mode === 'manual') return this.pending.add('records', [query]);
    return pageOf(this.withdrawals, query).map((r) => ({ ...r }));
  }

  /** The host earns income (a call, a gift...): one ledger entry. */
  earn(amount: number, kind: IncomeKind = 'call'): void {
    this.flow(amount, kind);
  }

  /** The operator takes an applied withdrawal. */
  process(id: number): WithdrawalRecord {
    return this.move(id, ['applied'], 'processing');
  }

  /** The operator paid it. */
  pay(id: number): WithdrawalRecord {
    return this.move(id, HELD_STATUSES, 'paid');
  }

  /** The operator refused it: its amount returns to the income, once (an ended one is refused). */
  refuse(id: number, reason: string): WithdrawalRecord {
    const record = this.move(id, HELD_STATUSES, 'refused', reason);
    this.flow(record.amount, 'withdrawalReturned');
    return record;
  }

  private balanceNow(): HostBalance {
    const held = this.withdrawals.filter((w) => HELD_STATUSES.includes(w.status)).reduce((sum, w) => sum + w.amount, 0);
    const withdrawable = this.income < this.rules.minimum ? 0 : Math.min(this.income, this.rules.maximum);
    return { income: this.income, held, withdrawable };
  }

  private flow(amount: number, kind: IncomeKind): void {
    this.income += amount;
    this.flows.unshift({ id: (this.flows[0]?.id ?? 0) + 1, kind, amount, balance: this.income, createdAt: this.now() });
  }

  /** A wrong password counts; the PASSWORD_ATTEMPTS-th in a row locks. A right one starts the count again. */
  private check(password: string): void {
    const now = this.now();
    if (this.lockedUntil > now) throw new PasswordRefusedError(textPasswordLocked(this.lockedUntil - now), true);
    if (password === this.password) {
      this.failedAttempts = 0;
      return;
    }
    this.failedAttempts += 1;
    if (this.failedAttempts >= PASSWORD_ATTEMPTS) {
      this.failedAttempts = 0;
      this.lockedUntil = now + PASSWORD_LOCK_MS;
      throw new PasswordRefusedError(textPasswordLocked(PASSWORD_LOCK_MS), true);
    }
    throw new PasswordRefusedError(textWrongPassword(PASSWORD_ATTEMPTS - this.failedAttempts), false);
  }

  private take({ amount, accountId, password }: WithdrawRequest): WithdrawalRecord {
    if (this.lockedUntil > this.now()) throw new PasswordRefusedError(textPasswordLocked(this.lockedUntil - this.now()), true);
    if (this.password === null) throw new Error(TEXT_PASSWORD_NOT_SET);
    this.check(password);
    const method = this.methods.find((m) => m.id === accountId);
    if (!method) throw new Error(TEXT_ACCOUNT_NOT_FOUND);
    const problem = amountProblem(this.rules, amount, this.income, this.now());
    if (problem) throw new Error(problem);
    const { fee, usd } = quoteOf(this.rules, amount);
    const record: WithdrawalRecord = {
      id: (this.withdrawals[0]?.id ?? 0) + 1, amount, fee, usd, status: 'applied', reason: '', accountKind: method.kind,
      accountLabel: `${method.institution || method.chain} ${method.masked}`, createdAt: this.now(), updatedAt: this.now(),
    };
    this.flow(-amount, 'withdrawal');
    this.withdrawals.unshift(record);
    return record;
  }

  private move(id: number, from: readonly WithdrawalRecord['status'][], status: WithdrawalRecord['status'], reason = ''): WithdrawalRecord {
    const record = this.withdrawals.find((w) => w.id === id);
    if (!record) throw new Error(TEXT_RECORD_NOT_FOUND);
    if (!from.includes(record.status)) throw new Error(TEXT_RECORD_ENDED);
    Object.assign(record, { status, reason, updatedAt: this.now() });
    return { ...record };
  }
}

const pageOf = <T>(rows: readonly T[], { page, pageSize }: { page: number; pageSize: number }): T[] =>
  rows.slice((page - 1) * pageSize, page * pageSize);
