/**
 * What the reference server reads for money out (src/api/contract/withdraw.ts): the
 * withdrawal rules (table withdraw_config, one row an operator edits), a host's balances, the
 * income ledger (wallet_flows, account 'income') as the host reads it, and the withdrawals.
 *
 * An income entry's reason is written by the module that moved the income; `incomeKindOf`
 * maps each to the kind the host reads, in one table (as flowKind does for diamonds,
 * wallet.user.ts). A gift's income is a live gift when its send (gift_sends, the entry's
 * ref_id) was made in a live room, a gift otherwise (in a call or a chat). The kind filter is
 * the same table read backwards, done in SQL so that paging counts the filtered entries.
 */
import type { IncomeFlow, WithdrawRecord } from '../../src/api/contract/withdraw';
import {
  ACCOUNT_KINDS, HELD_STATUSES, type AccountKind, type IncomeKind, type WithdrawRules, type WithdrawStatus,
} from '../../machines/codes/withdraw.codes';
import type { Db } from '../db/database';
import { CallFlowReason } from './billing';
import { LIVE_TASK_FLOW_REASON } from './live.rooms';
import { FlowReason as PrivateMsgFlowReason } from './private-msg';

/** The income ledger reasons money out writes (wallet_flows.reason; ref_id is the withdrawal). */
export const WithdrawFlowReason = { applied: 'withdrawal.applied', returned: 'withdrawal.returned' } as const;

/** Income ledger reasons → the kind the host reads. gift.income is split by where the gift was sent (see above). */
const KIND_OF_REASON: Readonly<Record<string, IncomeKind>> = {
  [CallFlowReason.callIncome]: 'call',
  [CallFlowReason.giftIncome]: 'gift',
  [PrivateMsgFlowReason.privateMsgIncome]: 'privateMessage',
  [LIVE_TASK_FLOW_REASON]: 'taskReward',
  [WithdrawFlowReason.applied]: 'withdrawal',
  [WithdrawFlowReason.returned]: 'withdrawalReturned',
};

/** What an income entry shows as; `live` says whether its gift was sent in a live room. */
export function incomeKindOf(reason: string, live: boolean): IncomeKind {
  if (!Object.hasOwn(KIND_OF_REASON, reason)) return 'other';
  const kind = KIND_OF_REASON[reason]!;
  return kind === 'gift' && live ? 'liveGift' : kind;
}

/** The SQL filter of a kind: the reasons it comes from (or all but the known ones, for 'other'), and for gifts where they were sent. */
function filterOf(kind: IncomeKind | undefined): { reasons: string | null; notReasons: string | null; live: 0 | 1 | null } {
  if (kind === undefined) return { reasons: null, notReasons: null, live: null };
  if (kind === 'other') return { reasons: null, notReasons: JSON.stringify(Object.keys(KIND_OF_REASON)), live: null };
  const base = kind === 'liveGift' ? 'gift' : kind;
  const reasons = Object.keys(KIND_OF_REASON).filter((r) => KIND_OF_REASON[r] === base);
  return { reasons: JSON.stringify(reasons), notReasons: null, live: kind === 'liveGift' ? 1 : kind === 'gift' ? 0 : null };
}

/** The rules with what the config offers beside them. */
export interface WithdrawSettings extends WithdrawRules {
  allowedDays: number[];
  kinds: AccountKind[];
  providers: string[];
}

interface ConfigRow {
  minimum: number;
  maximum: number;
  fee_percent: number;
  rate: number;
  allowed_days: string;
  kinds: string;
  providers: string;
}

/** A JSON array of the row, what it holds of the right kind (an edit gone wrong reads as none). */
function listOf<T>(json: string, keep: (v: unknown) => v is T): T[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? [...new Set(value.filter(keep))] : [];
  } catch {
    return [];
  }
}
const isDay = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 7;
const isKind = (v: unknown): v is AccountKind => (ACCOUNT_KINDS as readonly unknown[]).includes(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

export interface WithdrawalRow {
  id: number;
  host_id: number;
  account_id: number | null;
  account_kind: AccountKind;
  account_label: string;
  amount: number;
  fee: number;
  usd: string;
  status: WithdrawStatus;
  reason: string;
  created_at: number;
  updated_at: number;
}

export const recordView = (row: WithdrawalRow): WithdrawRecord => ({
  id: row.id, amount: row.amount, fee: row.fee, usd: row.usd, status: row.status, reason: row.reason,
  accountKind: row.account_kind, accountLabel: row.account_label, createdAt: row.created_at, updatedAt: row.updated_at,
});

export interface HostBalances {
  income: number;
  held: number;
  withdrawable: number;
  earned: number;
  paidOut: number;
  diamonds: number;
}

type Page = { currentPage: number; pageSize: number };
const limits = ({ currentPage, pageSize }: Page) => ({ limit: pageSize, offset: (currentPage - 1) * pageSize });
const HELD_SQL = HELD_STATUSES.map((s) => `'${s}'`).join(', ');

export function createWithdrawLedger(db: Db) {
  const config = db.prepare<[], ConfigRow>('SELECT * FROM withdraw_config WHERE id = 1');
  const balances = db.prepare<{ id: number; returned: string }, Omit<HostBalances, 'withdrawable'>>(
    `SELECT coalesce((SELECT income FROM wallets WHERE user_id = @id), 0) AS income,
            coalesce((SELECT diamonds FROM wallets WHERE user_id = @id), 0) AS diamonds,
            coalesce((SELECT sum(amount) FROM withdrawals WHERE host_id = @id AND status IN (${HELD_SQL})), 0) AS held,
            coalesce((SELECT sum(amount) FROM withdrawals WHERE host_id = @id AND status = 'paid'), 0) AS paidOut,
            coalesce((SELECT sum(amount) FROM wallet_flows
                       WHERE user_id = @id AND account = 'income' AND amount > 0 AND reason <> @returned), 0) AS earned`,
  );
  const flows = db.prepare<
    { id: number; from: number | null; to: number | null; reasons: string | null; notReasons: string | null; live: 0 | 1 | null; limit: number; offset: number },
    { id: number; reason: string; amount: number; balance: number; created_at: number; live: 0 | 1 }
  >(
    `SELECT f.id, f.reason, f.amount, f.balance, f.created_at, (g.live_room_id IS NOT NULL) AS live
       FROM wallet_flows f
       LEFT JOIN gift_sends g ON f.reason = '${CallFlowReason.giftIncome}' AND g.id = f.ref_id
      WHERE f.user_id = @id AND f.account = 'income'
        AND (@from IS NULL OR f.created_at >= @from) AND (@to IS NULL OR f.created_at < @to)
        AND (@reasons IS NULL OR f.reason IN (SELECT value FROM json_each(@reasons)))
        AND (@notReasons IS NULL OR f.reason NOT IN (SELECT value FROM json_each(@notReasons)))
        AND (@live IS NULL OR (g.live_room_id IS NOT NULL) = @live)
      ORDER BY f.id DESC LIMIT @limit OFFSET @offset`,
  );
  const records = db.prepare<{ id: number; limit: number; offset: number }, WithdrawalRow>(
    'SELECT * FROM withdrawals WHERE host_id = @id ORDER BY id DESC LIMIT @limit OFFSET @offset',
  );

  /** The withdrawal rules now. */
  function settings(): WithdrawSettings {
    const row = config.get();
    // The migration writes the row; without it nothing can be withdrawn.
    if (!row) return { minimum: 1, maximum: 0, feePercent: 0, rate: 1, allowedDays: [], kinds: [], providers: [] };
    return {
      minimum: row.minimum, maximum: row.maximum, feePercent: row.fee_percent, rate: row.rate,
      allowedDays: listOf(row.allowed_days, isDay).sort((a, b) => a - b),
      kinds: listOf(row.kinds, isKind),
      providers: listOf(row.providers, isText),
    };
  }

  return {
    settings,

    /** The host's balances; withdrawable is what one withdrawal may take now (0 below the minimum). */
    balances(hostId: number): HostBalances {
      const row = balances.get({ id: hostId, returned: WithdrawFlowReason.returned })!;
      const { minimum, maximum } = settings();
      return { ...row, withdrawable: row.income < minimum ? 0 : Math.min(row.income, maximum) };
    },

    /** The income ledger of the host, newest first, by page, of one kind and period when asked. */
    flows(hostId: number, query: Page & { kind?: IncomeKind | undefined; from?: number | undefined; to?: number | undefined }): IncomeFlow[] {
      return flows.all({ id: hostId, from: query.from ?? null, to: query.to ?? null, ...filterOf(query.kind), ...limits(query) })
        .map((f) => ({ id: f.id, kind: incomeKindOf(f.reason, f.live === 1), amount: f.amount, balance: f.balance, createdAt: f.created_at }));
    },

    /** The host's withdrawals, newest first, by page. */
    records: (hostId: number, page: Page): WithdrawRecord[] => records.all({ id: hostId, ...limits(page) }).map(recordView),
  };
}
