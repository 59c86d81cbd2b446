/** What the in-call screen derives from the call (SPEC §2 chat lines, §6 price, the user's balance and low-balance warning). */
import { describe, expect, it } from 'vitest';
import type { TalkMessage } from '../talk/talk.machine';
import { chatLinesOf, isLowBalance, periodsCharged, remainingBalance } from './call.selectors';

const message = (over: Partial<TalkMessage>): TalkMessage => ({
  idClient: '', idServer: 's', from: 'a', to: 'b', sessionId: 'b', scene: 'p2p', flow: 'in', type: 'text', text: 'hi', time: 1, status: 'sent',
  ...over,
});

describe('[§2 in-call chat] lines', () => {
  it('merges both ways and the translations (-1) in time order, from `since` on', () => {
    const lines = chatLinesOf(
      [
        message({ idServer: 'old', text: 'before the call', time: 5 }),
        message({ idServer: 's1', text: 'hello', time: 20 }),
        message({ idClient: 'c1', idServer: '', flow: 'out', text: 'hi!', time: 30, status: 'sending' }),
        message({ idClient: 'c2', idServer: '', flow: 'out', text: 'lost', time: 40, status: 'failed', reason: 'No connection' }),
        message({ idServer: 'pic', type: 'image', text: '', time: 35 }),
      ],
      [{ key: 't1', text: 'hola', time: 25 }],
      10,
    );
    expect(lines.map((l) => [l.kind, l.text, l.pending, l.failure])).toEqual([
      ['in', 'hello', false, null],
      ['translated', 'hola', false, null],
      ['out', 'hi!', true, null],
      ['out', 'lost', false, 'No connection'],
    ]);
    expect(chatLinesOf([message({ time: 5 })], [])).toHaveLength(1);
  });
});

describe('[§6 price, balance] what the user has left', () => {
  const call = { connectedAt: 1_000, periodMs: 60_000, price: 48 };

  it('counts the first period at connection and one more each period', () => {
    expect(periodsCharged(999, 1_000, 60_000)).toBe(0);
    expect(periodsCharged(1_000, 1_000, 60_000)).toBe(1);
    expect(periodsCharged(60_999, 1_000, 60_000)).toBe(1);
    expect(periodsCharged(61_000, 1_000, 60_000)).toBe(2);
    expect(periodsCharged(5_000, 0, 60_000)).toBe(0);
  });

  it('goes on from the balance createCall said (before the first period)', () => {
    const known = { amount: 200, at: 0 };
    expect(remainingBalance(known, call, 500)).toBe(200);
    expect(remainingBalance(known, call, 1_000)).toBe(152);
    expect(remainingBalance(known, call, 61_000)).toBe(104);
    // Never below zero: the server ends the call before.
    expect(remainingBalance(known, call, 1_000_000)).toBe(0);
  });

  it('goes on from what a gift send said, counting only periods after it', () => {
    const known = { amount: 100, at: 30_000 };
    expect(remainingBalance(known, call, 30_000)).toBe(100);
    expect(remainingBalance(known, call, 61_000)).toBe(52);
  });

  it('says nothing without a known balance, and the balance alone without a price', () => {
    expect(remainingBalance(null, call, 5)).toBeNull();
    expect(remainingBalance({ amount: 70, at: 0 }, { connectedAt: 1, periodMs: null, price: 48 }, 5)).toBe(70);
  });

  it('warns when fewer than two periods are left', () => {
    expect(isLowBalance(96, 48)).toBe(false);
    expect(isLowBalance(95, 48)).toBe(true);
    expect(isLowBalance(0, 48)).toBe(true);
    expect(isLowBalance(null, 48)).toBe(false);
    expect(isLowBalance(10, null)).toBe(false);
    expect(isLowBalance(10, 0)).toBe(false);
  });
});
