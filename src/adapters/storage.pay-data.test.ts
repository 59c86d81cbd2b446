// @vitest-environment jsdom
/**
 * The kept USDT order (SPEC §9 pay data) in storage: per person, kept and forgotten, and what
 * the adapter does with storage it cannot read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { UsdtOrder } from '../../machines/ports/wallet.port';
import { clearPayData, readPayData, writePayData } from './pay-data.storage';

const order: UsdtOrder = { orderNo: 'R1', address: 'Tabc', amount: '9.99', chain: 'TRC20', createdAt: 1_000, deadline: 901_000 };

afterEach(() => window.localStorage.clear());

describe('pay data in storage', () => {
  it('keeps a person’s order for them only, until forgotten', () => {
    writePayData('alice', order);
    expect(readPayData('alice')).toEqual(order);
    expect(readPayData('bob')).toBeNull();
    clearPayData('alice');
    expect(readPayData('alice')).toBeNull();
  });

  it('anything unreadable or incomplete is no order', () => {
    window.localStorage.setItem('app.payData.alice', '{not json');
    expect(readPayData('alice')).toBeNull();
    window.localStorage.setItem('app.payData.alice', JSON.stringify({ ...order, deadline: 'soon' }));
    expect(readPayData('alice')).toBeNull();
    window.localStorage.setItem('app.payData.alice', JSON.stringify({ ...order, extra: '<b>' }));
    expect(readPayData('alice')).toEqual(order);
  });
});
