/**
 * Mine's wallet card (SPEC §2 Mine, §6 VIP): the diamonds with a way to recharge, and the VIP
 * status with its benefits (the call discount shown as 100 minus the share a VIP pays, chat
 * pinning). Asks the wallet for a fresh summary as Mine opens (the wallet debounces it).
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { selectDiamonds } from '../../../machines/wallet/wallet.selectors';
import { RECHARGE_PATH } from '../../app/recharge';
import { DiamondIcon } from '../../ui/icons';
import { useWallet } from '../wallet/money';
import './wallet-card.css';

/** SPEC §5 pinning: VIPs pin up to 5 chats. */
export const TEXT_VIP_PINNING = 'Pin up to 5 chats';
/** SPEC §6: the discount shown is 100 minus the share of the price a VIP pays. */
export const vipDiscountText = (callPercent: number): string => `${100 - callPercent}% off video calls`;

export function WalletCard() {
  const wallet = useWallet({ fresh: true });
  const diamonds = useSelector(wallet, selectDiamonds);
  const vip = useSelector(wallet, (s) => s?.context.summary?.vip ?? null);
  const callPercent = useSelector(wallet, (s) => s?.context.shop?.callPercent ?? null);
  return (
    <section className="wallet-card" aria-label="Wallet and VIP">
      <div className="wallet-card-row">
        <p className="wallet-card-diamonds">
          <DiamondIcon aria-hidden="true" />
          <span data-testid="mine-diamonds">{diamonds ?? '…'}</span>
          <span className="muted">diamonds</span>
        </p>
        <Link to={RECHARGE_PATH} className="button-link button-primary">Recharge</Link>
      </div>
      {vip !== null && (
        <div className="wallet-card-vip">
          <p className="wallet-card-vip-title">{vip ? 'VIP member' : 'Become a VIP'}</p>
          <ul className="wallet-card-benefits">
            {callPercent !== null && callPercent < 100 && <li>{vipDiscountText(callPercent)}</li>}
            <li>{TEXT_VIP_PINNING}</li>
          </ul>
        </div>
      )}
    </section>
  );
}
