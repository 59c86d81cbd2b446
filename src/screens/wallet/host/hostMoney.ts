/**
 * What the host's money screens share (SPEC §2 /wallet sub-views, §6 host: withdrawal): the
 * withdrawal API of the signed-in composition, whether the person is a host, and the words for
 * income kinds, collection methods and withdrawal states.
 */
import { useSelector } from '@xstate/react';
import { selectMode } from '../../../../machines/app/app.selectors';
import type { AccountKind, IncomeKind, WithdrawStatus } from '../../../../machines/codes/withdraw.codes';
import type { CollectionMethod, WithdrawPort } from '../../../../machines/ports/withdraw.port';
import { useAppActor } from '../../../app/AppActorContext';
import { useServices } from '../../../compose/services';

export const TEXT_WITHDRAW_NOT_SIGNED_IN = 'Sign in as a host to see your income.';

const notSignedIn = () => Promise.reject(new Error(TEXT_WITHDRAW_NOT_SIGNED_IN));
const signedOutPort: WithdrawPort = {
  balance: notSignedIn, summary: notSignedIn, incomeFlows: notSignedIn, accounts: notSignedIn, addAccount: notSignedIn,
  config: notSignedIn, setPassword: notSignedIn, apply: notSignedIn, records: notSignedIn,
};

/** The withdrawal API of the signed-in composition (its HTTP adapter loads with its first call). */
export function useWithdrawPort(): WithdrawPort {
  return useServices().withdraw ?? signedOutPort;
}

/** Whether the signed-in person is a host (SPEC §6: only hosts have income and withdraw). */
export function useIsHost(): boolean {
  return useSelector(useAppActor(), selectMode) === 'host';
}

export const INCOME_KIND_LABEL: Readonly<Record<IncomeKind, string>> = {
  call: 'Video call', gift: 'Gift in a call', liveGift: 'Live gift', privateMessage: 'Secret message', taskReward: 'Task reward',
  withdrawal: 'Withdrawal', withdrawalReturned: 'Withdrawal returned', other: 'Other',
};

export const ACCOUNT_KIND_LABEL: Readonly<Record<AccountKind, string>> = { bank: 'Bank account', ewallet: 'E-wallet', usdt: 'USDT address' };

export const WITHDRAW_STATUS_LABEL: Readonly<Record<WithdrawStatus, string>> = {
  applied: 'Applied', processing: 'Processing', paid: 'Paid', refused: 'Refused',
};

/** A collection method in one line: its kind's institution (or chain) and the masked number. */
export const methodLabel = (m: Pick<CollectionMethod, 'kind' | 'institution' | 'chain' | 'masked'>): string =>
  `${m.kind === 'usdt' ? `USDT ${m.chain}` : m.institution} ${m.masked}`;

/** Diamonds as a person reads them (grouped by the locale). */
export const diamondsText = (n: number): string => n.toLocaleString();
