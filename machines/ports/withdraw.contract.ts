/**
 * The withdraw port's contract (SPEC §2 /wallet for a host, §6 host: withdrawal, §7 the host's
 * wallet and withdrawal endpoints; src/api/contract/withdraw.ts), run against the in-memory fake
 * (withdraw.fake.test.ts) and the HTTP adapter over the reference server
 * (src/adapters/http/withdraw.http.test.ts). The rig's host has no password and no collection
 * method; it gives them income as their calls and gifts would, and, where it can, acts as the
 * operator who pays or refuses a withdrawal. The rules are the reference server's seeded ones
 * (minimum 1000, maximum 100000, fee 5 %, 100 diamonds per US dollar, every day open).
 */
import { describe, expect, it } from 'vitest';
import {
  PASSWORD_ATTEMPTS, TEXT_ACCOUNT_EXISTS, TEXT_HOLDER_NAME, TEXT_PASSWORD_SAME, quoteOf, textAboveBalance, textWrongPassword,
} from '../codes/withdraw.codes';
import type { AccountDraft } from '../codes/withdraw.codes';
import { perTest, rejectionOf } from './contract.support';
import { AccountRefusedError, PasswordRefusedError } from './withdraw.port';
import type { WithdrawPort, WithdrawRequest } from './withdraw.port';

export interface WithdrawOperator {
  pay(id: number): void | Promise<void>;
  refuse(id: number, reason: string): void | Promise<void>;
}

export interface WithdrawContractRig {
  /** The port of a signed-in host with no password and no collection method. */
  port: WithdrawPort;
  /** The host earns `amount` of income (a call's). */
  earn(amount: number): void | Promise<void>;
  /** The operator (a back office), when the rig has one. */
  operator?: WithdrawOperator;
  dispose(): void | Promise<void>;
}

export type WithdrawRigFactory = () => WithdrawContractRig | Promise<WithdrawContractRig>;

const PASSWORD = '246810';
const bank: AccountDraft = { kind: 'bank', holderName: 'Ann Lee', institution: 'First Bank', accountNumber: 'GB29 NWBK 6016 1331 9268 19', chain: '' };
let keys = 0;
const key = () => `k-withdraw-contract-${++keys}-${Math.random().toString(36).slice(2)}`;

export function registerWithdrawContract(name: string, factory: WithdrawRigFactory): void {
  describe(`[contract] withdraw port: ${name}`, () => {
    const t = perTest(factory);

    /** A password, a bank account and `income` more income; answers the account's id and the income after it. */
    async function ready(income: number): Promise<{ accountId: number; income: number }> {
      const { port } = t.rig;
      await port.setPassword(PASSWORD);
      const { id } = await port.addAccount(bank);
      await t.rig.earn(income);
      return { accountId: id, income: (await port.balance()).income };
    }

    it('[§7 getAnchorWithDrawConfig, myWallet] a host\'s rules, and a wallet with no password', async () => {
      const { port } = t.rig;
      const config = await port.config();
      expect(config).toMatchObject({ minimum: 1000, maximum: 100_000, feePercent: 5, rate: 100, hasPassword: false, openToday: true });
      expect(config.kinds).toEqual(expect.arrayContaining(['bank', 'ewallet', 'usdt']));
      expect(config.providers.length).toBeGreaterThan(0);
      const summary = await port.summary();
      expect(summary.hasPassword).toBe(false);
      expect(summary.withdrawable).toBe(summary.income < 1000 ? 0 : Math.min(summary.income, 100_000));
      expect(await port.accounts()).toEqual([]);
    });

    it('[§2 addCollectionMethod] a method is kept masked, newest first; one added already or breaking its rules is refused in words', async () => {
      const { port } = t.rig;
      const added = await port.addAccount(bank);
      expect(added).toMatchObject({ kind: 'bank', holderName: 'Ann Lee', institution: 'First Bank', chain: '', masked: '•••• 6819' });
      const usdt = await port.addAccount({ kind: 'usdt', holderName: '', institution: '', accountNumber: `0x${'ab'.repeat(20)}`, chain: 'ERC20' });
      const listed = await port.accounts();
      expect(listed.map((a) => a.id)).toEqual([usdt.id, added.id]);
      // The whole number is never answered.
      expect(JSON.stringify(listed)).not.toContain('9268');
      expect(JSON.stringify(listed)).not.toContain('ab'.repeat(20));
      const twice = await rejectionOf(port.addAccount({ ...bank, accountNumber: 'gb29nwbk60161331926819' }));
      expect(twice).toBeInstanceOf(AccountRefusedError);
      expect((twice as Error).message).toBe(TEXT_ACCOUNT_EXISTS);
      const nameless = await rejectionOf(port.addAccount({ ...bank, holderName: '1' }));
      expect(nameless).toBeInstanceOf(AccountRefusedError);
      expect((nameless as AccountRefusedError).problems).toEqual({ holderName: TEXT_HOLDER_NAME });
    });

    it('[§7 setWithdrawPassWord] set once; changed only with the old one, which a wrong try counts', async () => {
      const { port } = t.rig;
      await port.setPassword(PASSWORD);
      expect((await port.config()).hasPassword).toBe(true);
      await expect(port.setPassword('135790')).rejects.toThrow();
      const wrong = await rejectionOf(port.setPassword('135790', '000000'));
      expect(wrong).toBeInstanceOf(PasswordRefusedError);
      expect(wrong).toMatchObject({ locked: false, message: textWrongPassword(PASSWORD_ATTEMPTS - 1) });
      await expect(port.setPassword(PASSWORD, PASSWORD)).rejects.toThrow(TEXT_PASSWORD_SAME);
      await port.setPassword('135790', PASSWORD);
      expect((await port.summary()).hasPassword).toBe(true);
    });

    it('[§6 host: withdrawal] an apply holds the amount at once, once for its key; the ledger and the records show it', async () => {
      const { port } = t.rig;
      const { accountId, income } = await ready(5000);
      const request: WithdrawRequest = { idempotencyKey: key(), amount: 2000, accountId, password: PASSWORD };
      const record = await port.apply(request);
      const { fee, usd } = quoteOf({ feePercent: 5, rate: 100 }, 2000);
      expect(record).toMatchObject({ amount: 2000, fee, usd, status: 'applied', reason: '', accountKind: 'bank' });
      expect(record.accountLabel).toContain('6819');
      expect(await port.apply(request)).toEqual(record);
      const balance = await port.balance();
      expect(balance.income).toBe(income - 2000);
      expect(balance.held).toBeGreaterThanOrEqual(2000);
      expect((await port.records({ page: 1, pageSize: 10 }))[0]).toEqual(record);
      const [last] = await port.incomeFlows({ page: 1, pageSize: 10 });
      expect(last).toMatchObject({ kind: 'withdrawal', amount: -2000, balance: income - 2000 });
      expect((await port.incomeFlows({ page: 1, pageSize: 10, kind: 'call' })).every((f) => f.kind === 'call')).toBe(true);
      // More than the income is refused, and moves nothing.
      await expect(port.apply({ ...request, idempotencyKey: key(), amount: income })).rejects.toThrow(textAboveBalance(income - 2000));
      expect((await port.balance()).income).toBe(income - 2000);
    });

    it('[§6 host: withdrawal] a wrong password is refused and counted; too many lock withdrawals', async () => {
      const { port } = t.rig;
      const { accountId, income } = await ready(5000);
      const wrong = (): Promise<unknown> => rejectionOf(port.apply({ idempotencyKey: key(), amount: 1000, accountId, password: '000000' }));
      for (let left = PASSWORD_ATTEMPTS - 1; left > 0; left--) {
        expect(await wrong()).toMatchObject({ name: 'PasswordRefusedError', locked: false, message: textWrongPassword(left) });
      }
      expect(await wrong()).toMatchObject({ name: 'PasswordRefusedError', locked: true });
      const right = await rejectionOf(port.apply({ idempotencyKey: key(), amount: 1000, accountId, password: PASSWORD }));
      expect(right).toMatchObject({ locked: true });
      expect((await port.balance()).income).toBe(income);
    });

    it('[§2 withdrawalRecord] paid, or refused with its amount back exactly once', async () => {
      const { port, operator } = t.rig;
      if (!operator) return;
      const { accountId, income } = await ready(5000);
      const paid = await port.apply({ idempotencyKey: key(), amount: 1000, accountId, password: PASSWORD });
      const refused = await port.apply({ idempotencyKey: key(), amount: 1500, accountId, password: PASSWORD });
      await operator.pay(paid.id);
      await operator.refuse(refused.id, 'The account holder’s name does not match.');
      await expect(Promise.resolve().then(() => operator.refuse(refused.id, 'Again'))).rejects.toThrow();
      const records = await port.records({ page: 1, pageSize: 10 });
      expect(records.map((r) => [r.id, r.status, r.reason])).toEqual([
        [refused.id, 'refused', 'The account holder’s name does not match.'],
        [paid.id, 'paid', ''],
      ]);
      const summary = await port.summary();
      expect(summary).toMatchObject({ income: income - 1000, held: 0 });
      expect(summary.paidOut).toBeGreaterThanOrEqual(1000);
      expect((await port.incomeFlows({ page: 1, pageSize: 1 }))[0]).toMatchObject({ kind: 'withdrawalReturned', amount: 1500, balance: income - 1000 });
      expect(await port.records({ page: 2, pageSize: 1 })).toEqual([records[1]]);
    });
  });
}
