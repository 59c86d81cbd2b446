/**
 * Money out: the host's wallet (SPEC §2 /wallet with addCollectionMethod, collectionInfo,
 * withdrawal, withdrawalRecord; §6 host: withdrawal; §7 the host's wallet and withdrawal
 * endpoints). Every endpoint here is a host's only: anyone else is refused with code 1000 and
 * TEXT_HOSTS_ONLY. Kinds, rules and texts: machines/codes/withdraw.codes.ts.
 *
 * - myBalance: the income that can be withdrawn (`income`, the wallet's income balance: what
 *   was earned, less what was withdrawn or is held), what is held by withdrawals not ended yet
 *   (`held`), and what one withdrawal may take now (`withdrawable`: the income up to the
 *   config's maximum, 0 below its minimum).
 * - flowList: the income ledger's entries, newest first, by page, filtered by kind and by a
 *   period [from, to) in epoch milliseconds; each with its kind, signed amount, time and the
 *   balance after it.
 * - myWallet: the host's balances at a glance: income, held, withdrawable, all ever earned, all paid out,
 *   the diamonds to spend, and whether a withdrawal password is set.
 * - withdrawAccountList / addWithdrawAccount: the collection methods, masked (the number is
 *   never sent back whole); at most MAX_ACCOUNTS, none twice, each checked by its kind's rules.
 * - getAnchorWithDrawConfig: minimum, maximum, fee, rate, allowed days, the kinds of
 *   collection method and e-wallet providers offered, whether today is open, whether a password is set.
 * - setWithdrawPassWord: sets it (when none is set), or changes it with the old one. Stored
 *   hashed. A wrong old password counts as a wrong attempt.
 * - applyWithdrawV2: with the password, an amount and a collection method; carries an
 *   idempotency key (src/api/contract/idempotency.ts). The amount leaves the income at once
 *   (held) by a conditional update: concurrent applies never take the income below 0, and one
 *   apply received twice takes it once. PASSWORD_ATTEMPTS wrong passwords in a row lock
 *   withdrawals for PASSWORD_LOCK_MS (code 1429, textPasswordLocked).
 * - withdrawRecord: the withdrawals, newest first, by page, with their status; a refused one
 *   has its reason, and its amount went back to the income exactly once.
 */
import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint';
import { IdempotencyKey } from './idempotency';
import { ACCOUNT_KINDS, INCOME_KINDS, WITHDRAW_STATUSES } from '../../../machines/codes/withdraw.codes';

/** Largest page of the income ledger and of the withdrawals. */
export const MAX_WITHDRAW_PAGE_SIZE = 50;

const page = {
  currentPage: z.int().check(z.minimum(1), z.maximum(1_000_000)),
  pageSize: z.int().check(z.minimum(1), z.maximum(MAX_WITHDRAW_PAGE_SIZE)),
};

export const myBalance = defineEndpoint({
  path: '/api/wallet/anchor/flowList/myBalance',
  method: 'POST',
  auth: 'session',
  request: z.object({}),
  response: z.object({ income: z.number(), held: z.number(), withdrawable: z.number() }),
});

export const IncomeFlow = z.object({
  id: z.number(),
  kind: z.enum(INCOME_KINDS),
  /** Positive when income came in, negative when it went out (a withdrawal). */
  amount: z.number(),
  /** The income balance after it. */
  balance: z.number(),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
});
export type IncomeFlow = z.output<typeof IncomeFlow>;

export const incomeFlowList = defineEndpoint({
  path: '/api/wallet/anchor/flowList',
  method: 'POST',
  auth: 'session',
  request: z.object({
    ...page,
    /** Only entries of this kind (left out: all). */
    kind: z.optional(z.enum(INCOME_KINDS)),
    /** Only entries at or after `from` and before `to` (epoch milliseconds). */
    from: z.optional(z.int().check(z.minimum(0))),
    to: z.optional(z.int().check(z.minimum(0))),
  }),
  response: z.object({ list: z.array(IncomeFlow) }),
});

export const hostWallet = defineEndpoint({
  path: '/api/wallet/anchor/myWallet',
  method: 'POST',
  auth: 'session',
  request: z.object({}),
  response: z.object({
    income: z.number(),
    held: z.number(),
    /** What one withdrawal may take now (as myBalance answers it). */
    withdrawable: z.number(),
    /** All income ever earned, and all paid out by withdrawals. */
    earned: z.number(),
    paidOut: z.number(),
    /** Diamonds to spend (a host may spend too). */
    diamonds: z.number(),
    hasPassword: z.boolean(),
  }),
});

export const WithdrawAccount = z.object({
  id: z.number(),
  kind: z.enum(ACCOUNT_KINDS),
  holderName: z.string(),
  /** The bank's name or the e-wallet's provider ('' for USDT). */
  institution: z.string(),
  /** The chain of a USDT address ('' otherwise). */
  chain: z.string(),
  /** The number as shown (maskAccount): never whole. */
  masked: z.string(),
  createdAt: z.number(),
});
export type WithdrawAccount = z.output<typeof WithdrawAccount>;

export const withdrawAccountList = defineEndpoint({
  path: '/api/wallet/anchor/withdrawAccountList',
  method: 'POST',
  auth: 'session',
  request: z.object({}),
  response: z.object({ list: z.array(WithdrawAccount) }),
});

export const addWithdrawAccount = defineEndpoint({
  path: '/api/wallet/anchor/addWithdrawAccount',
  method: 'POST',
  auth: 'session',
  request: z.object({
    kind: z.enum(ACCOUNT_KINDS),
    holderName: z.string().check(z.maxLength(120)),
    institution: z.string().check(z.maxLength(120)),
    accountNumber: z.string().check(z.maxLength(160)),
    chain: z.string().check(z.maxLength(16)),
  }),
  response: z.object({ account: WithdrawAccount }),
});

export const getAnchorWithDrawConfig = defineEndpoint({
  path: '/api/wallet/getAnchorWithDrawConfig',
  method: 'POST',
  auth: 'session',
  request: z.object({}),
  response: z.object({
    minimum: z.number(),
    maximum: z.number(),
    feePercent: z.number(),
    rate: z.number(),
    allowedDays: z.array(z.int().check(z.minimum(1), z.maximum(7))),
    kinds: z.array(z.enum(ACCOUNT_KINDS)),
    providers: z.array(z.string()),
    /** Whether today (UTC) is an allowed day. */
    openToday: z.boolean(),
    hasPassword: z.boolean(),
  }),
});

export const setWithdrawPassWord = defineEndpoint({
  path: '/api/wallet/setWithdrawPassWord',
  method: 'POST',
  auth: 'session',
  request: z.object({
    password: z.string().check(z.maxLength(32)),
    /** Required to change a password that is set. */
    oldPassword: z.optional(z.string().check(z.maxLength(32))),
  }),
  response: z.object({}),
});

export const WithdrawRecord = z.object({
  id: z.number(),
  /** Diamonds taken from the income, the fee among them, and the dollars paid. */
  amount: z.number(),
  fee: z.number(),
  usd: z.string(),
  status: z.enum(WITHDRAW_STATUSES),
  /** Why it was refused ('' otherwise). */
  reason: z.string(),
  /** Where it is paid, as shown then. */
  accountKind: z.enum(ACCOUNT_KINDS),
  accountLabel: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type WithdrawRecord = z.output<typeof WithdrawRecord>;

export const applyWithdrawV2 = defineEndpoint({
  path: '/api/wallet/applyWithdrawV2',
  method: 'POST',
  auth: 'session',
  request: z.object({
    idempotencyKey: IdempotencyKey,
    amount: z.int().check(z.minimum(1), z.maximum(1_000_000_000)),
    accountId: z.int(),
    password: z.string().check(z.maxLength(32)),
  }),
  response: z.object({ record: WithdrawRecord }),
});

export const withdrawRecord = defineEndpoint({
  path: '/api/wallet/withdrawRecord',
  method: 'POST',
  auth: 'session',
  request: z.object(page),
  response: z.object({ list: z.array(WithdrawRecord) }),
});
