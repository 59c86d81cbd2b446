// @vitest-environment jsdom
/**
 * Screen tests of /wallet (SPEC §2; §4 Recharge; §5 VIP recharge text; §8 'no pay' and an
 * order's failure): the root actor composed with the wallet fake (money.testing.tsx); the DOM
 * follows the wallet's and its recharge's snapshots.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeChannels } from '../../../machines/ports/wallet.fake';
import type { DiamondFlow, OrderRecord, PayChannel, RechargeOffer } from '../../../machines/ports/wallet.port';
import { TEXT_NO_PAY } from '../../../machines/recharge/recharge.machine';
import { TEXT_VIP_NOT_YET } from '../../api/contract/wallet';
import { screens } from '../../app/screens';
import { CLOCK_START, mountMoney } from './money.testing';
import { RETURNED_TEXT } from './money';
import type { ReturnedResult } from '../../../machines/wallet/wallet.machine';

afterEach(cleanup);
window.scrollTo = () => {};

// The screens and the wallet's on-use code, loaded once ahead: the waits are for the app's own work.
beforeAll(async () => {
  await Promise.all([
    ...screens.filter((s) => ['/wallet', '/usdtPay', '/newsRestricted'].includes(s.path)).map((s) => s.load()),
    import('../../../machines/wallet/money.actors'),
  ]);
}, 60_000);

const channel = (batchNo: string, payMethod: PayChannel['payMethod']): PayChannel =>
  fakeChannels(batchNo).find((c) => c.payMethod === payMethod)!;

const OFFERS: readonly RechargeOffer[] = [
  { batchNo: 'P100', vip: false, price: '0.99', diamonds: 100, bonus: 0, firstRechargeBonus: 20, channels: [channel('P100', 'card')] },
  { batchNo: 'P550', vip: false, price: '4.99', diamonds: 500, bonus: 50, firstRechargeBonus: 100, channels: fakeChannels('P550') },
  { batchNo: 'G200', vip: false, price: '1.99', diamonds: 200, bonus: 10, firstRechargeBonus: 0, channels: [channel('G200', 'googlepay')] },
  { batchNo: 'VIP30', vip: true, price: '9.99', diamonds: 300, bonus: 0, firstRechargeBonus: 0, channels: fakeChannels('VIP30') },
];

const NAMES = {
  P100: '100 diamonds, plus 20 on a first recharge, US$ 0.99, by Card',
  P550: '500 diamonds, plus 50, plus 100 on a first recharge, US$ 4.99',
  G200: '200 diamonds, plus 10, US$ 1.99, by Google Pay',
  VIP30: 'VIP, 300 diamonds, US$ 9.99',
} as const;

const offer = (batchNo: keyof typeof NAMES) => screen.findByRole('button', { name: NAMES[batchNo] });
const picker = () => screen.findByRole('dialog', { name: 'Choose how to pay' });

describe('[§2 /wallet] the balance', () => {
  it('shows the diamonds once the summary is in, and VIP when the person is one', async () => {
    mountMoney({ path: '/wallet', wallet: { summary: { diamonds: 250, vip: true, paid: true } } });
    expect(await screen.findByRole('heading', { name: 'Wallet' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('wallet-diamonds').textContent).toBe('250'));
    const balance = screen.getByRole('region', { name: 'Balance' });
    expect(within(balance).getByText('VIP member')).toBeTruthy();
  });

  it('a failed summary says why with Retry, and Retry shows the balance', async () => {
    const { wallet } = mountMoney({ path: '/wallet', wallet: { summary: { diamonds: 40, vip: false, paid: false } } });
    const summary = wallet.summary.bind(wallet);
    wallet.summary = () => Promise.reject(new Error('The server is busy. Please try again.'));
    const balance = await screen.findByRole('region', { name: 'Balance' });
    expect((await within(balance).findByRole('alert')).textContent).toBe('The server is busy. Please try again.');
    expect(within(balance).queryByText('VIP member')).toBeNull();
    wallet.summary = summary;
    fireEvent.click(within(balance).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('wallet-diamonds').textContent).toBe('40'));
    expect(within(balance).queryByRole('alert')).toBeNull();
  });
});

describe('[§4 Recharge] the packages and the ways to pay', () => {
  it('lists every package by its diamonds, gifts, price, and its one way to pay when it has one', async () => {
    mountMoney({ path: '/wallet', wallet: { offers: OFFERS } });
    for (const batchNo of ['P100', 'P550', 'G200', 'VIP30'] as const) expect(await offer(batchNo)).toBeTruthy();
    const shown = (await offer('P550')).textContent;
    expect(shown).toContain('500 diamonds');
    expect(shown).toContain('+50');
    expect(shown).toContain('First recharge +100');
    expect(shown).toContain('US$ 4.99');
    expect(screen.getByRole('tab', { name: 'Recharge' }).getAttribute('aria-selected')).toBe('true');
  });

  it('a package with one way to pay orders at once: one key for the tap, and the provider\'s page opens', async () => {
    const { wallet, opened } = mountMoney({ path: '/wallet', wallet: { offers: OFFERS } });
    fireEvent.click(await offer('P100'));
    await waitFor(() => expect(opened).toEqual(['/sandbox/pay/F1']));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(wallet.requests).toEqual([{
      channel: channel('P100', 'card'), vip: false, returnPath: '/wallet', idempotencyKey: expect.any(String),
    }]);
  });

  it('a package with several ways opens "Choose how to pay"; the one picked is ordered', async () => {
    const { wallet, opened } = mountMoney({ path: '/wallet', wallet: { offers: OFFERS } });
    fireEvent.click(await offer('P550'));
    const dialog = await picker();
    const ways = within(dialog).getAllByRole('button').filter((b) => b.getAttribute('aria-label') !== 'Close');
    expect(ways.map((b) => b.textContent)).toEqual(['CardRecommended', 'PayPal', 'Google Pay', 'Apple Pay', 'USDT']);
    expect(within(dialog).getByRole('button', { name: 'Card, recommended' })).toBeTruthy();
    expect(wallet.requests).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'PayPal' }));
    await waitFor(() => expect(opened).toEqual(['/sandbox/pay/F1']));
    expect(wallet.requests.map((r) => r.channel)).toEqual([channel('P550', 'PayPal')]);
  });

  it('closing the picker orders nothing and the packages stay', async () => {
    const { wallet } = mountMoney({ path: '/wallet', wallet: { offers: OFFERS } });
    fireEvent.click(await offer('P550'));
    fireEvent.click(within(await picker()).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Choose how to pay' })).toBeNull());
    expect((await offer('P550')).hasAttribute('disabled')).toBe(false);
    expect(wallet.requests).toEqual([]);
  });

  it('USDT asks "Choose the chain", orders on it and goes to /usdtPay with the order', async () => {
    const { wallet, router } = mountMoney({ path: '/wallet', wallet: { offers: OFFERS } });
    fireEvent.click(await offer('P550'));
    fireEvent.click(within(await picker()).getByRole('button', { name: 'USDT' }));
    const chains = await screen.findByRole('dialog', { name: 'Choose the chain' });
    expect(within(chains).getAllByRole('button').map((b) => b.textContent)).toEqual(['', 'USDT on TRC20', 'USDT on ERC20']);
    fireEvent.click(within(chains).getByRole('button', { name: 'USDT on ERC20' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/usdtPay'));
    expect(wallet.requests).toEqual([expect.objectContaining({ channel: channel('P550', 'usdt'), chain: 'ERC20' })]);
    expect((await screen.findByTestId('usdt-amount')).textContent).toBe('4.99 USDT');
    expect(screen.getByText('ERC20')).toBeTruthy();
  });

  it('[§5 VIP text] a refused order shows the server\'s words, the packages come back, and the next tap is a new intent', async () => {
    const { wallet, opened } = mountMoney({ path: '/wallet', wallet: { offers: OFFERS } });
    wallet.refuseNextOrder(new Error(TEXT_VIP_NOT_YET));
    fireEvent.click(await offer('VIP30'));
    fireEvent.click(within(await picker()).getByRole('button', { name: 'Apple Pay' }));
    expect((await screen.findByRole('alert')).textContent).toBe(TEXT_VIP_NOT_YET);
    for (const batchNo of ['P100', 'P550', 'G200', 'VIP30'] as const) expect((await offer(batchNo)).hasAttribute('disabled')).toBe(false);
    fireEvent.click(await offer('P100'));
    await waitFor(() => expect(opened).toEqual(['/sandbox/pay/F1']));
    const [refused, next] = wallet.requests;
    expect(refused!.vip).toBe(true);
    expect(next!.idempotencyKey).not.toBe(refused!.idempotencyKey);
  });

  it('an order that got no answer is tried again with the same key (no second order)', async () => {
    const { wallet, opened } = mountMoney({ path: '/wallet', wallet: { offers: OFFERS } });
    wallet.loseNextAnswer();
    fireEvent.click(await offer('P100'));
    expect(await screen.findByRole('alert')).toBeTruthy();
    fireEvent.click(await offer('P100'));
    await waitFor(() => expect(opened).toEqual(['/sandbox/pay/F1']));
    expect(wallet.requests).toHaveLength(2);
    expect(wallet.requests[1]!.idempotencyKey).toBe(wallet.requests[0]!.idempotencyKey);
    expect(wallet.orderRecords).toHaveLength(1);
  });

  it('[§8 no pay] a store payment with no bridge says \'no pay\' and the packages come back', async () => {
    const { storePayments } = mountMoney({ path: '/wallet', wallet: { offers: OFFERS }, store: 'unavailable' });
    fireEvent.click(await offer('G200'));
    expect((await screen.findByRole('alert')).textContent).toBe(TEXT_NO_PAY);
    expect(storePayments).toEqual([{ orderCode: 'F1', productId: 'G200.store', method: 'googlepay' }]);
    expect((await offer('G200')).hasAttribute('disabled')).toBe(false);
  });
});

describe('[§4 Recharge] back from a provider\'s page', () => {
  it.each(['paid', 'failed', 'cancelled'] as const)('?result=%s says so once, drops the query, and OK dismisses it', async (result: ReturnedResult) => {
    const { router } = mountMoney({ path: `/wallet?orderCode=F7&result=${result}` });
    const said = await screen.findByText(RETURNED_TEXT[result]);
    await waitFor(() => expect(router.state.location.searchStr).toBe(''));
    expect(screen.getAllByText(RETURNED_TEXT[result])).toHaveLength(1);
    fireEvent.click(within(said.closest('[role="status"]') as HTMLElement).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByText(RETURNED_TEXT[result])).toBeNull());
  });

  it('an unknown result is not shown', async () => {
    const { router } = mountMoney({ path: '/wallet?orderCode=F7&result=stolen' });
    await screen.findByTestId('wallet-diamonds');
    await screen.findByRole('list');
    expect(router.state.location.pathname).toBe('/wallet');
    for (const text of Object.values(RETURNED_TEXT)) expect(screen.queryByText(text)).toBeNull();
  });
});

describe('[§2 /wallet] orders and diamond history', () => {
  const orders: OrderRecord[] = [
    { orderCode: 'F3', payMethod: 'usdt', price: '4.99', diamonds: 500, vip: false, status: 'pending', createdAt: CLOCK_START - 60_000 },
    { orderCode: 'F2', payMethod: 'card', price: '9.99', diamonds: 300, vip: true, status: 'paid', createdAt: CLOCK_START - 120_000 },
    { orderCode: 'F1', payMethod: 'googlepay', price: '0.99', diamonds: 100, vip: false, status: 'failed', createdAt: CLOCK_START - 180_000 },
  ];
  const flows: DiamondFlow[] = [
    { id: 3, kind: 'call', amount: -30, balance: 370, createdAt: CLOCK_START - 10_000 },
    { id: 2, kind: 'rechargeGift', amount: 100, balance: 400, createdAt: CLOCK_START - 20_000 },
    { id: 1, kind: 'recharge', amount: 300, balance: 300, createdAt: CLOCK_START - 30_000 },
  ];

  it('the Orders tab lists the orders, newest first, with their price, way to pay and status', async () => {
    mountMoney({ path: '/wallet', wallet: { orders, flows } });
    fireEvent.click(await screen.findByRole('tab', { name: 'Orders' }));
    const list = await screen.findByRole('list', { name: 'Orders' });
    const rows = within(list).getAllByRole('article');
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['Order F3', 'Order F2', 'Order F1']);
    expect(rows[0]!.textContent).toContain('500 diamonds');
    expect(rows[0]!.textContent).toContain('USDT · ');
    expect(rows[0]!.textContent).toContain('Waiting for payment');
    expect(rows[1]!.textContent).toContain('VIP, 300 diamonds');
    expect(rows[1]!.textContent).toContain('US$ 9.99');
    expect(rows[1]!.textContent).toContain('Paid');
    expect(rows[2]!.textContent).toContain('Google Pay · ');
    expect(rows[2]!.textContent).toContain('Failed');
    expect(screen.getByRole('tab', { name: 'Orders' }).getAttribute('aria-selected')).toBe('true');
  });

  it('the Diamond history tab lists what came in and went out, with the balance after', async () => {
    mountMoney({ path: '/wallet', wallet: { orders, flows } });
    fireEvent.click(await screen.findByRole('tab', { name: 'Diamond history' }));
    const list = await screen.findByRole('list', { name: 'Diamond history' });
    const rows = within(list).getAllByRole('article');
    expect(rows.map((r) => r.getAttribute('aria-label'))).toEqual(['Video call', 'Recharge bonus', 'Recharge']);
    expect(rows[0]!.textContent).toContain('−30');
    expect(rows[0]!.textContent).toContain('Balance 370');
    expect(rows[1]!.textContent).toContain('+100');
    expect(rows[2]!.textContent).toContain('Balance 300');
  });

  it('says so when there are no orders yet', async () => {
    mountMoney({ path: '/wallet' });
    fireEvent.click(await screen.findByRole('tab', { name: 'Orders' }));
    expect(await screen.findByText('No orders yet.')).toBeTruthy();
  });
});
