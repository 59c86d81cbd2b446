// @vitest-environment jsdom
/**
 * Screen tests of /wallet/addCollectionMethod and /wallet/collectionInfo (SPEC §2): the whole app
 * signed in as a host (money.testing.tsx) with the in-memory money out
 * (machines/ports/withdraw.fake.ts); the DOM follows the collection-methods actor's snapshots.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  TEXT_ACCOUNT_EXISTS, TEXT_BANK_NAME, TEXT_BANK_NUMBER, TEXT_CHAIN, TEXT_EWALLET_ACCOUNT, TEXT_HOLDER_NAME, TEXT_PROVIDER, textAddress,
} from '../../../../machines/codes/withdraw.codes';
import { FakeWithdrawPort } from '../../../../machines/ports/withdraw.fake';
import { screens } from '../../../app/screens';
import { mountMoney } from '../money.testing';

afterEach(cleanup);
window.scrollTo = () => {};

beforeAll(async () => {
  await Promise.all([
    ...screens.filter((s) => ['/wallet/withdrawal', '/wallet/addCollectionMethod', '/wallet/collectionInfo', '/'].includes(s.path)).map((s) => s.load()),
    import('../../../../machines/wallet/money.actors'),
  ]);
}, 60_000);

const IBAN = 'ES9121000418450200051332';
const TRC20 = 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE';
const form = () => screen.findByRole('form', { name: 'Add a collection method' });
const labels = (f: HTMLElement) => [...f.querySelectorAll('.field > label')].map((l) => l.textContent);
const type = (f: HTMLElement, label: string, value: string) => fireEvent.change(within(f).getByLabelText(label), { target: { value } });
const save = (f: HTMLElement) => fireEvent.click(within(f).getByRole('button', { name: 'Save' }));

/** The field's problem: aria-invalid, and the text it is described by. */
function problemOf(f: HTMLElement, label: string): string | null {
  const field = within(f).getByLabelText(label);
  if (field.getAttribute('aria-invalid') !== 'true') return null;
  return document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent ?? '(no description)';
}

describe('[§2 addCollectionMethod] the form', () => {
  it('each kind asks for its own fields', async () => {
    mountMoney({ path: '/wallet/addCollectionMethod', host: true });
    const f = await form();
    expect(within(f).getAllByRole('radio').map((r) => r.parentElement?.textContent)).toEqual(['Bank account', 'E-wallet', 'USDT address']);
    expect(within(f).getByRole('radio', { name: 'Bank account' })).toHaveProperty('checked', true);
    expect(labels(f)).toEqual(['Account holder', 'Bank name', 'Account number or IBAN']);
    fireEvent.click(within(f).getByRole('radio', { name: 'E-wallet' }));
    await waitFor(() => expect(labels(f)).toEqual(['Account holder', 'Wallet provider', 'Email or phone number']));
    expect(within(f).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose the e-wallet', 'PayPal', 'GCash', 'Paytm']);
    fireEvent.click(within(f).getByRole('radio', { name: 'USDT address' }));
    await waitFor(() => expect(labels(f)).toEqual(['Chain', 'Wallet address']));
    expect(within(f).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose the chain', 'TRC20', 'ERC20']);
  });

  it('wrong values are said beside each field (aria-invalid, aria-describedby) and nothing is sent; typing in a field clears its text', async () => {
    const { withdraw } = mountMoney({ path: '/wallet/addCollectionMethod', host: true });
    const f = await form();
    type(f, 'Account holder', '1');
    type(f, 'Account number or IBAN', '12');
    save(f);
    await waitFor(() => expect(problemOf(f, 'Account holder')).toBe(TEXT_HOLDER_NAME));
    expect(problemOf(f, 'Bank name')).toBe(TEXT_BANK_NAME);
    expect(problemOf(f, 'Account number or IBAN')).toBe(TEXT_BANK_NUMBER);
    type(f, 'Bank name', 'Banco Uno');
    await waitFor(() => expect(problemOf(f, 'Bank name')).toBeNull());
    expect(problemOf(f, 'Account holder')).toBe(TEXT_HOLDER_NAME);

    fireEvent.click(within(f).getByRole('radio', { name: 'E-wallet' }));
    await waitFor(() => expect(labels(f)).toContain('Wallet provider'));
    type(f, 'Account holder', 'Maria Lopez');
    type(f, 'Email or phone number', '12345');
    save(f);
    await waitFor(() => expect(problemOf(f, 'Wallet provider')).toBe(TEXT_PROVIDER));
    expect(problemOf(f, 'Email or phone number')).toBe(TEXT_EWALLET_ACCOUNT);
    expect(problemOf(f, 'Account holder')).toBeNull();

    fireEvent.click(within(f).getByRole('radio', { name: 'USDT address' }));
    await waitFor(() => expect(labels(f)).toContain('Chain'));
    save(f);
    await waitFor(() => expect(problemOf(f, 'Chain')).toBe(TEXT_CHAIN));
    fireEvent.change(within(f).getByLabelText('Chain'), { target: { value: 'ERC20' } });
    type(f, 'Wallet address', TRC20);
    save(f);
    await waitFor(() => expect(problemOf(f, 'Wallet address')).toBe(textAddress('ERC20')));
    expect(withdraw.methods).toEqual([]);
  });

  it('a refusal by the server is said, and the form stays as typed', async () => {
    mountMoney({
      path: '/wallet/addCollectionMethod', host: true,
      withdraw: (now) => {
        const out = new FakeWithdrawPort('auto', { now });
        void out.addAccount({ kind: 'bank', holderName: 'Maria Lopez', institution: 'Banco Uno', accountNumber: IBAN, chain: '' });
        return out;
      },
    });
    const f = await form();
    type(f, 'Account holder', 'Maria Lopez');
    type(f, 'Bank name', 'Banco Dos');
    type(f, 'Account number or IBAN', 'es91 2100 0418 4502 0005 1332');
    save(f);
    expect((await within(f).findByRole('alert')).textContent).toBe(TEXT_ACCOUNT_EXISTS);
    expect((within(f).getByLabelText('Bank name') as HTMLInputElement).value).toBe('Banco Dos');
    expect(within(f).getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
  });
});

describe('[§2 collectionInfo] saved methods', () => {
  it('saved from the list: back at /wallet/collectionInfo, each method masked; the whole number is nowhere on the page', async () => {
    const { withdraw, router } = mountMoney({ path: '/wallet/collectionInfo', host: true });
    expect(await screen.findByText('No collection method yet. Add one to withdraw your income.')).toBeTruthy();
    const add = screen.getByRole('link', { name: 'Add a collection method' });
    expect(add.getAttribute('href')).toBe('/wallet/addCollectionMethod?from=collectionInfo');
    fireEvent.click(add);
    const f = await form();
    type(f, 'Account holder', 'Maria Lopez');
    type(f, 'Bank name', 'Banco Uno');
    type(f, 'Account number or IBAN', 'ES91 2100 0418 4502 0005 1332');
    save(f);
    const list = await screen.findByRole('list', { name: 'Collection methods' });
    expect(router.state.location.pathname).toBe('/wallet/collectionInfo');
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(list.textContent).toContain('Bank account');
    expect(list.textContent).toContain('Banco Uno •••• 1332');
    expect(list.textContent).toContain('Maria Lopez');
    expect(withdraw.methods[0]!.accountNumber).toBe(IBAN);
    for (const whole of [IBAN, 'ES91 2100 0418 4502 0005 1332', IBAN.slice(0, 12)]) expect(document.body.innerHTML).not.toContain(whole);

    // A USDT address and an e-wallet's email are masked too.
    fireEvent.click(screen.getByRole('link', { name: 'Add a collection method' }));
    const g = await form();
    fireEvent.click(within(g).getByRole('radio', { name: 'USDT address' }));
    await waitFor(() => expect(labels(g)).toContain('Chain'));
    fireEvent.change(within(g).getByLabelText('Chain'), { target: { value: 'TRC20' } });
    type(g, 'Wallet address', TRC20);
    save(g);
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Collection methods' })).getAllByRole('listitem')).toHaveLength(2));
    expect(screen.getByRole('list', { name: 'Collection methods' }).textContent).toContain('USDT TRC20 TQn9•••bLSE');
    expect(document.body.innerHTML).not.toContain(TRC20);
    expect(document.body.innerHTML).not.toContain(IBAN);
  });

  it('saved from the withdrawal (?from=withdrawal): back at the withdrawal with the new method chosen', async () => {
    const { router } = mountMoney({
      path: '/wallet/withdrawal', host: true,
      withdraw: (now) => new FakeWithdrawPort('auto', { now, income: 6019, password: '246810' }),
    });
    fireEvent.click(await screen.findByRole('link', { name: 'Add a collection method' }));
    const f = await form();
    fireEvent.click(within(f).getByRole('radio', { name: 'E-wallet' }));
    await waitFor(() => expect(labels(f)).toContain('Wallet provider'));
    type(f, 'Account holder', 'Maria Lopez');
    fireEvent.change(within(f).getByLabelText('Wallet provider'), { target: { value: 'GCash' } });
    type(f, 'Email or phone number', 'maria.lopez@example.com');
    save(f);
    const withdrawal = await screen.findByRole('form', { name: 'Withdrawal' });
    expect(router.state.location.pathname).toBe('/wallet/withdrawal');
    expect(router.state.location.search).toEqual({ accountId: 1 });
    expect(within(withdrawal).getByRole('radio', { name: /GCash m•••@example\.com/ })).toHaveProperty('checked', true);
    expect(document.body.innerHTML).not.toContain('maria.lopez@');
  });
});
