// @vitest-environment jsdom
/**
 * Screen tests of a host's /wallet and /wallet/withdrawalRecord (SPEC §2 /wallet, §6 host:
 * withdrawal), and of the four sub-views for someone who is not a host: the whole app signed in
 * (money.testing.tsx) with the in-memory money out (machines/ports/withdraw.fake.ts) on the
 * simulated clock; the DOM follows the host-wallet, paged-list and wallet actors' snapshots.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_HOSTS_ONLY } from '../../../../machines/codes/withdraw.codes';
import type { IncomeKind } from '../../../../machines/codes/withdraw.codes';
import { FakeWithdrawPort } from '../../../../machines/ports/withdraw.fake';
import type { IncomeQuery } from '../../../../machines/ports/withdraw.port';
import { screens } from '../../../app/screens';
import { CLOCK_START, mountMoney } from '../money.testing';
import { INCOME_KIND_LABEL } from './hostMoney';

afterEach(cleanup);
window.scrollTo = () => {};

const PATHS = ['/wallet', '/wallet/withdrawal', '/wallet/addCollectionMethod', '/wallet/collectionInfo', '/wallet/withdrawalRecord', '/newsRestricted', '/'];
beforeAll(async () => {
  await Promise.all([
    ...screens.filter((s) => PATHS.includes(s.path)).map((s) => s.load()),
    import('../../../../machines/wallet/money.actors'),
  ]);
}, 60_000);

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const PASSWORD = '246810';

/**
 * A host with a history: a call 20 days ago, a gift in a call 3 days ago, a live gift an hour
 * ago and a secret message 10 minutes ago; then two withdrawals (1,000 paid, 1,100 still held).
 * Each entry is made at its own time; the fake reads the app's clock after.
 */
function hostWithHistory(now: () => number) {
  let at: number | null = null;
  const out = new FakeWithdrawPort('auto', { now: () => at ?? now(), diamonds: 250, password: PASSWORD });
  const earn = (ago: number, amount: number, kind: IncomeKind) => {
    at = CLOCK_START - ago;
    out.earn(amount, kind);
  };
  earn(20 * DAY, 3000, 'call');
  earn(3 * DAY, 500, 'gift');
  earn(HOUR, 200, 'liveGift');
  at = CLOCK_START - 30 * 60_000;
  void out.addAccount({ kind: 'bank', holderName: 'Maria Lopez', institution: 'Banco Uno', accountNumber: 'ES9121000418450200051332', chain: '' });
  return { out, settle: () => { at = null; }, earn };
}

/** Records the income queries the screen sends. */
function recordQueries(out: FakeWithdrawPort): IncomeQuery[] {
  const queries: IncomeQuery[] = [];
  const incomeFlows = out.incomeFlows.bind(out);
  out.incomeFlows = (query) => {
    queries.push(query);
    return incomeFlows(query);
  };
  return queries;
}

/** The same host after a secret message and two withdrawals (the fake in auto mode acts at once, before its promise). */
function withWithdrawals(now: () => number) {
  const { out, settle, earn } = hostWithHistory(now);
  earn(10 * 60_000, 19, 'privateMessage');
  const accountId = out.methods[0]!.id;
  void out.apply({ idempotencyKey: 'k-paid-000000000000', amount: 1000, accountId, password: PASSWORD });
  out.pay(out.withdrawals[0]!.id);
  void out.apply({ idempotencyKey: 'k-held-000000000000', amount: 1100, accountId, password: PASSWORD });
  settle();
  return out;
}

const incomeList = () => screen.findByRole('list', { name: 'Income history' });
const rowNames = async () => within(await incomeList()).getAllByRole('article').map((a) => a.getAttribute('aria-label'));

describe('[§2 /wallet] a host\'s income', () => {
  it('shows the income, what one withdrawal may take now, what withdrawals hold, all earned, paid out and the diamonds to spend', async () => {
    let out!: FakeWithdrawPort;
    mountMoney({ path: '/wallet', host: true, withdraw: (now) => { const made = hostWithHistory(now); made.settle(); out = made.out; return out; } });
    await waitFor(() => expect(screen.getByTestId('host-income').textContent).toBe('3,700'));
    const [method] = await out.accounts();
    await out.apply({ idempotencyKey: 'k-paid-000000000000', amount: 1000, accountId: method!.id, password: PASSWORD });
    cleanup();
    // A fresh mount reads the summary again: 1,000 left the income and is held.
    mountMoney({ path: '/wallet', host: true, withdraw: () => out });
    await waitFor(() => expect(screen.getByTestId('host-income').textContent).toBe('2,700'));
    expect(screen.getByTestId('host-held').textContent).toBe('1,000');
    const figures = screen.getByRole('region', { name: 'Income' });
    const figure = (dt: string) => within(figures).getByText(dt).nextElementSibling?.textContent;
    expect(figure('Withdrawable now')).toBe('2,700');
    expect(figure('Earned in all')).toBe('3,700');
    expect(figure('Paid out')).toBe('0');
    expect(figure('Diamonds to spend')).toBe('250');
    out.pay(out.withdrawals[0]!.id);
    cleanup();
    mountMoney({ path: '/wallet', host: true, withdraw: () => out });
    await waitFor(() => expect(screen.getByTestId('host-held').textContent).toBe('0'));
    expect(within(screen.getByRole('region', { name: 'Income' })).getByText('Paid out').nextElementSibling?.textContent).toBe('1,000');
    expect(screen.getByRole('link', { name: 'Withdraw' }).getAttribute('href')).toBe('/wallet/withdrawal');
    expect(screen.getByRole('link', { name: 'Collection methods' }).getAttribute('href')).toBe('/wallet/collectionInfo');
    expect(screen.getByRole('link', { name: 'Withdrawal records' }).getAttribute('href')).toBe('/wallet/withdrawalRecord');
    expect(screen.getByRole('button', { name: 'Change withdrawal password' })).toBeTruthy();
  });

  it('the Income tab lists every entry newest first with its kind, signed amount and balance after it', async () => {
    mountMoney({ path: '/wallet', host: true, withdraw: withWithdrawals });
    expect(await screen.findByRole('tab', { name: 'Income' })).toBeTruthy();
    await waitFor(async () => expect(await rowNames()).toEqual([
      INCOME_KIND_LABEL.withdrawal, INCOME_KIND_LABEL.withdrawal, INCOME_KIND_LABEL.privateMessage, INCOME_KIND_LABEL.liveGift,
      INCOME_KIND_LABEL.gift, INCOME_KIND_LABEL.call,
    ]));
    const rows = within(await incomeList()).getAllByRole('article');
    // A list holds list items only (each entry's article inside its own).
    expect([...(await incomeList()).children].map((c) => c.tagName)).toEqual(rows.map(() => 'LI'));
    expect(rows[0]!.textContent).toContain('−1,100');
    expect(rows[0]!.textContent).toContain('Balance 1,619');
    expect(rows[1]!.textContent).toContain('−1,000');
    expect(rows[2]!.textContent).toContain('+19');
    expect(rows[2]!.textContent).toContain('Balance 3,719');
    expect(rows[5]!.textContent).toContain('+3,000');
    expect(rows[5]!.textContent).toContain('Balance 3,000');
    expect(screen.getByRole('tab', { name: 'Income' }).getAttribute('aria-selected')).toBe('true');
  });

  it('the Kind filter asks for that kind only, and a kind with none says so', async () => {
    let queries: IncomeQuery[] = [];
    mountMoney({ path: '/wallet', host: true, withdraw: (now) => { const made = hostWithHistory(now); made.settle(); queries = recordQueries(made.out); return made.out; } });
    await waitFor(async () => expect(await rowNames()).toHaveLength(3));
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'gift' } });
    await waitFor(async () => expect(await rowNames()).toEqual([INCOME_KIND_LABEL.gift]));
    expect(queries.at(-1)).toEqual({ page: 1, pageSize: 10, kind: 'gift' });
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'taskReward' } });
    expect(await screen.findByText('No income in this view yet.')).toBeTruthy();
    expect(queries.at(-1)).toEqual({ page: 1, pageSize: 10, kind: 'taskReward' });
  });

  it('the Period filter asks from the period\'s start on the app\'s clock: today, the last 7 and 30 days', async () => {
    let queries: IncomeQuery[] = [];
    mountMoney({ path: '/wallet', host: true, withdraw: (now) => { const made = hostWithHistory(now); made.settle(); queries = recordQueries(made.out); return made.out; } });
    await waitFor(async () => expect(await rowNames()).toHaveLength(3));
    const midnight = new Date(CLOCK_START);
    midnight.setHours(0, 0, 0, 0);
    const period = screen.getByLabelText('Period');
    fireEvent.change(period, { target: { value: 'week' } });
    await waitFor(async () => expect(await rowNames()).toEqual([INCOME_KIND_LABEL.liveGift, INCOME_KIND_LABEL.gift]));
    expect(queries.at(-1)).toEqual({ page: 1, pageSize: 10, from: midnight.getTime() - 6 * DAY });
    fireEvent.change(period, { target: { value: 'month' } });
    await waitFor(async () => expect(await rowNames()).toHaveLength(3));
    expect(queries.at(-1)).toEqual({ page: 1, pageSize: 10, from: midnight.getTime() - 29 * DAY });
    // Both filters at once.
    fireEvent.change(screen.getByLabelText('Kind'), { target: { value: 'call' } });
    await waitFor(async () => expect(await rowNames()).toEqual([INCOME_KIND_LABEL.call]));
    expect(queries.at(-1)).toEqual({ page: 1, pageSize: 10, kind: 'call', from: midnight.getTime() - 29 * DAY });
    fireEvent.change(period, { target: { value: 'today' } });
    expect(await screen.findByText('No income in this view yet.')).toBeTruthy();
    expect(queries.at(-1)).toEqual({ page: 1, pageSize: 10, kind: 'call', from: midnight.getTime() });
  });

  it('a user (not a host) still sees their own wallet: the balance and the Recharge tabs, no income', async () => {
    mountMoney({ path: '/wallet', wallet: { summary: { diamonds: 40, vip: false, paid: false } } });
    await waitFor(() => expect(screen.getByTestId('wallet-diamonds').textContent).toBe('40'));
    expect(screen.getByRole('region', { name: 'Balance' })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Recharge', 'Orders', 'Diamond history']);
    expect(screen.queryByRole('region', { name: 'Income' })).toBeNull();
    expect(screen.queryByTestId('host-income')).toBeNull();
  });
});

describe('[§2 /wallet/withdrawalRecord] the host\'s withdrawals', () => {
  it('lists each with its amount, what is paid where, its status; a refused one says why and that the diamonds are back', async () => {
    let out!: FakeWithdrawPort;
    mountMoney({
      path: '/wallet/withdrawalRecord', host: true,
      withdraw: (now) => {
        const made = hostWithHistory(now);
        made.settle();
        out = made.out;
        return out;
      },
    });
    // The fake's methods and withdrawals are made before the list asks (the list is empty until then).
    expect(await screen.findByText('No withdrawals yet.')).toBeTruthy();
    out.earn(6000, 'call');
    const [method] = await out.accounts();
    const apply = (amount: number, key: string) => out.apply({ idempotencyKey: key.padEnd(16, '0'), amount, accountId: method!.id, password: PASSWORD });
    const a = await apply(1000, 'k-a');
    const b = await apply(1100, 'k-b');
    const c = await apply(1200, 'k-c');
    await apply(1300, 'k-d');
    out.pay(a.id);
    out.refuse(b.id, 'The account name does not match.');
    out.process(c.id);
    cleanup();
    mountMoney({ path: '/wallet/withdrawalRecord', host: true, withdraw: () => out });
    const list = await screen.findByRole('list', { name: 'Withdrawal records' });
    const rows = within(list).getAllByRole('article');
    expect([...list.children].map((c) => c.tagName)).toEqual(rows.map(() => 'LI'));
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual([1300, 1200, 1100, 1000].map((n) => `Withdrawal of ${n} diamonds`));
    const row = (n: number) => within(list).getByRole('article', { name: `Withdrawal of ${n} diamonds` });
    expect(within(row(1300)).getByText('Applied')).toBeTruthy();
    expect(within(row(1200)).getByText('Processing')).toBeTruthy();
    expect(within(row(1000)).getByText('Paid')).toBeTruthy();
    // 5 % fee of 1,000 is 50; 950 at 100 a dollar.
    expect(row(1000).textContent).toContain('US$ 9.50 to Banco Uno •••• 1332');
    expect(row(1000).textContent).toContain('Fee 50 diamonds');
    expect(within(row(1100)).getByText('Refused')).toBeTruthy();
    expect(within(row(1100)).getByText('Refused: The account name does not match. The diamonds are back in your income.')).toBeTruthy();
    for (const n of [1000, 1200, 1300]) expect(row(n).textContent).not.toContain('The diamonds are back');
  });
});

describe('[§6 host only] the four sub-views for someone who is not a host', () => {
  it.each(['/wallet/withdrawal', '/wallet/addCollectionMethod', '/wallet/collectionInfo', '/wallet/withdrawalRecord'])('%s says only hosts have an income wallet, with the way to their wallet', async (path) => {
    const { withdraw } = mountMoney({ path });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(TEXT_HOSTS_ONLY);
    const back = screen.getByRole('link', { name: 'Open your wallet' });
    expect(back.getAttribute('href')).toBe('/wallet');
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Withdrawal records' })).toBeNull();
    expect(withdraw.requests).toEqual([]);
  });
});
