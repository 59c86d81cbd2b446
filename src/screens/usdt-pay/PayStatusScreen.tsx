/**
 * /usdtPay/pay-status (SPEC §2; §4 Crypto payment status 1): the USDT order that was paid, and
 * the balance it went into. After a reload the order is no longer known; the balance is.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectDiamonds } from '../../../machines/wallet/wallet.selectors';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { useWallet } from '../wallet/money';
import './usdt-pay.css';

export const TEXT_USDT_PAID = 'Payment successful';

export default function PayStatusScreen() {
  const wallet = useWallet({ fresh: true });
  const ended = useSelector(wallet, (s) => s?.context.usdtEnded ?? null);
  const diamonds = useSelector(wallet, selectDiamonds);
  const paid = ended === null || ended.ended === 'paid';
  return (
    <ScreenFrame title="Payment status" back>
      <div className="usdt-status" role="status">
        <h2>{paid ? TEXT_USDT_PAID : 'The payment did not arrive in time.'}</h2>
        {ended && <p>{`Order ${ended.orderNo}`}</p>}
        {diamonds !== null && <p data-testid="status-diamonds">{`You have ${diamonds} diamonds.`}</p>}
      </div>
      <Link to="/wallet" className="button-link button-primary">Back to wallet</Link>
    </ScreenFrame>
  );
}
