/**
 * /wallet (SPEC §2; §4 Recharge): the person's diamonds and VIP, the recharge, their orders and
 * the history of their diamonds; for a host, the income and the ways to withdraw it first
 * (host/HostWallet.tsx). A provider's page comes back here with the order's result in
 * the query (`orderCode`, `result`): the wallet is told once (it refreshes the balance) and the
 * query is dropped, so a reload does not say it again.
 */
import { useRouter, useSearch } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { selectDiamonds, selectSummaryPhase } from '../../../machines/wallet/wallet.selectors';
import { ListMessage } from '../../ui/ListMessage';
import { DiamondIcon } from '../../ui/icons';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { WalletTabs } from './WalletTabs';
import { RETURNED_TEXT, isReturnedResult, useWallet } from './money';
import { RechargePanel } from './RechargePanel';
import { DiamondHistory, OrderHistory } from './WalletHistory';
import { HostWallet } from './host/HostWallet';
import { useIsHost } from './host/hostMoney';
import './wallet.css';

const TABS = [
  { key: 'recharge', label: 'Recharge' },
  { key: 'orders', label: 'Orders' },
  { key: 'history', label: 'Diamond history' },
] as const;
type Tab = (typeof TABS)[number]['key'];

export default function WalletScreen() {
  const wallet = useWallet({ fresh: true });
  const host = useIsHost();
  const phase = useSelector(wallet, selectSummaryPhase);
  const diamonds = useSelector(wallet, selectDiamonds);
  const vip = useSelector(wallet, (s) => s?.context.summary?.vip ?? false);
  const error = useSelector(wallet, (s) => s?.context.summaryError ?? null);
  const returned = useSelector(wallet, (s) => s?.context.returned ?? null);
  const [tab, setTab] = useState<Tab>('recharge');
  const search = useSearch({ strict: false }) as { orderCode?: unknown; result?: unknown };
  const router = useRouter();

  // Back from a provider's page: told once, then the query goes.
  useEffect(() => {
    if (!wallet || typeof search.orderCode !== 'string' || !isReturnedResult(search.result)) return;
    wallet.send({ type: 'recharge.returned', orderCode: search.orderCode.slice(0, 64), result: search.result });
    void router.navigate({ to: '/wallet', replace: true });
  }, [wallet, search.orderCode, search.result, router]);

  return (
    <ScreenFrame title="Wallet" back className="wallet-screen">
      {returned && (
        <div className={`wallet-returned wallet-returned-${returned.result}`} role="status">
          <p>{RETURNED_TEXT[returned.result]}</p>
          <button type="button" className="text-button" onClick={() => wallet?.send({ type: 'recharge.dismissResult' })}>OK</button>
        </div>
      )}
      {host ? <HostWallet wallet={wallet} /> : (
        <>
          <section className="wallet-balance" aria-label="Balance">
            {phase === 'loading' && <ListMessage busy>Loading your balance…</ListMessage>}
            {phase === 'failed' && <ListMessage error={error} onRetry={() => wallet?.send({ type: 'wallet.refresh' })} />}
            {phase === 'ready' && (
              <>
                <p className="wallet-diamonds">
                  <DiamondIcon aria-hidden="true" />
                  <span data-testid="wallet-diamonds">{diamonds}</span>
                  <span className="muted">diamonds</span>
                </p>
                {vip && <p className="wallet-vip">VIP member</p>}
              </>
            )}
          </section>
          <WalletTabs tabs={TABS} selected={tab} onSelect={setTab}>
            {tab === 'recharge' && wallet && <RechargePanel wallet={wallet} returnPath="/wallet" />}
            {tab === 'orders' && <OrderHistory />}
            {tab === 'history' && <DiamondHistory />}
          </WalletTabs>
        </>
      )}
    </ScreenFrame>
  );
}
