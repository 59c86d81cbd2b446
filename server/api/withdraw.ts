/**
 * Money out on the reference server (src/api/contract/withdraw.ts, whose doc comment is the
 * behaviour): a host's balances and income ledger (withdraw.ledger.ts), collection methods and
 * withdrawal password (withdraw.accounts.ts), applying for a withdrawal, its records, and the
 * operator's moves (the dev shell stands in for a back office: server/shell/routes.ts).
 *
 * Every endpoint is a host's only: anyone else is refused (1000, TEXT_HOSTS_ONLY) before
 * anything is read or written.
 *
 * Money moves on the same ledger as money in (wallets.income with a wallet_flows entry for
 * every change):
 * - apply (inside keys.once, one transaction with the stored answer): the amount leaves the
 *   income by a conditional UPDATE (`income >= amount`), so concurrent applies never take it
 *   below 0, and a replayed key takes nothing again; the withdrawal row holds it ('applied').
 * - the operator's `move`: applied → processing, applied|processing → paid or refused. The
 *   status moves by a conditional UPDATE; a refusal returns the amount to the income in the
 *   same transaction, so a withdrawal refused twice, or refused after being paid, moves nothing
 *   the second time. Paid and refused tell the host by a system mail (/api/sysmail/loadList).
 *   No push announces new mail anywhere in the product: the mail shows when the host opens the
 *   system messages.
 */
import { ResultCode } from '../../src/api/codes';
import { MailType } from '../../src/api/contract/news';
import * as withdraw from '../../src/api/contract/withdraw';
import type { WithdrawRecord } from '../../src/api/contract/withdraw';
import {
  MAX_REASON_LENGTH, TEXT_ACCOUNT_NOT_FOUND, TEXT_HOSTS_ONLY, TEXT_RECORD_ENDED, TEXT_RECORD_NOT_FOUND, amountProblem, quoteOf,
  textAboveBalance, utcWeekday, type WithdrawStatus,
} from '../../machines/codes/withdraw.codes';
import { UserType } from '../../machines/codes/user.codes';
import type { Db } from '../db/database';
import type { Idempotency, Moved } from './idempotency';
import { ApiError, requireSession, type HandlersOf } from './transport';
import { accountLabel, createWithdrawAccounts, createWithdrawPasswords, type PasswordVerdict } from './withdraw.accounts';
import { WithdrawFlowReason, createWithdrawLedger, recordView, type WithdrawalRow } from './withdraw.ledger';

/** Where the operator may move a withdrawal, and from which statuses. */
export const OPERATOR_MOVES = {
  processing: ['applied'],
  paid: ['applied', 'processing'],
  refused: ['applied', 'processing'],
} as const satisfies Record<string, readonly WithdrawStatus[]>;
export type OperatorMove = keyof typeof OPERATOR_MOVES;

/** The operator's refusal of a move that does not apply (the withdrawal is processing already). */
export const TEXT_ALREADY_PROCESSING = 'This withdrawal is being processed already.';
export const TEXT_REASON_NEEDED = `Give the reason for the refusal (1 to ${MAX_REASON_LENGTH} characters).`;

/** The system mails a host gets when a withdrawal ends. */
export const mailOfPaid = (r: Pick<WithdrawRecord, 'amount' | 'usd'>) =>
  ({ title: 'Withdrawal paid', content: `Your withdrawal of ${r.amount} diamonds (US$ ${r.usd}) was paid.` });
export const mailOfRefused = (r: Pick<WithdrawRecord, 'amount' | 'reason'>) =>
  ({ title: 'Withdrawal refused', content: `Your withdrawal of ${r.amount} diamonds was refused: ${r.reason}. The diamonds are back in your income.` });

/** A withdrawal as the operator lists it: the record with its host. */
export interface OperatorRecord extends WithdrawRecord {
  hostId: number;
  hostNickname: string;
}

export interface WithdrawalOptions {
  /** The clock (tests move it: locks, allowed days). */
  now?: () => number;
}

export type Withdrawals = ReturnType<typeof createWithdrawals>;

export function createWithdrawals(db: Db, { now = Date.now }: WithdrawalOptions = {}) {
  const ledger = createWithdrawLedger(db);
  const accounts = createWithdrawAccounts(db, now);
  const passwords = createWithdrawPasswords(db, now);
  const income = db.prepare<[number], number>('SELECT coalesce((SELECT income FROM wallets WHERE user_id = ?), 0)').pluck();
  const take = db.prepare<{ id: number; amount: number }, number>(
    'UPDATE wallets SET income = income - @amount WHERE user_id = @id AND income >= @amount RETURNING income',
  ).pluck();
  const giveBack = db.prepare<{ id: number; amount: number }, number>(
    `INSERT INTO wallets (user_id, income) VALUES (@id, @amount)
     ON CONFLICT (user_id) DO UPDATE SET income = income + @amount RETURNING income`,
  ).pluck();
  const flow = db.prepare<{ id: number; amount: number; balance: number; reason: string; ref: number; time: number }>(
    `INSERT INTO wallet_flows (user_id, account, amount, balance, reason, ref_id, created_at)
     VALUES (@id, 'income', @amount, @balance, @reason, @ref, @time)`,
  );
  const insert = db.prepare<Omit<WithdrawalRow, 'id' | 'reason' | 'status'>, WithdrawalRow>(
    `INSERT INTO withdrawals (host_id, account_id, account_kind, account_label, amount, fee, usd, status, created_at, updated_at)
     VALUES (@host_id, @account_id, @account_kind, @account_label, @amount, @fee, @usd, 'applied', @created_at, @updated_at) RETURNING *`,
  );
  const byId = db.prepare<[number], WithdrawalRow>('SELECT * FROM withdrawals WHERE id = ?');
  const moveRow = db.prepare<{ id: number; to: WithdrawStatus; from: string; reason: string; time: number }, WithdrawalRow>(
    `UPDATE withdrawals SET status = @to, reason = @reason, updated_at = @time
      WHERE id = @id AND status IN (SELECT value FROM json_each(@from)) RETURNING *`,
  );
  const mail = db.prepare<{ user: number; title: string; content: string; time: number }>(
    `INSERT INTO sys_mail (user_id, mail_type, title, content, created_at) VALUES (@user, ${MailType.system}, @title, @content, @time)`,
  );
  const operatorList = db.prepare<[number], WithdrawalRow & { nickname: string }>(
    'SELECT w.*, u.nickname FROM withdrawals w JOIN users u ON u.id = w.host_id ORDER BY w.id DESC LIMIT ?',
  );

  const refuse = (text: string) => ({ refusal: new ApiError(ResultCode.invalidRequest, text) });

  return {
    now,
    ledger,
    accounts,
    passwords,

    /**
     * The work of one apply (run by keys.once inside its transaction): the password's verdict
     * settled (a wrong one counted, committed with the refusal), the method and the amount
     * checked, then the amount taken from the income, its ledger entry and the record.
     */
    apply(hostId: number, request: { amount: number; accountId: number }, verdict: PasswordVerdict): Moved<{ record: WithdrawRecord }> {
      const refusal = passwords.settle(hostId, verdict);
      if (refusal) return { refusal };
      const account = accounts.find(hostId, request.accountId);
      if (!account) return refuse(TEXT_ACCOUNT_NOT_FOUND);
      const rules = ledger.settings();
      const time = now();
      const problem = amountProblem(rules, request.amount, income.get(hostId) ?? 0, time);
      if (problem) return refuse(problem);
      const after = take.get({ id: hostId, amount: request.amount });
      if (after === undefined) return refuse(textAboveBalance(income.get(hostId) ?? 0));
      const { fee, usd } = quoteOf(rules, request.amount);
      const row = insert.get({
        host_id: hostId, account_id: account.id, account_kind: account.kind, account_label: accountLabel(account),
        amount: request.amount, fee, usd, created_at: time, updated_at: time,
      })!;
      flow.run({ id: hostId, amount: -request.amount, balance: after, reason: WithdrawFlowReason.applied, ref: row.id, time });
      return { answer: { record: recordView(row) } };
    },

    /**
     * The operator moves a withdrawal (see the file comment). Refusals are ApiErrors:
     * TEXT_RECORD_NOT_FOUND, TEXT_RECORD_ENDED, TEXT_ALREADY_PROCESSING, TEXT_REASON_NEEDED.
     */
    move: db.transaction((id: number, to: OperatorMove, reason = ''): WithdrawRecord => {
      const why = to === 'refused' ? reason.trim() : '';
      if (to === 'refused' && (why.length === 0 || why.length > MAX_REASON_LENGTH)) {
        throw new ApiError(ResultCode.invalidRequest, TEXT_REASON_NEEDED);
      }
      const time = now();
      const row = moveRow.get({ id, to, from: JSON.stringify(OPERATOR_MOVES[to]), reason: why, time });
      if (!row) {
        const found = byId.get(id);
        const text = !found ? TEXT_RECORD_NOT_FOUND : found.status === 'processing' ? TEXT_ALREADY_PROCESSING : TEXT_RECORD_ENDED;
        throw new ApiError(ResultCode.invalidRequest, text);
      }
      const record = recordView(row);
      if (to === 'refused') {
        const balance = giveBack.get({ id: row.host_id, amount: row.amount })!;
        flow.run({ id: row.host_id, amount: row.amount, balance, reason: WithdrawFlowReason.returned, ref: row.id, time });
        mail.run({ user: row.host_id, ...mailOfRefused(record), time });
      } else if (to === 'paid') {
        mail.run({ user: row.host_id, ...mailOfPaid(record), time });
      }
      return record;
    }),

    /** Every host's withdrawals, newest first, for the operator. */
    operatorList: (limit = 100): OperatorRecord[] =>
      operatorList.all(limit).map((row) => ({ ...recordView(row), hostId: row.host_id, hostNickname: row.nickname })),
  };
}

/** The caller, when a host; everyone else is refused before anything is read. */
function requireHost(ctx: Parameters<typeof requireSession>[0]): number {
  const session = requireSession(ctx);
  if (session.userType !== UserType.host) throw new ApiError(ResultCode.invalidRequest, TEXT_HOSTS_ONLY);
  return session.userId;
}

export function withdrawHandlers({ withdrawals, keys }: { withdrawals: Withdrawals; keys: Idempotency }): HandlersOf<typeof withdraw> {
  const { ledger, accounts, passwords, now } = withdrawals;
  return {
    myBalance(ctx) {
      const { income, held, withdrawable } = ledger.balances(requireHost(ctx));
      return { income, held, withdrawable };
    },
    incomeFlowList(ctx) {
      return { list: ledger.flows(requireHost(ctx), ctx.body) };
    },
    hostWallet(ctx) {
      const me = requireHost(ctx);
      const { income, held, withdrawable, earned, paidOut, diamonds } = ledger.balances(me);
      return { income, held, withdrawable, earned, paidOut, diamonds, hasPassword: passwords.has(me) };
    },
    withdrawAccountList(ctx) {
      return { list: accounts.list(requireHost(ctx)) };
    },
    addWithdrawAccount(ctx) {
      const me = requireHost(ctx);
      return { account: accounts.add(me, ctx.body, ledger.settings()) };
    },
    getAnchorWithDrawConfig(ctx) {
      const me = requireHost(ctx);
      const settings = ledger.settings();
      return { ...settings, openToday: settings.allowedDays.includes(utcWeekday(now())), hasPassword: passwords.has(me) };
    },
    async setWithdrawPassWord(ctx) {
      await passwords.set(requireHost(ctx), ctx.body.password, ctx.body.oldPassword);
      return {};
    },
    async applyWithdrawV2(ctx) {
      const me = requireHost(ctx);
      const { idempotencyKey, amount, accountId, password } = ctx.body;
      // Checked before the transaction (scrypt runs on the thread pool); settled inside it.
      const verdict = await passwords.check(me, password);
      // The key is bound to the request without its password: a stored fingerprint of six digits would be
      // a hash anyone reading the database could reverse. A replay answers the stored record whatever it says.
      const intent = { session: ctx.session, body: { idempotencyKey, amount, accountId } };
      return keys.once(intent, withdraw.applyWithdrawV2, () => withdrawals.apply(me, { amount, accountId }, verdict));
    },
    withdrawRecord(ctx) {
      return { list: ledger.records(requireHost(ctx), ctx.body) };
    },
  };
}
