// @vitest-environment jsdom
/**
 * Screen tests of /wallet/withdrawal (SPEC §2; §6 host: withdrawal): the whole app signed in as a
 * host (money.testing.tsx) with the in-memory money out (machines/ports/withdraw.fake.ts) on the
 * simulated clock (CLOCK_START is a Thursday); the DOM follows the withdrawal actor's snapshots.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD_ATTEMPTS, PASSWORD_LOCK_MS, TEXT_PASSWORD_FORMAT, TEXT_PASSWORD_MISMATCH, textAboveBalance, textAboveMaximum, textBelowMinimum,
  textDays, textPasswordLocked, textWrongPassword,
} from '../../../../machines/codes/withdraw.codes';
import { FakeWithdrawPort } from '../../../../machines/ports/withdraw.fake';
import type { FakeWithdrawOptions } from '../../../../machines/ports/withdraw.fake';
import { screens } from '../../../app/screens';
import { mountMoney } from '../money.testing';

afterEach(cleanup);
window.scrollTo = () => {};

beforeAll(async () => {
  await Promise.all([
    ...screens.filter((s) => ['/wallet', '/wallet/withdrawal', '/wallet/addCollectionMethod', '/'].includes(s.path)).map((s) => s.load()),
    import('../../../../machines/wallet/money.actors'),
  ]);
}, 60_000);

const PASSWORD = '246810';
const IBAN = 'ES9121000418450200051332';

/** A host with 6,019 diamonds of income (as the reference server seeds), a password and a bank account unless told. */
function host(options: FakeWithdrawOptions & { method?: boolean } = {}) {
  const { method = true, ...rest } = options;
  return (now: () => number) => {
    const out = new FakeWithdrawPort('auto', { now, income: 6019, password: PASSWORD, ...rest });
    if (method) void out.addAccount({ kind: 'bank', holderName: 'Maria Lopez', institution: 'Banco Uno', accountNumber: IBAN, chain: '' });
    return out;
  };
}

const editing = () => screen.findByRole('form', { name: 'Withdrawal' });
const confirming = () => screen.findByRole('form', { name: 'Confirm the withdrawal' });
const amountField = () => screen.getByLabelText('Amount in diamonds') as HTMLInputElement;
const typeAmount = (text: string) => fireEvent.change(amountField(), { target: { value: text } });
const next = () => fireEvent.click(screen.getByRole('button', { name: 'Next' }));
const passwordField = () => screen.getByLabelText('Withdrawal password') as HTMLInputElement;
async function submitPassword(password: string) {
  fireEvent.change(passwordField(), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Apply for withdrawal' }));
}

describe('[§6 withdrawal] before the amount: a password, a collection method, an open day', () => {
  it('no password: the set-password form (6 digits twice; the format and a mismatch said), then the flow goes on', async () => {
    const { withdraw } = mountMoney({ path: '/wallet/withdrawal', host: true, withdraw: host({ password: undefined }) });
    const form = await screen.findByRole('form', { name: 'Set withdrawal password' });
    expect(screen.getByRole('heading', { name: 'Set a withdrawal password first' })).toBeTruthy();
    const set = (a: string, b: string) => {
      fireEvent.change(within(form).getByLabelText('Withdrawal password'), { target: { value: a } });
      fireEvent.change(within(form).getByLabelText('Type it again'), { target: { value: b } });
      fireEvent.click(within(form).getByRole('button', { name: 'Save password' }));
    };
    set('1234', '1234');
    expect((await within(form).findByRole('alert')).textContent).toBe(TEXT_PASSWORD_FORMAT);
    // Letters are not taken: only the digits are kept.
    fireEvent.change(within(form).getByLabelText('Withdrawal password'), { target: { value: '12ab34' } });
    expect((within(form).getByLabelText('Withdrawal password') as HTMLInputElement).value).toBe('1234');
    set(PASSWORD, '246811');
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe(TEXT_PASSWORD_MISMATCH));
    const described = within(form).getByLabelText('Type it again').getAttribute('aria-describedby');
    expect(document.getElementById(described!)?.textContent).toBe(TEXT_PASSWORD_MISMATCH);
    expect(withdraw.password).toBeNull();
    set(PASSWORD, PASSWORD);
    expect(await editing()).toBeTruthy();
    expect(withdraw.password).toBe(PASSWORD);
  });

  it('no collection method: the link to add one, which comes back to the withdrawal', async () => {
    mountMoney({ path: '/wallet/withdrawal', host: true, withdraw: host({ method: false }) });
    const add = await screen.findByRole('link', { name: 'Add a collection method' });
    expect(add.getAttribute('href')).toBe('/wallet/addCollectionMethod?from=withdrawal');
    expect(screen.getByText('Add where the money goes first.')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Withdrawal' })).toBeNull();
  });

  it('a day withdrawals are closed: the days they are open, and no amount asked', async () => {
    mountMoney({ path: '/wallet/withdrawal', host: true, withdraw: host({ rules: { minimum: 1000, maximum: 100_000, feePercent: 5, rate: 100, allowedDays: [1, 5] } }) });
    expect((await screen.findByRole('alert')).textContent).toBe(textDays([1, 5]));
    expect(textDays([1, 5])).toBe('Withdrawals can be applied for on Mon, Fri (UTC).');
    expect(screen.queryByLabelText('Amount in diamonds')).toBeNull();
  });
});

describe('[§6 withdrawal] the amount', () => {
  it('shows the rules; All fills what can be withdrawn; too small, too large and over the balance are said in an alert', async () => {
    mountMoney({ path: '/wallet/withdrawal', host: true, withdraw: host({ rules: { minimum: 1000, maximum: 5000, feePercent: 5, rate: 100, allowedDays: [1, 2, 3, 4, 5, 6, 7] } }) });
    const rules = await screen.findByRole('region', { name: 'Withdrawal rules' });
    const figure = (dt: string) => within(rules).getByText(dt).nextElementSibling?.textContent;
    expect(figure('You can withdraw')).toBe('5,000');
    expect(figure('Minimum')).toBe('1,000');
    expect(figure('Maximum at once')).toBe('5,000');
    expect(figure('Fee')).toBe('5%');
    expect(figure('Rate')).toBe('100 diamonds = US$ 1');
    expect(figure('Days (UTC)')).toBe('Mon, Tue, Wed, Thu, Fri, Sat, Sun');
    await editing();
    expect(screen.getByRole('radio', { name: /Banco Uno •••• 1332/ })).toHaveProperty('checked', true);

    fireEvent.click(screen.getByRole('button', { name: 'All' }));
    expect(amountField().value).toBe('5000');
    expect(screen.getByText('Fee 250 diamonds · you receive US$ 47.50')).toBeTruthy();

    const said = async (amount: string, text: string) => {
      typeAmount(amount);
      next();
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe(text);
      expect(amountField().getAttribute('aria-invalid')).toBe('true');
      expect(amountField().getAttribute('aria-describedby')?.split(' ')).toContain(alert.id);
    };
    await said('999', textBelowMinimum(1000));
    await said('5001', textAboveMaximum(5000));
    typeAmount('12');
    // A new amount clears what was said.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(amountField().getAttribute('aria-invalid')).toBeNull();
    cleanup();

    mountMoney({ path: '/wallet/withdrawal', host: true, withdraw: host() });
    await editing();
    await said('6020', textAboveBalance(6019));
    // Not a number: only its digits are kept.
    typeAmount('1,5x00');
    expect(amountField().value).toBe('1500');
  });
});

describe('[§6 withdrawal] the quote, the password and the apply', () => {
  it('Next shows the quote (fee, US$, where) and asks the password; a wrong one says how many tries are left and clears the digits', async () => {
    const { withdraw } = mountMoney({ path: '/wallet/withdrawal', host: true, withdraw: host() });
    await editing();
    typeAmount('1000');
    next();
    const form = await confirming();
    const figure = (dt: string) => within(form).getByText(dt).nextElementSibling?.textContent;
    expect(figure('Amount')).toBe('1,000 diamonds');
    expect(figure('Fee')).toBe('50 diamonds');
    expect(within(form).getByTestId('withdraw-usd').textContent).toBe('US$ 9.50');
    expect(figure('To')).toBe('Bank account, Banco Uno •••• 1332');
    await submitPassword('000000');
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe(textWrongPassword(PASSWORD_ATTEMPTS - 1));
    expect(passwordField().value).toBe('');
    expect(passwordField().getAttribute('aria-invalid')).toBe('true');
    expect(passwordField().getAttribute('aria-describedby')).toBe(alert.id);
    expect(withdraw.withdrawals).toEqual([]);
    // Not 6 digits: said here, nothing sent.
    await submitPassword('123');
    await waitFor(() => expect(within(form).getByRole('alert').textContent).toBe(TEXT_PASSWORD_FORMAT));
    expect(withdraw.requests).toHaveLength(1);
  });

  it(`${PASSWORD_ATTEMPTS} wrong passwords lock withdrawals, and the screen says for how long`, async () => {
    mountMoney({ path: '/wallet/withdrawal', host: true, withdraw: host() });
    await editing();
    typeAmount('1000');
    next();
    await confirming();
    for (let left = PASSWORD_ATTEMPTS - 1; left > 0; left -= 1) {
      await submitPassword('000000');
      await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(textWrongPassword(left)));
    }
    await submitPassword('000000');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(textPasswordLocked(PASSWORD_LOCK_MS)));
    expect(screen.queryByRole('form', { name: 'Confirm the withdrawal' })).toBeNull();
    // OK goes back to the rules; the right password is refused while locked.
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await editing();
    typeAmount('1000');
    next();
    await confirming();
    await submitPassword(PASSWORD);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(textPasswordLocked(PASSWORD_LOCK_MS)));
  });

  it('an apply that got no answer, tried again, sends the same key and is applied once; the income drops by it', async () => {
    const { withdraw, router } = mountMoney({ path: '/wallet/withdrawal', host: true, withdraw: host() });
    await editing();
    typeAmount('1000');
    next();
    await confirming();
    withdraw.loseNextAnswer();
    await submitPassword(PASSWORD);
    expect((await screen.findByRole('alert')).textContent).toBe('No answer came.');
    await submitPassword(PASSWORD);
    const applied = await screen.findByRole('status', { name: 'Withdrawal applied' });
    expect(applied.textContent).toContain('1,000 diamonds left your income. US$ 9.50 will be paid to Banco Uno •••• 1332.');
    expect(applied.textContent).toContain('Status: Applied.');
    expect(withdraw.requests).toHaveLength(2);
    expect(withdraw.requests[1]!.idempotencyKey).toBe(withdraw.requests[0]!.idempotencyKey);
    expect(withdraw.withdrawals).toHaveLength(1);
    expect(withdraw.income).toBe(5019);

    fireEvent.click(within(applied).getByRole('button', { name: 'Back to wallet' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
    await waitFor(() => expect(screen.getByTestId('host-income').textContent).toBe('5,019'));
    expect(screen.getByTestId('host-held').textContent).toBe('1,000');
  });

  it('a refusal says the server\'s words, and OK starts again from the rules', async () => {
    const { withdraw } = mountMoney({ path: '/wallet/withdrawal', host: true, withdraw: host() });
    await editing();
    typeAmount('2000');
    next();
    await confirming();
    withdraw.refuseNextApply(new Error('Withdrawals are paused for maintenance.'));
    await submitPassword(PASSWORD);
    expect((await screen.findByRole('alert')).textContent).toBe('Withdrawals are paused for maintenance.');
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await editing();
    expect(withdraw.income).toBe(6019);
  });
});
