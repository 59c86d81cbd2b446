/** Snapshot → what the withdrawal screen shows: the amount, the account chosen and the quote. */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { quoteOf } from '../codes/withdraw.codes';
import type { CollectionMethod } from '../ports/withdraw.port';
import { amountOf } from './withdrawal.machine';
import type { WithdrawalMachine } from './withdrawal.machine';

export type WithdrawalRef = ActorRefFrom<WithdrawalMachine>;
export type WithdrawalSnapshot = SnapshotFrom<WithdrawalMachine>;

/** The collection method chosen, when there is one. */
export const selectChosenAccount = (s: WithdrawalSnapshot): CollectionMethod | null =>
  s.context.accounts.find((a) => a.id === s.context.accountId) ?? null;

/** The amount entered, when it is a whole number of diamonds above 0. */
export function selectAmount(s: WithdrawalSnapshot): number | null {
  const amount = amountOf(s.context);
  return Number.isSafeInteger(amount) && amount > 0 ? amount : null;
}

/** What the amount costs and pays (the fee, the rest, its dollars), once the rules and an amount are there. */
export function selectQuote(s: WithdrawalSnapshot): ReturnType<typeof quoteOf> | null {
  const amount = selectAmount(s);
  return s.context.config && amount !== null ? quoteOf(s.context.config, amount) : null;
}
