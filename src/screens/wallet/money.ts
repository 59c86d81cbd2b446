/**
 * What the money screens share: the wallet of the session bound for a screen, the words for
 * pay methods, order states and diamond flows, and the texts the screens quote.
 */
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { selectSession } from '../../../machines/session/session.selectors';
import { selectWallet } from '../../../machines/wallet/wallet.selectors';
import type { WalletRef } from '../../../machines/wallet/wallet.selectors';
import type { DiamondFlowKind, OrderStatus, PayMethod } from '../../../machines/ports/wallet.port';
import type { ReturnedResult } from '../../../machines/wallet/wallet.machine';
import { useAppActor } from '../../app/AppActorContext';

/** The wallet of the signed-in session; `fresh` asks for the summary again as the screen opens (debounced by the wallet). */
export function useWallet({ fresh = false }: { fresh?: boolean } = {}): WalletRef | undefined {
  const session = useSelector(useAppActor(), selectSession);
  const wallet = useSelector(session, selectWallet);
  useEffect(() => {
    if (fresh) wallet?.send({ type: 'wallet.refresh' });
  }, [fresh, wallet]);
  return wallet;
}

export const PAY_METHOD_LABEL: Readonly<Record<PayMethod, string>> = {
  card: 'Card', applepay: 'Apple Pay', googlepay: 'Google Pay', PayPal: 'PayPal', usdt: 'USDT',
};

export const ORDER_STATUS_LABEL: Readonly<Record<OrderStatus, string>> = {
  pending: 'Waiting for payment', paid: 'Paid', failed: 'Failed', expired: 'Expired',
};

export const FLOW_LABEL: Readonly<Record<DiamondFlowKind, string>> = {
  recharge: 'Recharge', rechargeGift: 'Recharge bonus', call: 'Video call', gift: 'Gift', privateMessage: 'Secret message', opening: 'Opening balance', other: 'Other',
};

/** What the person reads on coming back from a provider's page. */
export const RETURNED_TEXT: Readonly<Record<ReturnedResult, string>> = {
  paid: 'Payment successful. Your diamonds are on their way.',
  failed: 'The payment was declined.',
  cancelled: 'The payment was cancelled.',
};

export const isReturnedResult = (value: unknown): value is ReturnedResult => value === 'paid' || value === 'failed' || value === 'cancelled';

/** A date and time in the person's locale. */
export const whenText = (ms: number): string => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
