/**
 * Money out (machines/ports/withdraw.port.ts) over the HTTP contract (src/api/contract/withdraw.ts):
 * the host's balances, the income ledger by page, the collection methods, the rules, the
 * password and applying, the records. Every request is silent: what a failure means is the
 * machine's to show. The server's refusals become the port's errors: a locked password
 * (code 1429) or a wrong one (its text) a PasswordRefusedError, a refused collection method an
 * AccountRefusedError naming the field its text is about, an apply with no answer an
 * UnansweredError (its key goes again with the retry), anything else an Error in the server's words.
 */
import {
  TEXT_BANK_NAME, TEXT_BANK_NUMBER, TEXT_CHAIN, TEXT_EWALLET_ACCOUNT, TEXT_HOLDER_NAME, TEXT_PROVIDER, WITHDRAW_CHAINS, textAddress,
} from '../../../machines/codes/withdraw.codes';
import type { AccountField, AccountProblems } from '../../../machines/codes/withdraw.codes';
import { AccountRefusedError, PasswordRefusedError } from '../../../machines/ports/withdraw.port';
import type { WithdrawPort, WithdrawalRecord } from '../../../machines/ports/withdraw.port';
import { UnansweredError } from '../../../machines/shared/intent-key';
import { textOf } from '../../../machines/shared/error-text';
import type { ApiClient } from '../../api/client';
import { ResultCode } from '../../api/codes';
import {
  addWithdrawAccount, applyWithdrawV2, getAnchorWithDrawConfig, hostWallet, incomeFlowList, myBalance, setWithdrawPassWord, withdrawAccountList,
  withdrawRecord,
} from '../../api/contract/withdraw';
import type { WithdrawRecord } from '../../api/contract/withdraw';
import { ApiError, isUnanswered } from '../../api/outcome';

const silent = { silent: true } as const;

/** How the server's text for a wrong password begins (textWrongPassword). */
const WRONG_PASSWORD = 'Wrong withdrawal password.';

/** The field each of the server's texts about a collection method is about. */
const FIELD_OF: ReadonlyMap<string, AccountField> = new Map<string, AccountField>([
  [TEXT_HOLDER_NAME, 'holderName'],
  [TEXT_BANK_NAME, 'institution'],
  [TEXT_PROVIDER, 'institution'],
  [TEXT_BANK_NUMBER, 'accountNumber'],
  [TEXT_EWALLET_ACCOUNT, 'accountNumber'],
  ...WITHDRAW_CHAINS.map((chain): [string, AccountField] => [textAddress(chain), 'accountNumber']),
  [TEXT_CHAIN, 'chain'],
]);

/** The problems a refusal's text names (null: it names no field). */
export function problemsOf(message: string): AccountProblems | null {
  const field = FIELD_OF.get(message);
  return field ? { [field]: message } : null;
}

/** A refusal of the password (locked, or wrong) as the port's error; anything else in the server's words. */
function refusal(error: unknown): Error {
  if (error instanceof ApiError && error.kind === 'code') {
    if (error.detail.code === ResultCode.tooManyAttempts) return new PasswordRefusedError(error.message, true);
    if (error.message.startsWith(WRONG_PASSWORD)) return new PasswordRefusedError(error.message, false);
  }
  return new Error(textOf(error));
}

const recordOf = (r: WithdrawRecord): WithdrawalRecord => ({
  id: r.id, amount: r.amount, fee: r.fee, usd: r.usd, status: r.status, reason: r.reason, accountKind: r.accountKind, accountLabel: r.accountLabel,
  createdAt: r.createdAt, updatedAt: r.updatedAt,
});

export function httpWithdraw(api: ApiClient): WithdrawPort {
  return {
    balance: () => api.data(myBalance, {}, silent),
    async summary() {
      const { income, held, withdrawable, earned, paidOut, diamonds, hasPassword } = await api.data(hostWallet, {}, silent);
      return { income, held, withdrawable, earned, paidOut, diamonds, hasPassword };
    },
    async incomeFlows({ page, pageSize, kind, from, to }) {
      const { list } = await api.data(incomeFlowList, {
        currentPage: page, pageSize, ...(kind ? { kind } : {}), ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }),
      }, silent);
      return list.map((f) => ({ id: f.id, kind: f.kind, amount: f.amount, balance: f.balance, createdAt: f.createdAt }));
    },
    async accounts() {
      return (await api.data(withdrawAccountList, {}, silent)).list;
    },
    async addAccount({ kind, holderName, institution, accountNumber, chain }) {
      try {
        return (await api.data(addWithdrawAccount, { kind, holderName, institution, accountNumber, chain }, silent)).account;
      } catch (error) {
        if (error instanceof ApiError && error.kind === 'code') throw new AccountRefusedError(textOf(error), problemsOf(error.message));
        throw new Error(textOf(error));
      }
    },
    async config() {
      const c = await api.data(getAnchorWithDrawConfig, {}, silent);
      return {
        minimum: c.minimum, maximum: c.maximum, feePercent: c.feePercent, rate: c.rate, allowedDays: c.allowedDays, kinds: c.kinds,
        providers: c.providers, openToday: c.openToday, hasPassword: c.hasPassword,
      };
    },
    async setPassword(password, oldPassword) {
      try {
        await api.data(setWithdrawPassWord, { password, ...(oldPassword === undefined ? {} : { oldPassword }) }, silent);
      } catch (error) {
        throw refusal(error);
      }
    },
    async apply({ idempotencyKey, amount, accountId, password }) {
      try {
        return recordOf((await api.data(applyWithdrawV2, { idempotencyKey, amount, accountId, password }, silent)).record);
      } catch (error) {
        // No answer: it may have been applied; the retry sends the same key.
        if (isUnanswered(error)) throw new UnansweredError(textOf(error));
        throw refusal(error);
      }
    },
    async records({ page, pageSize }) {
      return (await api.data(withdrawRecord, { currentPage: page, pageSize }, silent)).list.map(recordOf);
    },
  };
}
