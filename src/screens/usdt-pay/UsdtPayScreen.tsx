/**
 * /usdtPay (SPEC §2; §4 Crypto payment; §9 crypto countdown): what to pay, on which chain and
 * where, and the time left (suspendNum) from the wallet's countdown, which follows the order
 * whether or not this screen is open. When the time is up the order is checked; a payment seen
 * goes on to /usdtPay/pay-status, none back to the wallet (the wallet navigates).
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import {
  clockText, selectCountdown, selectCountdownStage, selectSuspendNum,
} from '../../../machines/wallet/wallet.selectors';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { ListMessage } from '../../ui/ListMessage';
import { useWallet } from '../wallet/money';
import './usdt-pay.css';

export const STAGE_TEXT = {
  plenty: 'Send the exact amount to the address below before the time is up.',
  soon: 'Less than 5 minutes left to pay.',
  lastMinute: 'Less than a minute left to pay.',
  checking: 'Checking the payment…',
  checkFailed: 'The payment could not be checked.',
  ended: 'No USDT payment is waiting.',
} as const;

export default function UsdtPayScreen() {
  const wallet = useWallet();
  const order = useSelector(wallet, (s) => s?.context.usdt ?? null);
  const countdown = useSelector(wallet, selectCountdown);
  const stage = useSelector(countdown, selectCountdownStage);
  const seconds = useSelector(countdown, selectSuspendNum);
  const queryError = useSelector(countdown, (s) => s?.context.queryError ?? null);
  const [copied, setCopied] = useState(false);

  if (!order) {
    return (
      <ScreenFrame title="USDT payment" back>
        <p className="usdt-ended">{STAGE_TEXT.ended}</p>
        <Link to="/wallet" className="button-link button-primary">Back to wallet</Link>
      </ScreenFrame>
    );
  }
  const copy = () => {
    void navigator.clipboard?.writeText(order.address).then(() => setCopied(true), () => setCopied(false));
  };
  return (
    <ScreenFrame title="USDT payment" back>
      <div className={`usdt-pay usdt-${stage}`}>
        <p className="usdt-clock" role="timer" aria-label="Time left to pay">{clockText(seconds)}</p>
        <p className="usdt-stage" role="status">{STAGE_TEXT[stage === 'ended' ? 'checking' : stage]}</p>
        {stage === 'checkFailed' && (
          <ListMessage error={queryError ?? STAGE_TEXT.checkFailed} onRetry={() => countdown?.send({ type: 'countdown.retry' })} />
        )}
        <dl className="usdt-facts">
          <dt>Amount</dt>
          <dd data-testid="usdt-amount">{`${order.amount} USDT`}</dd>
          <dt>Chain</dt>
          <dd>{order.chain}</dd>
          <dt>Address</dt>
          <dd className="usdt-address" data-testid="usdt-address">{order.address}</dd>
          <dt>Order</dt>
          <dd>{order.orderNo}</dd>
        </dl>
        <button type="button" className="button-link button-block" onClick={copy}>{copied ? 'Address copied' : 'Copy address'}</button>
      </div>
    </ScreenFrame>
  );
}
