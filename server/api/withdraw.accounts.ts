/**
 * A host's collection methods and withdrawal password on the reference server
 * (src/api/contract/withdraw.ts withdrawAccountList, addWithdrawAccount, setWithdrawPassWord;
 * applyWithdrawV2 checks the password too). Rules and texts: machines/codes/withdraw.codes.ts.
 *
 * A method's number is kept whole (the operator pays to it) and only ever leaves masked.
 *
 * The password is a scrypt hash with its own salt (server/auth/password.ts). Checking it runs
 * on the thread pool, outside any transaction; what the check found is then settled inside the
 * caller's transaction (`settle`), against the row as it is then: a wrong password counts one
 * attempt in a row, PASSWORD_ATTEMPTS of them lock withdrawals for PASSWORD_LOCK_MS, a right
 * one starts the count again. A locked host's password is not even checked.
 */
import { ResultCode } from '../../src/api/codes';
import type { WithdrawAccount } from '../../src/api/contract/withdraw';
import {
  MAX_ACCOUNTS, PASSWORD_ATTEMPTS, PASSWORD_LOCK_MS, TEXT_ACCOUNT_EXISTS, TEXT_PASSWORD_FORMAT, TEXT_PASSWORD_NOT_SET,
  TEXT_PASSWORD_SAME, TEXT_PASSWORD_SET_ALREADY, TEXT_TOO_MANY_ACCOUNTS, accountProblems, isPasswordFormat, maskAccount,
  normalisedDraft, textPasswordLocked, textWrongPassword, type AccountDraft, type AccountKind,
} from '../../machines/codes/withdraw.codes';
import { hashPassword, verifyPassword } from '../auth/password';
import type { Db } from '../db/database';
import { ApiError } from './transport';

/** Refused when a request names a kind of collection method the rules do not offer now (the app offers only those). */
export const TEXT_KIND_NOT_OFFERED = 'This kind of collection method is not offered now.';

export interface AccountRow {
  id: number;
  host_id: number;
  kind: AccountKind;
  holder_name: string;
  institution: string;
  chain: string;
  account_number: string;
  created_at: number;
}

/** A method as the host sees it: the number masked. */
export const accountView = (row: AccountRow): WithdrawAccount => ({
  id: row.id,
  kind: row.kind,
  holderName: row.holder_name,
  institution: row.institution,
  chain: row.chain,
  masked: maskAccount(row.kind, row.account_number),
  createdAt: row.created_at,
});

/** How a withdrawal names its method, kept with it: the bank, provider or chain, and the masked number. */
export const accountLabel = (row: AccountRow): string => `${row.institution || row.chain} ${maskAccount(row.kind, row.account_number)}`;

/** What makes a method the same as another of its host and kind: an email and a hexadecimal address in any case. */
function uniqueNumber(d: AccountDraft): string {
  if ((d.kind === 'ewallet' && d.accountNumber.includes('@')) || (d.kind === 'usdt' && d.chain === 'ERC20')) return d.accountNumber.toLowerCase();
  return d.accountNumber;
}

const refuse = (text: string) => new ApiError(ResultCode.invalidRequest, text);

export type WithdrawAccounts = ReturnType<typeof createWithdrawAccounts>;

export function createWithdrawAccounts(db: Db, now: () => number) {
  const list = db.prepare<[number], AccountRow>('SELECT * FROM withdraw_accounts WHERE host_id = ? ORDER BY id DESC');
  const byId = db.prepare<[number, number], AccountRow>('SELECT * FROM withdraw_accounts WHERE id = ? AND host_id = ?');
  const count = db.prepare<[number], number>('SELECT count(*) FROM withdraw_accounts WHERE host_id = ?').pluck();
  const exists = db.prepare<[number, string, string], 1>(
    'SELECT 1 FROM withdraw_accounts WHERE host_id = ? AND kind = ? AND normalised_number = ?',
  ).pluck();
  const insert = db.prepare<Omit<AccountRow, 'id'> & { normalised_number: string }, AccountRow>(
    `INSERT INTO withdraw_accounts (host_id, kind, holder_name, institution, chain, account_number, normalised_number, created_at)
     VALUES (@host_id, @kind, @holder_name, @institution, @chain, @account_number, @normalised_number, @created_at)
     ON CONFLICT (host_id, kind, normalised_number) DO NOTHING RETURNING *`,
  );
  const add = db.transaction((row: Omit<AccountRow, 'id'> & { normalised_number: string }): AccountRow => {
    // A method added already is said so, even at the limit.
    if (exists.get(row.host_id, row.kind, row.normalised_number)) throw refuse(TEXT_ACCOUNT_EXISTS);
    if ((count.get(row.host_id) ?? 0) >= MAX_ACCOUNTS) throw refuse(TEXT_TOO_MANY_ACCOUNTS);
    const added = insert.get(row);
    if (!added) throw refuse(TEXT_ACCOUNT_EXISTS);
    return added;
  });

  return {
    /** The host's methods, newest first, masked. */
    list: (hostId: number): WithdrawAccount[] => list.all(hostId).map(accountView),
    /** The host's own method by id (someone else's reads as none). */
    find: (hostId: number, id: number): AccountRow | undefined => byId.get(id, hostId),
    /** Adds a method checked by its kind's rules; refusals are ApiErrors whose message the host reads. */
    add(hostId: number, draft: AccountDraft, offered: { kinds: readonly AccountKind[]; providers: readonly string[] }): WithdrawAccount {
      if (!offered.kinds.includes(draft.kind)) throw refuse(TEXT_KIND_NOT_OFFERED);
      const problems = accountProblems(draft, offered.providers);
      // The first problem, in the form's order (holder, institution, number or chain).
      if (problems) throw refuse(Object.values(problems)[0]!);
      const d = normalisedDraft(draft);
      return accountView(add({
        host_id: hostId, kind: d.kind, holder_name: d.holderName, institution: d.institution, chain: d.chain,
        account_number: d.accountNumber, normalised_number: uniqueNumber(d), created_at: now(),
      }));
    },
  };
}

interface PasswordRow {
  hash: string;
  failed_attempts: number;
  locked_until: number;
}

/** What checking a password found, before it is settled in a transaction. */
export type PasswordVerdict =
  | { kind: 'none' }
  | { kind: 'locked' }
  | { kind: 'right' | 'wrong'; hash: string };

export type WithdrawPasswords = ReturnType<typeof createWithdrawPasswords>;

export function createWithdrawPasswords(db: Db, now: () => number) {
  const read = db.prepare<[number], PasswordRow>('SELECT hash, failed_attempts, locked_until FROM withdraw_passwords WHERE host_id = ?');
  const failed = db.prepare<[number], number>(
    'UPDATE withdraw_passwords SET failed_attempts = failed_attempts + 1 WHERE host_id = ? RETURNING failed_attempts',
  ).pluck();
  const lock = db.prepare<{ host: number; until: number }>(
    'UPDATE withdraw_passwords SET failed_attempts = 0, locked_until = @until WHERE host_id = @host',
  );
  const reset = db.prepare<[number]>('UPDATE withdraw_passwords SET failed_attempts = 0 WHERE host_id = ? AND failed_attempts > 0');
  const create = db.prepare<{ host: number; hash: string; time: number }>(
    'INSERT INTO withdraw_passwords (host_id, hash, updated_at) VALUES (@host, @hash, @time) ON CONFLICT (host_id) DO NOTHING',
  );
  const replace = db.prepare<{ host: number; old: string; hash: string; time: number }>(
    'UPDATE withdraw_passwords SET hash = @hash, failed_attempts = 0, updated_at = @time WHERE host_id = @host AND hash = @old',
  );

  const lockedFor = (row: PasswordRow | undefined): number => (row ? Math.max(0, row.locked_until - now()) : 0);
  const lockedError = (waitMs: number) => new ApiError(ResultCode.tooManyAttempts, textPasswordLocked(waitMs));

  /** Checks `password` against the host's (not at all when none is set or withdrawals are locked). */
  async function check(hostId: number, password: string): Promise<PasswordVerdict> {
    const row = read.get(hostId);
    if (!row) return { kind: 'none' };
    if (lockedFor(row) > 0) return { kind: 'locked' };
    return { kind: (await verifyPassword(password, row.hash)) ? 'right' : 'wrong', hash: row.hash };
  }

  /**
   * Settles a verdict against the row as it is now (inside the caller's transaction): the
   * refusal to answer, with the attempt counted, or null for a right password (the count starts
   * again). A password changed since the check was made counts nothing and is refused.
   */
  function settle(hostId: number, verdict: PasswordVerdict): ApiError | null {
    const row = read.get(hostId);
    if (!row) return refuse(TEXT_PASSWORD_NOT_SET);
    const wait = lockedFor(row);
    if (wait > 0) return lockedError(wait);
    if (verdict.kind === 'none' || verdict.kind === 'locked' || verdict.hash !== row.hash) {
      return refuse(textWrongPassword(PASSWORD_ATTEMPTS - row.failed_attempts));
    }
    if (verdict.kind === 'right') {
      reset.run(hostId);
      return null;
    }
    const attempts = failed.get(hostId)!;
    if (attempts < PASSWORD_ATTEMPTS) return refuse(textWrongPassword(PASSWORD_ATTEMPTS - attempts));
    lock.run({ host: hostId, until: now() + PASSWORD_LOCK_MS });
    return lockedError(PASSWORD_LOCK_MS);
  }
  const settleNow = db.transaction(settle);

  return {
    check,
    settle,
    has: (hostId: number): boolean => read.get(hostId) !== undefined,

    /** setWithdrawPassWord: sets the first password, or changes it with the old one; refusals are ApiErrors. */
    async set(hostId: number, password: string, oldPassword: string | undefined): Promise<void> {
      if (!isPasswordFormat(password)) throw refuse(TEXT_PASSWORD_FORMAT);
      const row = read.get(hostId);
      if (!row) {
        // An old password sent with the first one means nothing: there is none to check.
        const hash = await hashPassword(password);
        if (create.run({ host: hostId, hash, time: now() }).changes === 0) throw refuse(TEXT_PASSWORD_SET_ALREADY);
        return;
      }
      if (oldPassword === undefined) throw refuse(TEXT_PASSWORD_SET_ALREADY);
      const verdict = await check(hostId, oldPassword);
      const refusal = settleNow(hostId, verdict);
      if (refusal) throw refusal;
      if (password === oldPassword) throw refuse(TEXT_PASSWORD_SAME);
      const hash = await hashPassword(password);
      // Changed only from the password just checked: a change made meanwhile is not overwritten.
      if (verdict.kind !== 'right' || replace.run({ host: hostId, old: verdict.hash, hash, time: now() }).changes === 0) {
        throw refuse(textWrongPassword(PASSWORD_ATTEMPTS - (read.get(hostId)?.failed_attempts ?? 0)));
      }
    },
  };
}
