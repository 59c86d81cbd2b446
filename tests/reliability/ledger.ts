/**
 * What the money probes read from the server's database: every wallet (diamonds a person
 * spends, income a host earns) and the gift sends. Money moves only from one wallet to
 * another here (gifts and call periods: what the payer pays the host earns), so the sum of
 * all balances is conserved, and each charged intent is one gift send.
 */
import type Database from 'better-sqlite3';

export interface Ledger {
  /** user id → [diamonds, income]. */
  wallets: Map<number, [number, number]>;
  /** Gift sends per sender. */
  sendsBySender: Map<number, number>;
  /** Diamonds of all gift sends. */
  giftValue: number;
}

export function readLedger(db: Database.Database): Ledger {
  const wallets = new Map<number, [number, number]>();
  for (const row of db.prepare<[], { user_id: number; diamonds: number; income: number }>('SELECT user_id, diamonds, income FROM wallets').all()) {
    wallets.set(row.user_id, [row.diamonds, row.income]);
  }
  const sendsBySender = new Map<number, number>();
  for (const row of db.prepare<[], { sender_id: number; sends: number }>('SELECT sender_id, count(*) AS sends FROM gift_sends GROUP BY sender_id').all()) {
    sendsBySender.set(row.sender_id, row.sends);
  }
  const giftValue = db.prepare<[], number>('SELECT coalesce(sum(value), 0) FROM gift_sends').pluck().get() ?? 0;
  return { wallets, sendsBySender, giftValue };
}

export interface LedgerChange {
  /** Diamonds that left payers' wallets. */
  spent: number;
  /** Income that hosts gained (and any diamonds gained). */
  earned: number;
  /** Sum of all balances after minus before: 0 when money was conserved. */
  drift: number;
  /** The lowest balance of any wallet after. */
  minBalance: number;
  /** Accounts whose balance changed. */
  accountsMoved: number;
  /** Gift sends recorded between the two readings. */
  newSends: Map<number, number>;
}

export function compareLedgers(before: Ledger, after: Ledger): LedgerChange {
  let spent = 0;
  let earned = 0;
  let drift = 0;
  let minBalance = Number.POSITIVE_INFINITY;
  let accountsMoved = 0;
  const ids = new Set([...before.wallets.keys(), ...after.wallets.keys()]);
  for (const id of ids) {
    const [d0, i0] = before.wallets.get(id) ?? [0, 0];
    const [d1, i1] = after.wallets.get(id) ?? [0, 0];
    for (const delta of [d1 - d0, i1 - i0]) {
      if (delta < 0) spent -= delta;
      else earned += delta;
    }
    drift += d1 + i1 - d0 - i0;
    minBalance = Math.min(minBalance, d1, i1);
    if (d1 !== d0 || i1 !== i0) accountsMoved += 1;
  }
  const newSends = new Map<number, number>();
  for (const [sender, count] of after.sendsBySender) {
    const added = count - (before.sendsBySender.get(sender) ?? 0);
    if (added !== 0) newSends.set(sender, added);
  }
  return { spent, earned, drift, minBalance: Number.isFinite(minBalance) ? minBalance : 0, accountsMoved, newSends };
}
