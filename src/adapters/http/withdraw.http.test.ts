/**
 * Money out over the HTTP contract: each endpoint in the port's words, silently; the server's
 * refusals as the port's errors (a locked or wrong password, a collection method refused by
 * field, an apply with no answer told apart); and the withdraw port's contract against a real
 * reference server in-process, its dev shell acting as the operator.
 */
import { describe, expect, it } from 'vitest';
import {
  TEXT_ACCOUNT_EXISTS, TEXT_BANK_NAME, TEXT_CHAIN, TEXT_EWALLET_ACCOUNT, TEXT_HOLDER_NAME, TEXT_PASSWORD_FORMAT, TEXT_PROVIDER,
  textAddress, textPasswordLocked, textWrongPassword,
} from '../../../machines/codes/withdraw.codes';
import { registerWithdrawContract } from '../../../machines/ports/withdraw.contract';
import { AccountRefusedError, PasswordRefusedError } from '../../../machines/ports/withdraw.port';
import type { WithdrawRequest } from '../../../machines/ports/withdraw.port';
import { UnansweredError } from '../../../machines/shared/intent-key';
import * as contract from '../../api/contract/withdraw';
import { createApiClient } from '../../api/client';
import { endpoints } from '../../api/contract';
import { ApiError } from '../../api/outcome';
import { openDatabase } from '../../../server/db/database';
import { SEED_PASSWORD } from '../../../server/db/seed';
import { createWallets } from '../../../server/users/users';
import { codec, device, startTestServer } from '../../../server/testing/harness';
import { httpWithdraw, problemsOf } from './withdraw.http';
import { clientAnswering } from './client-answering.testing';

const record = {
  id: 3, amount: 2000, fee: 100, usd: '19.00', status: 'applied', reason: '', accountKind: 'bank', accountLabel: 'First Bank •••• 6819', createdAt: 1, updatedAt: 1,
};
const request: WithdrawRequest = { idempotencyKey: 'k-0123456789abcdef', amount: 2000, accountId: 5, password: '123456' };
const refusal = (message: string, code = '1000') => new ApiError('code', message, { code });

describe('withdraw adapter', () => {
  it('reads the balances, the ledger, the methods, the rules and the records in the port\'s words', async () => {
    const account = { id: 5, kind: 'bank', holderName: 'Ann Lee', institution: 'First Bank', chain: '', masked: '•••• 6819', createdAt: 9 };
    const config = {
      minimum: 1000, maximum: 100_000, feePercent: 5, rate: 100, allowedDays: [1, 2], kinds: ['bank'], providers: ['PayPal'], openToday: true, hasPassword: false,
    };
    const answers: Record<string, unknown> = {
      [contract.myBalance.path]: { income: 3000, held: 2000, withdrawable: 3000 },
      [contract.hostWallet.path]: { income: 3000, held: 2000, withdrawable: 3000, earned: 5000, paidOut: 0, diamonds: 40, hasPassword: true },
      [contract.incomeFlowList.path]: { list: [{ id: 2, kind: 'withdrawal', amount: -2000, balance: 3000, createdAt: 8 }] },
      [contract.withdrawAccountList.path]: { list: [account] },
      [contract.getAnchorWithDrawConfig.path]: config,
      [contract.withdrawRecord.path]: { list: [record] },
    };
    const { api, seen } = clientAnswering((path) => answers[path]);
    const port = httpWithdraw(api);
    expect(await port.balance()).toEqual({ income: 3000, held: 2000, withdrawable: 3000 });
    expect(await port.summary()).toEqual({ income: 3000, held: 2000, withdrawable: 3000, earned: 5000, paidOut: 0, diamonds: 40, hasPassword: true });
    expect(await port.incomeFlows({ page: 2, pageSize: 20, kind: 'withdrawal', from: 5, to: 10 })).toEqual([{ id: 2, kind: 'withdrawal', amount: -2000, balance: 3000, createdAt: 8 }]);
    await port.incomeFlows({ page: 1, pageSize: 20 });
    expect(await port.accounts()).toEqual([account]);
    expect(await port.config()).toEqual(config);
    expect(await port.records({ page: 1, pageSize: 10 })).toEqual([record]);
    expect(seen.filter(([path]) => path === contract.incomeFlowList.path)).toEqual([
      [contract.incomeFlowList.path, { currentPage: 2, pageSize: 20, kind: 'withdrawal', from: 5, to: 10 }],
      [contract.incomeFlowList.path, { currentPage: 1, pageSize: 20 }],
    ]);
    expect(seen.at(-1)).toEqual([contract.withdrawRecord.path, { currentPage: 1, pageSize: 10 }]);
  });

  it('applies with the key, and sets the password with the old one only when given', async () => {
    const { api, seen } = clientAnswering((path) => (path === contract.applyWithdrawV2.path ? { record } : {}));
    const port = httpWithdraw(api);
    expect(await port.apply(request)).toEqual(record);
    await port.setPassword('123456');
    await port.setPassword('654321', '123456');
    expect(seen).toEqual([
      [contract.applyWithdrawV2.path, request],
      [contract.setWithdrawPassWord.path, { password: '123456' }],
      [contract.setWithdrawPassWord.path, { password: '654321', oldPassword: '123456' }],
    ]);
  });

  it('a locked or wrong password is a PasswordRefusedError; an apply with no answer an UnansweredError; other refusals in the server\'s words', async () => {
    const refusals = [
      refusal(textPasswordLocked(900_000), '1429'),
      refusal(textWrongPassword(3)),
      new ApiError('network', 'No answer'),
      new ApiError('http', 'Server error', { status: 502 }),
      refusal(TEXT_PASSWORD_FORMAT),
      refusal(textWrongPassword(2)),
      new ApiError('network', 'No answer'),
    ];
    const { api } = clientAnswering(() => { throw refusals.shift(); });
    const port = httpWithdraw(api);
    await expect(port.apply(request)).rejects.toEqual(new PasswordRefusedError(textPasswordLocked(900_000), true));
    const wrong = port.apply(request);
    await expect(wrong).rejects.toBeInstanceOf(PasswordRefusedError);
    await expect(wrong).rejects.toMatchObject({ locked: false, message: textWrongPassword(3) });
    await expect(port.apply(request)).rejects.toBeInstanceOf(UnansweredError);
    await expect(port.apply(request)).rejects.toBeInstanceOf(UnansweredError);
    const format = port.setPassword('12');
    await expect(format).rejects.toThrow(TEXT_PASSWORD_FORMAT);
    await expect(format).rejects.not.toBeInstanceOf(PasswordRefusedError);
    await expect(port.setPassword('123456', '000000')).rejects.toMatchObject({ name: 'PasswordRefusedError', locked: false });
    // Only an apply is told apart when unanswered: a password not set is simply not set.
    const lost = port.setPassword('123456');
    await expect(lost).rejects.toThrow('No answer');
    await expect(lost).rejects.not.toBeInstanceOf(UnansweredError);
  });

  it('a refused collection method names the field its text is about, when it is about one', async () => {
    expect(problemsOf(TEXT_HOLDER_NAME)).toEqual({ holderName: TEXT_HOLDER_NAME });
    expect(problemsOf(TEXT_BANK_NAME)).toEqual({ institution: TEXT_BANK_NAME });
    expect(problemsOf(TEXT_PROVIDER)).toEqual({ institution: TEXT_PROVIDER });
    expect(problemsOf(TEXT_EWALLET_ACCOUNT)).toEqual({ accountNumber: TEXT_EWALLET_ACCOUNT });
    expect(problemsOf(textAddress('ERC20'))).toEqual({ accountNumber: textAddress('ERC20') });
    expect(problemsOf(TEXT_CHAIN)).toEqual({ chain: TEXT_CHAIN });
    expect(problemsOf(TEXT_ACCOUNT_EXISTS)).toBeNull();
    const refusals = [refusal(textAddress('TRC20')), refusal(TEXT_ACCOUNT_EXISTS), new ApiError('network', 'No answer')];
    const { api } = clientAnswering(() => { throw refusals.shift(); });
    const port = httpWithdraw(api);
    const draft = { kind: 'usdt' as const, holderName: '', institution: '', accountNumber: 'T1', chain: 'TRC20' };
    await expect(port.addAccount(draft)).rejects.toEqual(new AccountRefusedError(textAddress('TRC20'), { accountNumber: textAddress('TRC20') }));
    await expect(port.addAccount(draft)).rejects.toMatchObject({ name: 'AccountRefusedError', message: TEXT_ACCOUNT_EXISTS, problems: null });
    const lost = port.addAccount(draft);
    await expect(lost).rejects.toThrow('No answer');
    await expect(lost).rejects.not.toBeInstanceOf(AccountRefusedError);
  });

  it('asks silently: a failure is the machine\'s to show', async () => {
    const options: unknown[] = [];
    const api = {
      data: (_endpoint: unknown, _body: unknown, opts: unknown) => {
        options.push(opts);
        return Promise.reject(new ApiError('network', 'No answer'));
      },
    } as unknown as Parameters<typeof httpWithdraw>[0];
    const port = httpWithdraw(api);
    const calls = [
      port.balance(), port.summary(), port.incomeFlows({ page: 1, pageSize: 10 }), port.accounts(), port.config(), port.records({ page: 1, pageSize: 10 }),
      port.addAccount({ kind: 'bank', holderName: '', institution: '', accountNumber: '', chain: '' }), port.setPassword('123456'), port.apply(request),
    ];
    await Promise.allSettled(calls);
    // One request per call (the summary included: myWallet answers what may be withdrawn too).
    expect(options.length).toBe(calls.length);
    expect(options.every((o) => JSON.stringify(o) === JSON.stringify({ silent: true }))).toBe(true);
  });
});

// The server's side of money out registers these endpoints; until it does, the contract has nothing to run against.
if ('applyWithdrawV2' in endpoints) {
  registerWithdrawContract('HTTP adapter over the reference server', async () => {
    const server = await startTestServer({ build: false, seed: { hosts: 1, users: 1 } });
    const signedIn = await server.call(endpoints.login, { ...device, account: 'host1@example.com', password: SEED_PASSWORD });
    const token = signedIn.data!.token;
    const api = createApiClient({ baseUrl: server.base, codec, credentials: () => ({ token, appId: 'test-app' }), onNotice: () => {} });
    const writer = openDatabase(server.dbPath);
    const hostId = writer.prepare<[string], number>('SELECT id FROM users WHERE account = ?').pluck().get('host1@example.com')!;
    // The operator is the dev shell's stand-in for a back office.
    const move = async (id: number, to: 'paid' | 'refused', reason?: string) => {
      const res = await fetch(`${server.base}/shell/api/withdrawals/move`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, to, ...(reason ? { reason } : {}) }),
      });
      if (!res.ok) throw new Error(`The dev shell answered ${res.status}.`);
    };
    return {
      port: httpWithdraw(api),
      // Income as a call's, written as the server writes it.
      earn: (amount) => { createWallets(writer).earn(hostId, 'income', amount, 'call.income', null); },
      operator: { pay: (id) => move(id, 'paid'), refuse: (id, reason) => move(id, 'refused', reason) },
      dispose: async () => {
        writer.close();
        await server.close();
      },
    };
  });
}
