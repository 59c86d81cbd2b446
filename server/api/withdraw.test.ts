/**
 * Money out on the reference server (src/api/contract/withdraw.ts) over real HTTP against a
 * started server with an injected clock: host-only, the password and its lock, collection
 * methods, applying (concurrent, replayed), the operator's moves (server/api/withdraw.ts
 * `move`, through the dev shell's route), the income ledger's kinds and filters, and the
 * ledger summing to the balances throughout.
 */
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_ACCOUNTS, PASSWORD_ATTEMPTS, PASSWORD_LOCK_MS, TEXT_ACCOUNT_EXISTS, TEXT_ACCOUNT_NOT_FOUND, TEXT_BANK_NAME, TEXT_BANK_NUMBER,
  TEXT_CHAIN, TEXT_EWALLET_ACCOUNT, TEXT_HOLDER_NAME, TEXT_HOSTS_ONLY, TEXT_PASSWORD_FORMAT, TEXT_PASSWORD_NOT_SET, TEXT_PASSWORD_SAME,
  TEXT_PASSWORD_SET_ALREADY, TEXT_PROVIDER, TEXT_RECORD_ENDED, TEXT_TOO_MANY_ACCOUNTS, textAboveBalance, textAboveMaximum, textAddress,
  textBelowMinimum, textDays, textPasswordLocked, textWrongPassword, utcWeekday, type AccountDraft,
} from '../../machines/codes/withdraw.codes';
import { ResultCode } from '../../src/api/codes';
import { endpoints, type Endpoint } from '../../src/api/contract';
import type { RequestOf } from '../../src/api/contract/endpoint';
import { TEXT_IDEMPOTENCY_KEY_REUSED } from '../../src/api/contract/idempotency';
import { callPeople, writeDb, type Person } from '../testing/calls';
import { startTestServer, type TestServer } from '../testing/harness';
import { createWallets } from '../users/users';
import { CallFlowReason } from './billing';
import { LIVE_TASK_FLOW_REASON } from './live.rooms';
import { TEXT_KIND_NOT_OFFERED } from './withdraw.accounts';
import { mailOfPaid, mailOfRefused } from './withdraw';

const {
  myBalance, incomeFlowList, hostWallet, withdrawAccountList, addWithdrawAccount, getAnchorWithDrawConfig, setWithdrawPassWord,
  applyWithdrawV2, withdrawRecord, sendGift, beginLiveRoom, getRoomAndJoinRoom, createCall, joinCall, endCall,
} = endpoints;

/** The clock of money out; a Wednesday noon (UTC) unless a test moves it. */
const WEDNESDAY = Date.UTC(2026, 10, 25, 12);
let clock = WEDNESDAY;

let server: TestServer;
let db: Database.Database;
let rw: Database.Database;
const p: Record<string, Person> = {};
beforeAll(async () => {
  server = await startTestServer({ build: false, seed: { hosts: 8, users: 3 }, withdrawals: { now: () => clock } });
  db = server.readDb();
  rw = writeDb(server);
  const people = callPeople(server);
  for (let i = 2; i <= 8; i++) p[`host${i}`] = await people.signIn(`host${i}@example.com`);
  // These hosts start with no income (the seed gives every host some): each test earns what it withdraws.
  rw.prepare("DELETE FROM wallet_flows WHERE account = 'income' AND user_id IN (SELECT id FROM users WHERE user_type = 2)").run();
  rw.prepare('UPDATE wallets SET income = 0 WHERE user_id IN (SELECT id FROM users WHERE user_type = 2)').run();
  for (let i = 1; i <= 3; i++) p[`user${i}`] = await people.signIn(`user${i}@example.com`);
});
afterAll(async () => {
  rw.close();
  await server.close();
});

const as = (name: string) => ({ token: p[name]!.token });
const id = (name: string) => p[name]!.userId;
const income = (name: string) => db.prepare<[number], number>('SELECT coalesce((SELECT income FROM wallets WHERE user_id = ?), 0)').pluck().get(id(name))!;
/** The income ledger's sum: every balance is the sum of its entries. */
const ledgerSum = (name: string) =>
  db.prepare<[number], number>("SELECT coalesce(sum(amount), 0) FROM wallet_flows WHERE user_id = ? AND account = 'income'").pluck().get(id(name))!;
const earn = (name: string, amount: number, reason: string = CallFlowReason.callIncome) => createWallets(rw).earn(id(name), 'income', amount, reason, null);
const refused = (message: string, code: string = ResultCode.invalidRequest) => ({ code, message });

const draft = (over: Partial<AccountDraft> = {}): AccountDraft => ({
  kind: 'bank', holderName: 'Mei Chen', institution: 'First Bank', accountNumber: 'DE89 3704 0044 0532 0130 00', chain: '', ...over,
});
async function addAccount(name: string, d: AccountDraft = draft()): Promise<number> {
  const res = await server.call(addWithdrawAccount, d, as(name));
  expect(res.code, res.message).toBe(ResultCode.success);
  return res.data!.account.id;
}
async function setPassword(name: string, password = '246810') {
  expect((await server.call(setWithdrawPassWord, { password }, as(name))).code).toBe(ResultCode.success);
}
const apply = (name: string, body: Partial<RequestOf<typeof applyWithdrawV2>> & { accountId: number }) =>
  server.call(applyWithdrawV2, { idempotencyKey: randomUUID(), amount: 1000, password: '246810', ...body }, as(name));
const operator = async (withdrawalId: number, to: string, reason?: string) => {
  const res = await fetch(`${server.base}/shell/api/withdrawals/move`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: withdrawalId, to, reason }),
  });
  return { status: res.status, body: (await res.json()) as { record?: { status: string; reason: string }; error?: string } };
};

/** One valid request of each of the nine endpoints. */
const NINE: [Endpoint, Record<string, unknown>][] = [
  [myBalance, {}],
  [incomeFlowList, { currentPage: 1, pageSize: 10 }],
  [hostWallet, {}],
  [withdrawAccountList, {}],
  [addWithdrawAccount, { ...draft() }],
  [getAnchorWithDrawConfig, {}],
  [setWithdrawPassWord, { password: '135790' }],
  [applyWithdrawV2, { idempotencyKey: 'k-not-a-host-0001', amount: 1000, accountId: 1, password: '135790' }],
  [withdrawRecord, { currentPage: 1, pageSize: 10 }],
];
const TABLES = ['withdraw_accounts', 'withdraw_passwords', 'withdrawals', 'wallet_flows', 'wallets', 'idempotency_keys', 'sys_mail'];
const counts = () => TABLES.map((t) => db.prepare(`SELECT count(*) FROM ${t}`).pluck().get());

describe('[§6 host: withdrawal] only hosts', () => {
  it('refuses a user on every one of the nine endpoints (1000, TEXT_HOSTS_ONLY) and writes nothing', async () => {
    const before = counts();
    for (const [endpoint, body] of NINE) {
      expect(await server.call(endpoint, body, as('user1')), endpoint.path).toEqual(refused(TEXT_HOSTS_ONLY));
    }
    expect(counts()).toEqual(before);
  });

  it('refuses every one of them without a session (1005)', async () => {
    for (const [endpoint, body] of NINE) expect((await server.call(endpoint, body)).code, endpoint.path).toBe(ResultCode.authFailed);
  });
});

describe('the withdrawal password', () => {
  it('is set once, stored hashed, changed with the old one; wrong old ones count and lock; the lock ends in time', async () => {
    expect(await server.call(setWithdrawPassWord, { password: '12345' }, as('host2'))).toEqual(refused(TEXT_PASSWORD_FORMAT));
    expect(await server.call(setWithdrawPassWord, { password: '12345a' }, as('host2'))).toEqual(refused(TEXT_PASSWORD_FORMAT));
    expect((await server.call(getAnchorWithDrawConfig, {}, as('host2'))).data!.hasPassword).toBe(false);
    await setPassword('host2', '111111');
    const hash = db.prepare<[number], string>('SELECT hash FROM withdraw_passwords WHERE host_id = ?').pluck().get(id('host2'))!;
    expect(hash).not.toContain('111111');
    expect(hash).toMatch(/^scrypt\$/);
    expect((await server.call(hostWallet, {}, as('host2'))).data!.hasPassword).toBe(true);
    expect(await server.call(setWithdrawPassWord, { password: '222222' }, as('host2'))).toEqual(refused(TEXT_PASSWORD_SET_ALREADY));

    const attempts = () => db.prepare<[number], number>('SELECT failed_attempts FROM withdraw_passwords WHERE host_id = ?').pluck().get(id('host2'));
    expect(await server.call(setWithdrawPassWord, { password: '222222', oldPassword: '999999' }, as('host2')))
      .toEqual(refused(textWrongPassword(PASSWORD_ATTEMPTS - 1)));
    expect(attempts()).toBe(1);
    // A right password starts the count again.
    expect(await server.call(setWithdrawPassWord, { password: '111111', oldPassword: '111111' }, as('host2'))).toEqual(refused(TEXT_PASSWORD_SAME));
    expect(attempts()).toBe(0);
    for (let left = PASSWORD_ATTEMPTS - 1; left >= 1; left--) {
      expect(await server.call(setWithdrawPassWord, { password: '222222', oldPassword: '999999' }, as('host2')))
        .toEqual(refused(textWrongPassword(left)));
    }
    expect(await server.call(setWithdrawPassWord, { password: '222222', oldPassword: '999999' }, as('host2')))
      .toEqual(refused(textPasswordLocked(PASSWORD_LOCK_MS), ResultCode.tooManyAttempts));
    expect(textPasswordLocked(PASSWORD_LOCK_MS)).toBe('Too many wrong passwords. Withdrawals are locked for 15 minutes.');
    // Locked: even the right password is not looked at, and applying is locked too.
    clock += 10 * 60_000;
    expect(await server.call(setWithdrawPassWord, { password: '222222', oldPassword: '111111' }, as('host2')))
      .toEqual(refused(textPasswordLocked(5 * 60_000), ResultCode.tooManyAttempts));
    const account = await addAccount('host2');
    expect(await apply('host2', { accountId: account, password: '111111' })).toEqual(refused(textPasswordLocked(5 * 60_000), ResultCode.tooManyAttempts));
    clock += 5 * 60_000;
    expect((await server.call(setWithdrawPassWord, { password: '222222', oldPassword: '111111' }, as('host2'))).code).toBe(ResultCode.success);
    expect(db.prepare<[number], string>('SELECT hash FROM withdraw_passwords WHERE host_id = ?').pluck().get(id('host2'))).not.toBe(hash);
    expect(attempts()).toBe(0);
    clock = WEDNESDAY;
  });

  it('is needed before applying; a wrong one counts although the refusal is not stored, and five lock applying', async () => {
    earn('host3', 5000);
    const account = await addAccount('host3');
    expect(await apply('host3', { accountId: account })).toEqual(refused(TEXT_PASSWORD_NOT_SET));
    await setPassword('host3');
    const key = randomUUID();
    expect(await apply('host3', { accountId: account, password: '000000', idempotencyKey: key })).toEqual(refused(textWrongPassword(4)));
    // Not stored: the same key with the right password is a new request and goes through.
    const res = await apply('host3', { accountId: account, idempotencyKey: key });
    expect(res.code, res.message).toBe(ResultCode.success);
    for (let left = 4; left >= 1; left--) expect(await apply('host3', { accountId: account, password: '000000' })).toEqual(refused(textWrongPassword(left)));
    expect(await apply('host3', { accountId: account, password: '000000' })).toEqual(refused(textPasswordLocked(PASSWORD_LOCK_MS), ResultCode.tooManyAttempts));
    expect(await apply('host3', { accountId: account })).toEqual(refused(textPasswordLocked(PASSWORD_LOCK_MS), ResultCode.tooManyAttempts));
    expect(income('host3')).toBe(4000);
    expect(ledgerSum('host3')).toBe(income('host3'));
    clock += PASSWORD_LOCK_MS;
    expect((await apply('host3', { accountId: account })).code).toBe(ResultCode.success);
    clock = WEDNESDAY;
  });
});

describe('collection methods', () => {
  it('refuses each kind\'s mistakes with the first problem\'s words', async () => {
    const cases: [Partial<AccountDraft>, string][] = [
      [{ holderName: 'M' }, TEXT_HOLDER_NAME],
      [{ holderName: '12345' }, TEXT_HOLDER_NAME],
      [{ institution: 'B' }, TEXT_BANK_NAME],
      [{ accountNumber: '12345' }, TEXT_BANK_NUMBER],
      [{ accountNumber: '1234-5678-#9' }, TEXT_BANK_NUMBER],
      [{ kind: 'ewallet', institution: 'Venmo', accountNumber: 'mei@example.com' }, TEXT_PROVIDER],
      [{ kind: 'ewallet', institution: 'GCash', accountNumber: '0917 123' }, TEXT_EWALLET_ACCOUNT],
      [{ kind: 'ewallet', institution: 'PayPal', accountNumber: 'mei@' }, TEXT_EWALLET_ACCOUNT],
      [{ kind: 'usdt', chain: 'BEP20', accountNumber: 'T'.padEnd(34, 'a') }, TEXT_CHAIN],
      [{ kind: 'usdt', chain: 'TRC20', accountNumber: 'T0'.padEnd(34, 'a') }, textAddress('TRC20')],
      [{ kind: 'usdt', chain: 'ERC20', accountNumber: '0x1234' }, textAddress('ERC20')],
    ];
    for (const [over, text] of cases) expect(await server.call(addWithdrawAccount, draft(over), as('host4')), JSON.stringify(over)).toEqual(refused(text));
    expect((await server.call(withdrawAccountList, {}, as('host4'))).data!.list).toEqual([]);
  });

  it('adds each kind masked, refuses one twice (however it is typed) and more than the limit; no answer holds a whole number', async () => {
    const numbers = {
      bank: 'DE89370400440532013000',
      ewallet: 'mei.chen@example.com',
      trc: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
      erc: '0x52908400098527886E0F7030069857D2E4169EE7',
    };
    const added = [
      (await server.call(addWithdrawAccount, draft({ accountNumber: 'de89 3704 0044 0532 0130 00' }), as('host5'))).data!.account,
      (await server.call(addWithdrawAccount, draft({ kind: 'ewallet', institution: 'PayPal', accountNumber: numbers.ewallet }), as('host5'))).data!.account,
      (await server.call(addWithdrawAccount, draft({ kind: 'usdt', holderName: '', institution: '', chain: 'TRC20', accountNumber: numbers.trc }), as('host5'))).data!.account,
      (await server.call(addWithdrawAccount, draft({ kind: 'usdt', holderName: '', institution: '', chain: 'ERC20', accountNumber: numbers.erc }), as('host5'))).data!.account,
    ];
    expect(added.map((a) => a.masked)).toEqual(['•••• 3000', 'm•••@example.com', 'TJRa•••RTv8', '0x52•••9EE7']);
    expect(added[0]).toMatchObject({ kind: 'bank', holderName: 'Mei Chen', institution: 'First Bank', chain: '' });
    expect(added[2]).toMatchObject({ kind: 'usdt', holderName: '', institution: '', chain: 'TRC20' });
    for (const [over, text] of [
      [{ accountNumber: 'DE8937040044-0532013000' }, TEXT_ACCOUNT_EXISTS],
      [{ kind: 'ewallet', institution: 'PayPal', accountNumber: 'MEI.CHEN@example.com' }, TEXT_ACCOUNT_EXISTS],
      [{ kind: 'usdt', chain: 'ERC20', accountNumber: numbers.erc.toLowerCase() }, TEXT_ACCOUNT_EXISTS],
    ] as const) expect(await server.call(addWithdrawAccount, draft(over), as('host5'))).toEqual(refused(text));
    for (let i = added.length; i < MAX_ACCOUNTS; i++) await addAccount('host5', draft({ accountNumber: `ACC${String(i).padStart(8, '0')}` }));
    expect(await server.call(addWithdrawAccount, draft({ accountNumber: 'ACC99999999' }), as('host5'))).toEqual(refused(TEXT_TOO_MANY_ACCOUNTS));
    const list = await server.call(withdrawAccountList, {}, as('host5'));
    expect(list.data!.list).toHaveLength(MAX_ACCOUNTS);
    // Newest first.
    expect(list.data!.list.at(-1)!.id).toBe(added[0]!.id);
    // Nothing the host gets back holds a whole number: neither the list, nor a record, nor the flows.
    rw.prepare('UPDATE withdraw_config SET minimum = 10').run();
    earn('host5', 100);
    await setPassword('host5');
    for (const a of added) expect((await apply('host5', { accountId: a.id, amount: 10 })).code).toBe(ResultCode.success);
    rw.prepare('UPDATE withdraw_config SET minimum = 1000').run();
    const answers = JSON.stringify([list, await server.call(withdrawRecord, { currentPage: 1, pageSize: 10 }, as('host5'))]);
    for (const whole of [...Object.values(numbers), 'DE89370400440532013000'.slice(-8)]) expect(answers).not.toContain(whole);
    expect(db.prepare<[number], string>('SELECT account_number FROM withdraw_accounts WHERE id = ?').pluck().get(added[0]!.id)).toBe(numbers.bank);
  });

  it('refuses a kind the rules do not offer now', async () => {
    rw.prepare(`UPDATE withdraw_config SET kinds = '["bank"]'`).run();
    try {
      expect((await server.call(getAnchorWithDrawConfig, {}, as('host4'))).data!.kinds).toEqual(['bank']);
      expect(await server.call(addWithdrawAccount, draft({ kind: 'ewallet', institution: 'PayPal', accountNumber: 'a@b.com' }), as('host4')))
        .toEqual(refused(TEXT_KIND_NOT_OFFERED));
    } finally {
      rw.prepare(`UPDATE withdraw_config SET kinds = '["bank","ewallet","usdt"]'`).run();
    }
  });
});

describe('applying', () => {
  it('shows the rules; refuses another host\'s method, a closed day, and amounts outside the rules or the income', async () => {
    earn('host6', 3000);
    await setPassword('host6');
    const mine = await addAccount('host6');
    const others = await addAccount('host7');
    expect((await server.call(getAnchorWithDrawConfig, {}, as('host6'))).data).toEqual({
      minimum: 1000, maximum: 100000, feePercent: 5, rate: 100, allowedDays: [1, 2, 3, 4, 5, 6, 7],
      kinds: ['bank', 'ewallet', 'usdt'], providers: ['PayPal', 'GCash', 'Paytm'], openToday: true, hasPassword: true,
    });
    expect(await apply('host6', { accountId: others })).toEqual(refused(TEXT_ACCOUNT_NOT_FOUND));
    expect(await apply('host6', { accountId: mine, amount: 999 })).toEqual(refused(textBelowMinimum(1000)));
    expect(await apply('host6', { accountId: mine, amount: 3001 })).toEqual(refused(textAboveBalance(3000)));
    rw.prepare('UPDATE withdraw_config SET maximum = 2000').run();
    expect((await server.call(myBalance, {}, as('host6'))).data).toEqual({ income: 3000, held: 0, withdrawable: 2000 });
    expect(await apply('host6', { accountId: mine, amount: 2500 })).toEqual(refused(textAboveMaximum(2000)));
    rw.prepare('UPDATE withdraw_config SET maximum = 100000').run();
    // Every day but today (a Wednesday, 3).
    expect(utcWeekday(clock)).toBe(3);
    rw.prepare(`UPDATE withdraw_config SET allowed_days = '[1,2,4,5]'`).run();
    try {
      expect((await server.call(getAnchorWithDrawConfig, {}, as('host6'))).data!.openToday).toBe(false);
      expect(await apply('host6', { accountId: mine })).toEqual(refused(textDays([1, 2, 4, 5])));
      clock += 86_400_000;
      expect((await apply('host6', { accountId: mine, amount: 1000 })).code).toBe(ResultCode.success);
    } finally {
      rw.prepare(`UPDATE withdraw_config SET allowed_days = '[1,2,3,4,5,6,7]'`).run();
      clock = WEDNESDAY;
    }
    const res = await apply('host6', { accountId: mine, amount: 1999 });
    expect(res.data!.record).toMatchObject({
      amount: 1999, fee: 100, usd: '18.99', status: 'applied', reason: '', accountKind: 'bank', accountLabel: 'First Bank •••• 3000',
    });
    expect((await server.call(myBalance, {}, as('host6'))).data).toEqual({ income: 1, held: 2999, withdrawable: 0 });
    expect(ledgerSum('host6')).toBe(1);
  });

  it('50 concurrent applies for more than the income accept at most the income, never below 0', async () => {
    earn('host8', 7500);
    await setPassword('host8');
    const account = await addAccount('host8');
    const answers = await Promise.all(Array.from({ length: 50 }, () => apply('host8', { accountId: account, amount: 1000 })));
    const accepted = answers.filter((a) => a.code === ResultCode.success);
    expect(accepted).toHaveLength(7);
    // Once the income is short, each of the others hears what can be withdrawn.
    for (const a of answers.filter((x) => x.code !== ResultCode.success)) expect(a).toEqual(refused(textAboveBalance(500)));
    expect(income('host8')).toBe(500);
    const taken = db.prepare<[number], number>('SELECT sum(amount) FROM withdrawals WHERE host_id = ?').pluck().get(id('host8'));
    expect(taken).toBe(7000);
    expect(ledgerSum('host8')).toBe(income('host8'));
    expect((await server.call(hostWallet, {}, as('host8'))).data).toEqual({
      income: 500, held: 7000, withdrawable: 0, earned: 7500, paidOut: 0, diamonds: 0, hasPassword: true,
    });
  });

  it('one apply replayed 20 times at once takes once; its key with another body is refused', async () => {
    earn('host7', 5000);
    await setPassword('host7');
    const account = (await server.call(withdrawAccountList, {}, as('host7'))).data!.list[0]!.id;
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => apply('host7', { accountId: account, amount: 1200, idempotencyKey: key })));
    expect(answers.every((a) => a.code === ResultCode.success)).toBe(true);
    expect(new Set(answers.map((a) => a.data!.record.id)).size).toBe(1);
    expect(income('host7')).toBe(3800);
    expect(await apply('host7', { accountId: account, amount: 1300, idempotencyKey: key })).toEqual(refused(TEXT_IDEMPOTENCY_KEY_REUSED));
    // The password is not part of what the key is bound to (its fingerprint would give six digits away):
    // a replay with another one answers the stored record, moves nothing and counts no attempt.
    const replay = await apply('host7', { accountId: account, amount: 1200, idempotencyKey: key, password: '000000' });
    expect(replay.data!.record.id).toBe(answers[0]!.data!.record.id);
    expect(db.prepare<[number], number>('SELECT failed_attempts FROM withdraw_passwords WHERE host_id = ?').pluck().get(id('host7'))).toBe(0);
    expect(income('host7')).toBe(3800);
    expect(ledgerSum('host7')).toBe(3800);
  });
});

describe('the operator\'s stand-in (dev shell)', () => {
  it('moves to processing then paid, tells the host, and lists withdrawals for the operator', async () => {
    const [record] = (await server.call(withdrawRecord, { currentPage: 1, pageSize: 1 }, as('host7'))).data!.list;
    expect((await operator(record!.id, 'processing')).body.record!.status).toBe('processing');
    expect(await operator(record!.id, 'processing')).toMatchObject({ status: 409 });
    expect((await operator(record!.id, 'paid')).body.record!.status).toBe('paid');
    expect(await operator(record!.id, 'refused', 'Too late')).toEqual({ status: 409, body: { error: TEXT_RECORD_ENDED } });
    expect(income('host7')).toBe(3800);
    const wallet = (await server.call(hostWallet, {}, as('host7'))).data!;
    expect(wallet).toMatchObject({ held: 0, paidOut: 1200 });
    const mail = db.prepare<[number], { title: string; content: string }>(
      'SELECT title, content FROM sys_mail WHERE user_id = ? ORDER BY id DESC LIMIT 1',
    ).get(id('host7'));
    expect(mail).toEqual(mailOfPaid({ amount: 1200, usd: '11.40' }));
    expect(mail!.content).toBe('Your withdrawal of 1200 diamonds (US$ 11.40) was paid.');
    const list = (await (await fetch(`${server.base}/shell/api/withdrawals`)).json()) as { list: { id: number; hostNickname: string; status: string }[] };
    expect(list.list[0]).toMatchObject({ id: record!.id, hostId: id('host7'), hostNickname: 'Yuki', status: 'paid' });
    expect(await operator(999_999, 'paid')).toMatchObject({ status: 404 });
    expect(await operator(record!.id, 'refused')).toMatchObject({ status: 400 });
  });

  it('a refusal replayed at once returns the amount exactly once, and a paid after it is refused', async () => {
    const records = (await server.call(withdrawRecord, { currentPage: 1, pageSize: 50 }, as('host8'))).data!.list;
    expect(records).toHaveLength(7);
    const before = income('host8');
    const answers = await Promise.all(Array.from({ length: 10 }, () => operator(records[0]!.id, 'refused', 'The account name does not match')));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error === TEXT_RECORD_ENDED)).toBe(true);
    expect(income('host8')).toBe(before + 1000);
    expect(await operator(records[0]!.id, 'paid')).toEqual({ status: 409, body: { error: TEXT_RECORD_ENDED } });
    expect(income('host8')).toBe(before + 1000);
    expect(ledgerSum('host8')).toBe(income('host8'));
    const [first] = (await server.call(withdrawRecord, { currentPage: 1, pageSize: 1 }, as('host8'))).data!.list;
    expect(first).toMatchObject({ id: records[0]!.id, status: 'refused', reason: 'The account name does not match' });
    expect(db.prepare<[number], string>('SELECT content FROM sys_mail WHERE user_id = ? ORDER BY id DESC LIMIT 1').pluck().get(id('host8')))
      .toBe(mailOfRefused({ amount: 1000, reason: 'The account name does not match' }).content);
    // The held and returned amounts as the host reads them; a return is not earnings.
    expect((await server.call(hostWallet, {}, as('host8'))).data).toMatchObject({ income: 1500, held: 6000, earned: 7500, paidOut: 0 });
    // Paging the records: 7 in pages of 3.
    const pages = await Promise.all([1, 2, 3].map((currentPage) => server.call(withdrawRecord, { currentPage, pageSize: 3 }, as('host8'))));
    expect(pages.map((pg) => pg.data!.list.length)).toEqual([3, 3, 1]);
    expect(pages.flatMap((pg) => pg.data!.list.map((r) => r.id))).toEqual(records.map((r) => r.id));
  });
});

describe('the income ledger', () => {
  it('names each entry\'s kind (a live gift apart from a call\'s and a chat\'s), filters by kind and period in the query, and pages', async () => {
    const host = 'host4';
    rw.prepare('UPDATE wallets SET diamonds = 5000 WHERE user_id = ?').run(id('user2'));
    const at = (ms: number) => rw.prepare('UPDATE wallet_flows SET created_at = ? WHERE id = (SELECT max(id) FROM wallet_flows WHERE user_id = ? AND account = \'income\')').run(ms, id(host));
    // A call from user2 (its first period is the host's call income) with a gift in it.
    const people = callPeople(server);
    await people.presence(p[host]!);
    const created = await server.call(createCall, { idempotencyKey: randomUUID(), beCallUserId: id(host), callType: 0 }, as('user2'));
    expect(created.code, created.message).toBe(ResultCode.success);
    const { channelId } = created.data!;
    expect((await server.call(joinCall, { idempotencyKey: randomUUID(), searchValue: channelId }, as(host))).code).toBe(ResultCode.success);
    at(1_000);
    const callGift = await server.call(sendGift, { idempotencyKey: randomUUID(), channelId, toUserId: id(host), giftId: 1, giftNum: 4 }, as('user2'));
    expect(callGift.code, callGift.message).toBe(ResultCode.success);
    at(1_500);
    expect((await server.call(endCall, { channelId, hangupReason: 1 }, as('user2'))).code).toBe(ResultCode.success);
    await people.closeAll();
    const callIncome = db.prepare<[string], number>('SELECT call_income FROM calls WHERE channel_id = ?').pluck().get(channelId)!;
    expect(callIncome).toBeGreaterThan(0);
    // A gift outside any call or room.
    const gift = await server.call(sendGift, { idempotencyKey: randomUUID(), toUserId: id(host), giftId: 3, giftNum: 2 }, as('user2'));
    expect(gift.code, gift.message).toBe(ResultCode.success);
    at(2_000);
    const room = (await server.call(beginLiveRoom, { title: 'Money', privateCallOpen: false }, as(host))).data!;
    await server.call(getRoomAndJoinRoom, { searchValue: id(host) }, as('user2'));
    const liveGift = await server.call(sendGift, { idempotencyKey: randomUUID(), yxRoomId: room.yxRoomId, toUserId: id(host), giftId: 2, giftNum: 3 }, as('user2'));
    expect(liveGift.code, liveGift.message).toBe(ResultCode.success);
    at(3_000);
    earn(host, 100, LIVE_TASK_FLOW_REASON);
    at(4_000);
    earn(host, 7, 'privateMsg.income');
    at(5_000);
    earn(host, 9, 'something.new');
    at(6_000);
    const all = (await server.call(incomeFlowList, { currentPage: 1, pageSize: 50 }, as(host))).data!.list;
    expect(all.map((f) => [f.kind, f.amount])).toEqual([
      ['other', 9], ['privateMessage', 7], ['taskReward', 100], ['liveGift', 15], ['gift', 20], ['gift', 4], ['call', callIncome],
    ]);
    expect(all[0]!.balance).toBe(income(host));
    expect(all.map((f) => f.createdAt)).toEqual([6_000, 5_000, 4_000, 3_000, 2_000, 1_500, 1_000]);
    const kinds = async (body: Partial<RequestOf<typeof incomeFlowList>>) =>
      (await server.call(incomeFlowList, { currentPage: 1, pageSize: 50, ...body }, as(host))).data!.list.map((f) => f.kind);
    expect(await kinds({ kind: 'gift' })).toEqual(['gift', 'gift']);
    expect(await kinds({ kind: 'liveGift' })).toEqual(['liveGift']);
    expect(await kinds({ kind: 'call' })).toEqual(['call']);
    expect(await kinds({ kind: 'other' })).toEqual(['other']);
    expect(await kinds({ kind: 'withdrawal' })).toEqual([]);
    expect(await kinds({ from: 2_000, to: 4_000 })).toEqual(['liveGift', 'gift']);
    expect(await kinds({ from: 5_000 })).toEqual(['other', 'privateMessage']);
    expect(await kinds({ to: 2_000 })).toEqual(['gift', 'call']);
    expect(await kinds({ from: 1_000, to: 1_500 })).toEqual(['call']);
    // Paged after the filter: two gifts of either kind in pages of one.
    const page2 = await server.call(incomeFlowList, { currentPage: 2, pageSize: 2, from: 2_000, to: 6_000 }, as(host));
    expect(page2.data!.list.map((f) => f.kind)).toEqual(['liveGift', 'gift']);
    // Withdrawals and returns show as such.
    const withdrawals = (await server.call(incomeFlowList, { currentPage: 1, pageSize: 50 }, as('host8'))).data!.list;
    expect(withdrawals.slice(0, 2).map((f) => [f.kind, f.amount])).toEqual([['withdrawalReturned', 1000], ['withdrawal', -1000]]);
    expect(ledgerSum(host)).toBe(income(host));
  });
});

describe('the ledger', () => {
  it('sums to every income balance, diamonds too, after all of the above', () => {
    const drift = db.prepare(
      `SELECT w.user_id, w.income, w.diamonds,
              coalesce((SELECT sum(amount) FROM wallet_flows f WHERE f.user_id = w.user_id AND f.account = 'income'), 0) AS incomeFlows,
              coalesce((SELECT sum(amount) FROM wallet_flows f WHERE f.user_id = w.user_id AND f.account = 'diamonds'), 0) AS diamondFlows
         FROM wallets w WHERE w.income <> incomeFlows OR (w.diamonds <> diamondFlows AND w.user_id <> ?)`,
    ).all(id('user2'));
    // user2's diamonds were set by hand above (set-up, not a ledger entry).
    expect(drift).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM wallets WHERE income < 0').pluck().get()).toBe(0);
  });
});
