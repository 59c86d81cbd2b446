/**
 * /wallet/withdrawalRecord (SPEC §2): the host's withdrawals, newest first, paged by the shared
 * paging protocol, each with its amount, what was paid, where, and its status (applied,
 * processing, paid, or refused with the reason; a refused one's diamonds went back to the income).
 */
import { createPagedListMachine } from '../../../../machines/paged-list/paged-list.machine';
import type { WithdrawalRecord } from '../../../../machines/ports/withdraw.port';
import { ScreenFrame } from '../../../ui/ScreenFrame';
import { PagedListView } from '../../news/PagedListView';
import { whenText } from '../money';
import { HostsOnly } from './HostsOnly';
import { WITHDRAW_STATUS_LABEL, diamondsText, useWithdrawPort } from './hostMoney';
// The rows' look (.wallet-row) lives with the wallet's; this view may be opened without it.
import '../wallet.css';
import './host-wallet.css';

const recordsMachine = createPagedListMachine<WithdrawalRecord>({ keyOf: (r) => r.id });

export default function WithdrawalRecordScreen() {
  return (
    <ScreenFrame title="Withdrawal records" back className="wallet-screen">
      <HostsOnly><Records /></HostsOnly>
    </ScreenFrame>
  );
}

function Records() {
  const port = useWithdrawPort();
  return (
    <PagedListView
      label="Withdrawal records" empty="No withdrawals yet." endText="No more withdrawals" machine={recordsMachine}
      load={(page, pageSize) => port.records({ page, pageSize })}
      render={(r) => (
        <li key={r.id}>
          <article className="wallet-row" aria-label={`Withdrawal of ${r.amount} diamonds`}>
            <p className="wallet-row-main">
              <span>{`${diamondsText(r.amount)} diamonds`}</span>
              <span className={`wallet-status withdraw-status-${r.status}`}>{WITHDRAW_STATUS_LABEL[r.status]}</span>
            </p>
            {/* Where it goes on a line of its own: at 360 px, beside the time, the masked number broke from its dots. */}
            <p className="wallet-row-sub muted"><span>{`US$ ${r.usd} to ${r.accountLabel}`}</span></p>
            <p className="wallet-row-sub muted">
              <span>{whenText(r.createdAt)}</span>
              {r.fee > 0 && <span>{`Fee ${diamondsText(r.fee)} diamonds`}</span>}
            </p>
            {r.status === 'refused' && (
              <p className="wallet-row-sub withdraw-reason">{`${r.reason ? `Refused: ${r.reason.replace(/[.!]+$/, '')}. ` : ''}The diamonds are back in your income.`}</p>
            )}
          </article>
        </li>
      )}
    />
  );
}
