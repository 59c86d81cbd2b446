/**
 * /wallet for a host (SPEC §2 /wallet, §6 host: withdrawal): the income that can be withdrawn,
 * what withdrawals hold, what was earned and paid out, the ways to withdraw (collection methods,
 * the withdrawal password, the records) and the income history with its filters. A host spends
 * diamonds too: the recharge and the diamond history stay beside the income.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../../ui/useScreenActor';
import { useState } from 'react';
import { composeHostWallet } from '../../../../machines/host-wallet/host-wallet.actors';
import { ListMessage } from '../../../ui/ListMessage';
import { DiamondIcon } from '../../../ui/icons';
import { WalletTabs } from '../WalletTabs';
import { RechargePanel } from '../RechargePanel';
import { DiamondHistory, OrderHistory } from '../WalletHistory';
import type { WalletRef } from '../../../../machines/wallet/wallet.selectors';
import { IncomeHistory } from './IncomeHistory';
import { WithdrawPasswordForm } from './WithdrawPasswordForm';
import { diamondsText, useWithdrawPort } from './hostMoney';
import './host-wallet.css';

const TABS = [
  { key: 'income', label: 'Income' },
  { key: 'recharge', label: 'Recharge' },
  { key: 'orders', label: 'Orders' },
  { key: 'history', label: 'Diamonds' },
] as const;
type Tab = (typeof TABS)[number]['key'];

export function HostWallet({ wallet }: { wallet: WalletRef | undefined }) {
  const port = useWithdrawPort();
  const [logic] = useState(() => composeHostWallet({ withdraw: port }));
  const hostWallet = useScreenActor(logic);
  const phase = useSelector(hostWallet, (s) => (s.matches('failed') ? 'failed' : s.context.summary ? 'ready' : 'loading'));
  const summary = useSelector(hostWallet, (s) => s.context.summary);
  const error = useSelector(hostWallet, (s) => s.context.error);
  const [tab, setTab] = useState<Tab>('income');
  const [changingPassword, setChangingPassword] = useState(false);

  return (
    <>
      <section className="host-balance" aria-label="Income">
        {phase === 'loading' && <ListMessage busy>Loading your income…</ListMessage>}
        {phase === 'failed' && <ListMessage error={error} onRetry={() => hostWallet.send({ type: 'hostWallet.refresh' })} />}
        {phase === 'ready' && summary && (
          <>
            <p className="host-balance-label muted">Your income</p>
            <p className="wallet-diamonds">
              <DiamondIcon aria-hidden="true" />
              <span data-testid="host-income">{diamondsText(summary.income)}</span>
              <span className="muted">diamonds</span>
            </p>
            <dl className="host-figures">
              {/* What one withdrawal may take now: none below the rules' minimum, at most their maximum. */}
              <div><dt>Withdrawable now</dt><dd data-testid="host-withdrawable">{diamondsText(summary.withdrawable)}</dd></div>
              <div><dt>Held by withdrawals</dt><dd data-testid="host-held">{diamondsText(summary.held)}</dd></div>
              <div><dt>Earned in all</dt><dd>{diamondsText(summary.earned)}</dd></div>
              <div><dt>Paid out</dt><dd>{diamondsText(summary.paidOut)}</dd></div>
              <div><dt>Diamonds to spend</dt><dd>{diamondsText(summary.diamonds)}</dd></div>
            </dl>
            <nav className="host-actions" aria-label="Withdraw">
              <Link to="/wallet/withdrawal" className="button-link button-primary">Withdraw</Link>
              <Link to="/wallet/collectionInfo" className="button-link">Collection methods</Link>
              <Link to="/wallet/withdrawalRecord" className="button-link">Withdrawal records</Link>
              <button
                type="button" className="button-link" aria-expanded={changingPassword}
                onClick={() => setChangingPassword((open) => !open)}
              >
                {summary.hasPassword ? 'Change withdrawal password' : 'Set withdrawal password'}
              </button>
            </nav>
            {changingPassword && (
              <WithdrawPasswordForm
                hasPassword={summary.hasPassword}
                onDone={() => hostWallet.send({ type: 'hostWallet.refresh' })}
              />
            )}
          </>
        )}
      </section>
      <WalletTabs tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'income' && <IncomeHistory />}
        {tab === 'recharge' && wallet && <RechargePanel wallet={wallet} returnPath="/wallet" />}
        {tab === 'orders' && <OrderHistory />}
        {tab === 'history' && <DiamondHistory />}
      </WalletTabs>
    </>
  );
}
