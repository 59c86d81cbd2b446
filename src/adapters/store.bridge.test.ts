/** Store payments through the native shell's bridge, and 'unavailable' (SPEC §8 'no pay') without one. */
import { describe, expect, it } from 'vitest';
import { createStorePay } from './store.bridge';

const payment = { orderCode: 'R1', productId: 'P550.store', method: 'googlepay' as const };

describe('store bridge', () => {
  it('asks the native shell and answers what it says; anything else counts as declined', async () => {
    const asked: unknown[] = [];
    const answers = ['approved', 'cancelled', 'maybe'];
    const win = { AppShell: { storePay: async (p: unknown) => { asked.push(p); return answers.shift(); } }, parent: null } as unknown as Window;
    const pay = createStorePay(win);
    expect(await pay(payment)).toBe('approved');
    expect(await pay(payment)).toBe('cancelled');
    expect(await pay(payment)).toBe('declined');
    expect(asked).toEqual([payment, payment, payment]);
  });

  it('with no bridge and no shell around it, there is no pay', async () => {
    const top = { location: { origin: 'https://app.example' } } as { parent?: unknown; location: { origin: string } };
    top.parent = top;
    expect(await createStorePay(top as unknown as Window)(payment)).toBe('unavailable');
  });
});
