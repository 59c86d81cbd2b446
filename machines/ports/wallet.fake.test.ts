/** The wallet contract against the in-memory fake, and the fake's own switches (manual mode, refusals, lost answers). */
import { describe, expect, it } from 'vitest';
import { UnansweredError } from '../shared/intent-key';
import { FAKE_OFFERS, FakeWalletPort, TEXT_FAKE_NO_SUCH_CHANNEL } from './wallet.fake';
import { registerWalletContract } from './wallet.contract';
import type { OrderRequest } from './wallet.port';

registerWalletContract('in-memory fake', () => {
  const port = new FakeWalletPort('auto', { summary: { diamonds: 40, vip: false, paid: false } });
  return {
    port,
    pay: (code) => { port.pay(code); },
    expire: (code) => { port.expire(code); },
    dispose: () => {},
  };
});

const card = FAKE_OFFERS[1]!.channels.find((c) => c.payMethod === 'card')!;
const tap = (key: string): OrderRequest => ({ channel: card, vip: false, returnPath: '/wallet', idempotencyKey: key });

describe('FakeWalletPort', () => {
  it('manual mode: waits for the test under the port\'s method names, and records every order asked for', async () => {
    const port = new FakeWalletPort('manual');
    const summary = port.summary();
    const flows = port.diamondFlows({ page: 2, pageSize: 5 });
    const placed = port.order(tap('k-manual-0123456789'));
    port.pending.next('summary').resolve({ diamonds: 9, vip: true, paid: true });
    expect(port.pending.next('diamondFlows').args).toEqual([{ page: 2, pageSize: 5 }]);
    port.pending.next('diamondFlows').resolve([]);
    port.pending.next('order').reject(new Error('The order could not be placed.'));
    expect(await summary).toEqual({ diamonds: 9, vip: true, paid: true });
    expect(await flows).toEqual([]);
    await expect(placed).rejects.toThrow('The order could not be placed.');
    expect(port.requests.map((r) => r.idempotencyKey)).toEqual(['k-manual-0123456789']);
  });

  it('refuses the next order when told, or a channel it does not offer; a lost answer still made the order', async () => {
    const port = new FakeWalletPort();
    port.refuseNextOrder(new Error('VIP not yet'));
    await expect(port.order(tap('k-a-0123456789'))).rejects.toThrow('VIP not yet');
    await expect(port.order({ ...tap('k-b-0123456789'), channel: { ...card, channelId: 999 } })).rejects.toThrow(TEXT_FAKE_NO_SUCH_CHANNEL);
    port.loseNextAnswer();
    await expect(port.order(tap('k-c-0123456789'))).rejects.toBeInstanceOf(UnansweredError);
    // The retry with the same key answers the order the lost answer was for.
    expect(await port.order(tap('k-c-0123456789'))).toEqual({ kind: 'redirect', orderCode: 'F1', url: '/sandbox/pay/F1' });
    expect(port.orderRecords).toHaveLength(1);
  });

  it('spending is a flow that never takes the balance below zero', async () => {
    const port = new FakeWalletPort('auto', { summary: { diamonds: 50, vip: false, paid: false } });
    expect(port.spend(30, 'call')).toBe(true);
    expect(port.spend(30, 'gift')).toBe(false);
    expect(await port.diamondFlows({ page: 1, pageSize: 10 })).toMatchObject([{ kind: 'call', amount: -30, balance: 20 }]);
    expect((await port.summary()).diamonds).toBe(20);
  });
});
