// @vitest-environment jsdom
/**
 * Screen tests of Mine's wallet card (SPEC §2 Mine; §6 VIP and its call discount; §5 pinning):
 * the root actor composed with the wallet fake (money.testing.tsx), on a user's /mineRestricted
 * and a host's /mine.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screens } from '../../app/screens';
import { mountMoney } from '../wallet/money.testing';
import { TEXT_VIP_PINNING } from './WalletCard';

afterEach(cleanup);
window.scrollTo = () => {};

beforeAll(async () => {
  await Promise.all(screens.filter((s) => ['/mine', '/mineRestricted', '/wallet', '/', '/newsRestricted'].includes(s.path)).map((s) => s.load()));
}, 60_000);

const card = () => screen.findByRole('region', { name: 'Wallet and VIP' });

describe('[§2 Mine] the wallet card', () => {
  it('a user who is not VIP: the diamonds, "Become a VIP" with the call discount (callPercent 80) and pinning', async () => {
    mountMoney({ path: '/mineRestricted', wallet: { summary: { diamonds: 75, vip: false, paid: false }, vipShop: { price: '9.99', diamonds: 300, callPercent: 80 } } });
    const region = await card();
    await waitFor(() => expect(within(region).getByTestId('mine-diamonds').textContent).toBe('75'));
    expect(within(region).getByText('Become a VIP')).toBeTruthy();
    expect(within(region).queryByText('VIP member')).toBeNull();
    expect(within(region).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['20% off video calls', TEXT_VIP_PINNING]);
  });

  it('a VIP host: "VIP member"; a VIP price that is the full price shows no discount', async () => {
    mountMoney({ path: '/mine', host: true, wallet: { summary: { diamonds: 1200, vip: true, paid: true }, vipShop: { price: '9.99', diamonds: 300, callPercent: 100 } } });
    const region = await card();
    await waitFor(() => expect(within(region).getByText('VIP member')).toBeTruthy());
    expect(within(region).getByTestId('mine-diamonds').textContent).toBe('1200');
    expect(within(region).queryByText('Become a VIP')).toBeNull();
    expect(within(region).getAllByRole('listitem').map((li) => li.textContent)).toEqual([TEXT_VIP_PINNING]);
  });

  it('shows … until the summary is in, and Recharge leads to /wallet', async () => {
    const { wallet, router } = mountMoney({ path: '/mineRestricted', wallet: { summary: { diamonds: 5, vip: false, paid: false } } });
    let answer: () => void = () => {};
    const summary = wallet.summary.bind(wallet);
    wallet.summary = () => new Promise((resolve) => { answer = () => resolve(summary()); });
    const region = await card();
    expect(within(region).getByTestId('mine-diamonds').textContent).toBe('…');
    expect(within(region).queryByText('Become a VIP')).toBeNull();
    answer();
    await waitFor(() => expect(within(region).getByTestId('mine-diamonds').textContent).toBe('5'));
    const recharge = within(region).getByRole('link', { name: 'Recharge' });
    expect(recharge.getAttribute('href')).toBe('/wallet');
    fireEvent.click(recharge);
    await waitFor(() => expect(router.state.location.pathname).toBe('/wallet'));
    expect(await screen.findByRole('heading', { name: 'Wallet' })).toBeTruthy();
  });
});
