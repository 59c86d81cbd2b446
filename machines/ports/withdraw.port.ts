/**
 * What money out needs from the world (SPEC §2 /wallet sub-views, §6 host: withdrawal, §7 the
 * host's wallet and withdrawal endpoints): the host's balances, the income ledger by page, the
 * collection methods, the withdrawal rules, the password, applying, and the records. The HTTP
 * adapter (src/adapters/http/withdraw.http.ts) maps src/api/contract/withdraw.ts onto it.
 *
 * Failures are Errors whose message is the text to show (the server's words when it said why).
 * An apply that got no answer (no answer, a time-out, a server failure) throws an
 * UnansweredError (machines/shared/intent-key.ts): its key is sent again with the retry.
 */
import type { AccountDraft, AccountKind, AccountProblems, IncomeKind, WithdrawRules, WithdrawStatus } from '../codes/withdraw.codes';

export interface HostBalance {
  /** Income that can be withdrawn (what is held is not in it). */
  income: number;
  /** Held by withdrawals not ended yet. */
  held: number;
  /** What one withdrawal may take now. */
  withdrawable: number;
}

export interface HostWalletSummary extends HostBalance {
  earned: number;
  paidOut: number;
  diamonds: number;
  hasPassword: boolean;
}

export interface IncomeEntry {
  id: number;
  kind: IncomeKind;
  amount: number;
  balance: number;
  createdAt: number;
}

export interface IncomeQuery {
  page: number;
  pageSize: number;
  kind?: IncomeKind;
  /** [from, to) in epoch milliseconds. */
  from?: number;
  to?: number;
}

export interface CollectionMethod {
  id: number;
  kind: AccountKind;
  holderName: string;
  institution: string;
  chain: string;
  /** The number as shown, never whole. */
  masked: string;
  createdAt: number;
}

export interface WithdrawConfig extends WithdrawRules {
  kinds: AccountKind[];
  providers: string[];
  openToday: boolean;
  hasPassword: boolean;
}

export interface WithdrawalRecord {
  id: number;
  amount: number;
  fee: number;
  usd: string;
  status: WithdrawStatus;
  reason: string;
  accountKind: AccountKind;
  accountLabel: string;
  createdAt: number;
  updatedAt: number;
}

export interface WithdrawRequest {
  idempotencyKey: string;
  amount: number;
  accountId: number;
  password: string;
}

/** A refused collection method: the server's problems by field (when it named them) or one text. */
export class AccountRefusedError extends Error {
  constructor(message: string, readonly problems: AccountProblems | null = null) {
    super(message);
    this.name = 'AccountRefusedError';
  }
}

/** A refused password or apply for a wrong password: `locked` when withdrawals are locked now. */
export class PasswordRefusedError extends Error {
  constructor(message: string, readonly locked: boolean) {
    super(message);
    this.name = 'PasswordRefusedError';
  }
}

export interface WithdrawPort {
  balance(): Promise<HostBalance>;
  summary(): Promise<HostWalletSummary>;
  incomeFlows(query: IncomeQuery): Promise<IncomeEntry[]>;
  accounts(): Promise<CollectionMethod[]>;
  /** Throws AccountRefusedError when refused. */
  addAccount(draft: AccountDraft): Promise<CollectionMethod>;
  config(): Promise<WithdrawConfig>;
  /** Sets the password (no old one) or changes it; throws PasswordRefusedError for a wrong old one. */
  setPassword(password: string, oldPassword?: string): Promise<void>;
  /** Throws PasswordRefusedError for a wrong password, UnansweredError for no answer, Error otherwise. */
  apply(request: WithdrawRequest): Promise<WithdrawalRecord>;
  records(query: { page: number; pageSize: number }): Promise<WithdrawalRecord[]>;
}
