// @vitest-environment jsdom
/**
 * Screen tests of /usdtPay and /usdtPay/pay-status (SPEC §2; §4 Crypto payment; §9 crypto
 * countdown 1/5/15 min): the root actor composed with the wallet fake and a simulated clock
 * (money.testing.tsx); the screens follow the wallet's countdown as the clock moves.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { UsdtOrder } from '../../../machines/ports/wallet.port';
import { screens } from '../../app/screens';
import { CLOCK_START, mountMoney } from '../wallet/money.testing';
import { STAGE_TEXT } from './UsdtPayScreen';
import { TEXT_USDT_PAID } from './PayStatusScreen';

afterEach(cleanup);
window.scrollTo = () => {};

beforeAll(async () => {
  await Promise.all([
    ...screens.filter((s) => ['/wallet', '/usdtPay', '/usdtPay/pay-status', '/newsRestricted'].includes(s.path)).map((s) => s.load()),
    import('../../../machines/wallet/money.actors'),
  ]);
}, 60_000);

const MIN = 60_000;

/** An order made 2 minutes before the clock's start, payable until 13 minutes after it. */
const kept: UsdtOrder = {
  orderNo: 'U42', address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE', amount: '4.99', chain: 'TRC20',
  createdAt: CLOCK_START - 2 * MIN, deadline: CLOCK_START + 13 * MIN,
};

const timer = () => screen.getByRole('timer', { name: 'Time left to pay' });
const stage = () => screen.getByRole('status').textContent;

describe('[§2 /usdtPay] no order', () => {
  it('says no USDT payment is waiting, with a way back to the wallet', async () => {
    mountMoney({ path: '/usdtPay' });
    expect(await screen.findByText(STAGE_TEXT.ended)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to wallet' }).getAttribute('href')).toBe('/wallet');
    expect(screen.queryByRole('timer')).toBeNull();
  });
});

describe('[§4 Crypto payment] an order being paid', () => {
  it('kept from an earlier run: amount, chain, address and the time left, in stages as the clock moves', async () => {
    const { clock } = mountMoney({ path: '/usdtPay', kept });
    await screen.findByRole('timer');
    expect(screen.getByTestId('usdt-amount').textContent).toBe('4.99 USDT');
    expect(screen.getByTestId('usdt-address').textContent).toBe(kept.address);
    expect(screen.getByText('TRC20')).toBeTruthy();
    expect(screen.getByText('U42')).toBeTruthy();
    await waitFor(() => expect(timer().textContent).toBe('13:00'));
    expect(stage()).toBe(STAGE_TEXT.plenty);
    // More than 5 minutes left: still the first stage.
    act(() => clock.increment(7 * MIN + 59_000));
    expect(timer().textContent).toBe('05:01');
    expect(stage()).toBe(STAGE_TEXT.plenty);
    act(() => clock.increment(1_000));
    expect(timer().textContent).toBe('05:00');
    expect(stage()).toBe(STAGE_TEXT.soon);
    act(() => clock.increment(3 * MIN + 59_000));
    expect(timer().textContent).toBe('01:01');
    expect(stage()).toBe(STAGE_TEXT.soon);
    act(() => clock.increment(1_000));
    expect(timer().textContent).toBe('01:00');
    expect(stage()).toBe(STAGE_TEXT.lastMinute);
    act(() => clock.increment(59_000));
    expect(timer().textContent).toBe('00:01');
    expect(screen.getByRole('button', { name: 'Copy address' })).toBeTruthy();
  });

  it('one clock reading after a long hidden spell lands in the stage the clock says, not one tick later', async () => {
    const { clock } = mountMoney({ path: '/usdtPay', kept });
    await waitFor(() => expect(timer().textContent).toBe('13:00'));
    act(() => clock.increment(12 * MIN + 30_000));
    expect(timer().textContent).toBe('00:30');
    expect(stage()).toBe(STAGE_TEXT.lastMinute);
  });

  it('made by the recharge: the countdown starts at 15:00 on the chain chosen', async () => {
    const { router } = mountMoney({ path: '/wallet' });
    fireEvent.click(await screen.findByRole('button', { name: '500 diamonds, plus 50, plus 100 on a first recharge, US$ 4.99' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Choose how to pay' })).getByRole('button', { name: 'USDT' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Choose the chain' })).getByRole('button', { name: 'USDT on TRC20' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/usdtPay'));
    await waitFor(() => expect(timer().textContent).toBe('15:00'));
    expect(stage()).toBe(STAGE_TEXT.plenty);
    expect(screen.getByTestId('usdt-amount').textContent).toBe('4.99 USDT');
    expect(screen.getByTestId('usdt-address').textContent).toBe('Tfake1');
    expect(screen.getByText('TRC20')).toBeTruthy();
  });

  it('time up and not paid: the order is checked and the person is back on /wallet', async () => {
    const { clock, router, keptOrders, account } = mountMoney({ path: '/usdtPay', kept });
    await waitFor(() => expect(timer().textContent).toBe('13:00'));
    act(() => clock.increment(13 * MIN));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
    expect(keptOrders.has(account)).toBe(false);
  });
});

describe('[§4 Crypto payment] the check at the deadline', () => {
  it('a check that fails says why with Retry, keeps the order on screen, and Retry checks again', async () => {
    const { clock, router, wallet } = mountMoney({ path: '/usdtPay', kept });
    let answer: (paid: boolean) => void = () => {};
    let checks = 0;
    wallet.usdtPaid = () => {
      checks += 1;
      return checks === 1 ? Promise.reject(new Error('Network Connection Failure')) : new Promise((resolve) => { answer = resolve; });
    };
    await waitFor(() => expect(timer().textContent).toBe('13:00'));
    act(() => clock.increment(13 * MIN));
    expect((await screen.findByRole('alert')).textContent).toBe('Network Connection Failure');
    expect(timer().textContent).toBe('00:00');
    expect(screen.getByText(STAGE_TEXT.checkFailed)).toBeTruthy();
    expect(screen.getByTestId('usdt-address').textContent).toBe(kept.address);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain(STAGE_TEXT.checking));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(checks).toBe(2);
    act(() => answer(false));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
  });
});

describe('[§2 /usdtPay/pay-status] paid', () => {
  it('time up and the order was paid: \'Payment successful\', the order and the diamonds it brought', async () => {
    const { clock, router, wallet } = mountMoney({
      path: '/usdtPay', kept,
      wallet: {
        summary: { diamonds: 650, vip: false, paid: true },
        orders: [{ orderCode: 'U42', payMethod: 'usdt', price: '4.99', diamonds: 500, vip: false, status: 'paid', createdAt: kept.createdAt }],
      },
    });
    await waitFor(() => expect(timer().textContent).toBe('13:00'));
    act(() => clock.increment(13 * MIN));
    await waitFor(() => expect(router.state.location.pathname).toBe('/usdtPay/pay-status'));
    const status = await screen.findByRole('status');
    expect(within(status).getByRole('heading', { name: TEXT_USDT_PAID })).toBeTruthy();
    expect(within(status).getByText('Order U42')).toBeTruthy();
    expect((await within(status).findByTestId('status-diamonds')).textContent).toBe('You have 650 diamonds.');
    expect(screen.getByRole('link', { name: 'Back to wallet' }).getAttribute('href')).toBe('/wallet');
    expect(wallet.requests).toEqual([]);
  });

  it('opened after a reload (the order no longer known): \'Payment successful\' and the balance', async () => {
    mountMoney({ path: '/usdtPay/pay-status', wallet: { summary: { diamonds: 120, vip: false, paid: true } } });
    expect(await screen.findByRole('heading', { name: TEXT_USDT_PAID })).toBeTruthy();
    expect((await screen.findByTestId('status-diamonds')).textContent).toBe('You have 120 diamonds.');
  });
});
