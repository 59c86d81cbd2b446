/** The withdraw contract against the in-memory fake, and the fake's own switches (manual mode, the lock's end, refusals, lost answers, rules). */
import { describe, expect, it } from 'vitest';
import { PASSWORD_ATTEMPTS, PASSWORD_LOCK_MS, TEXT_RECORD_ENDED, textDays } from '../codes/withdraw.codes';
import { UnansweredError } from '../shared/intent-key';
import { FakeWithdrawPort } from './withdraw.fake';
import { registerWithdrawContract } from './withdraw.contract';

registerWithdrawContract('in-memory fake', () => {
  const port = new FakeWithdrawPort();
  return {
    port,
    earn: (amount) => port.earn(amount, 'call'),
    operator: { pay: (id) => { port.pay(id); }, refuse: (id, reason) => { port.refuse(id, reason); } },
    dispose: () => {},
  };
});

const usdt = { kind: 'usdt' as const, holderName: '', institution: '', accountNumber: `T${'1'.repeat(33)}`, chain: 'TRC20' };

describe('FakeWithdrawPort', () => {
  it('manual mode: waits for the test under the port\'s method names', async () => {
    const port = new FakeWithdrawPort('manual');
    const balance = port.balance();
    const applied = port.apply({ idempotencyKey: 'k-manual-0123456789', amount: 1000, accountId: 1, password: '123456' });
    const set = port.setPassword('123456', '654321');
    port.pending.next('balance').resolve({ income: 1, held: 0, withdrawable: 0 });
    port.pending.next('apply').reject(new UnansweredError('No answer came.'));
    expect(port.pending.next('setPassword').args).toEqual(['123456', '654321']);
    port.pending.next('setPassword').resolve(undefined);
    expect(await balance).toEqual({ income: 1, held: 0, withdrawable: 0 });
    await expect(applied).rejects.toBeInstanceOf(UnansweredError);
    await set;
    expect(port.requests.map((r) => r.idempotencyKey)).toEqual(['k-manual-0123456789']);
  });

  it('a lost answer still took the amount, and the retry with its key answers that withdrawal', async () => {
    const port = new FakeWithdrawPort('auto', { income: 5000, password: '123456' });
    const { id } = await port.addAccount(usdt);
    const request = { idempotencyKey: 'k-lost-0123456789', amount: 1000, accountId: id, password: '123456' };
    port.loseNextAnswer();
    await expect(port.apply(request)).rejects.toBeInstanceOf(UnansweredError);
    expect(await port.apply(request)).toMatchObject({ id: 1, amount: 1000, accountLabel: 'TRC20 T111•••1111' });
    expect(port.income).toBe(4000);
    port.refuseNextApply(new Error('No.'));
    await expect(port.apply({ ...request, idempotencyKey: 'k-other-0123456789' })).rejects.toThrow('No.');
  });

  it('the lock ends after its time; an ended withdrawal cannot move again', async () => {
    let now = Date.UTC(2026, 10, 25, 12);
    const port = new FakeWithdrawPort('auto', { income: 5000, password: '123456', now: () => now });
    const { id } = await port.addAccount(usdt);
    const apply = (password: string, n: number) => port.apply({ idempotencyKey: `k-lock-${n}-0123456789`, amount: 1000, accountId: id, password });
    for (let i = 0; i < PASSWORD_ATTEMPTS; i++) await apply('000000', i).catch(() => undefined);
    await expect(apply('123456', 10)).rejects.toMatchObject({ locked: true });
    now += PASSWORD_LOCK_MS;
    const record = await apply('123456', 11);
    port.process(record.id);
    port.refuse(record.id, 'No.');
    expect(() => port.pay(record.id)).toThrow(TEXT_RECORD_ENDED);
    expect(port.income).toBe(5000);
  });

  it('the rules are settable: a day not allowed is closed, and an apply on it refused in words', async () => {
    // A Wednesday.
    const port = new FakeWithdrawPort('auto', { income: 5000, password: '123456', now: () => Date.UTC(2026, 10, 25, 12) });
    port.rules = { ...port.rules, allowedDays: [1] };
    expect(await port.config()).toMatchObject({ openToday: false, allowedDays: [1] });
    const { id } = await port.addAccount(usdt);
    await expect(port.apply({ idempotencyKey: 'k-closed-0123456789', amount: 1000, accountId: id, password: '123456' })).rejects.toThrow(textDays([1]));
  });
});
