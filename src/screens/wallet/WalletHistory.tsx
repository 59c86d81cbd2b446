/**
 * The person's recharge orders and the history of their diamonds (reference-server additions
 * /api/wallet/user/orderList and flowList): newest first, pulled down to refresh, paged on scroll.
 */
import { createPagedListMachine } from '../../../machines/paged-list/paged-list.machine';
import type { DiamondFlow, OrderRecord, WalletPort } from '../../../machines/ports/wallet.port';
import { useServices } from '../../compose/services';
import { PagedListView } from '../news/PagedListView';
import { FLOW_LABEL, ORDER_STATUS_LABEL, PAY_METHOD_LABEL, whenText } from './money';

const ordersMachine = createPagedListMachine<OrderRecord>({ keyOf: (o) => o.orderCode });
const flowsMachine = createPagedListMachine<DiamondFlow>({ keyOf: (f) => f.id });

export const TEXT_WALLET_NOT_SIGNED_IN = 'Sign in to see your wallet.';

const notSignedIn = () => Promise.reject(new Error(TEXT_WALLET_NOT_SIGNED_IN));

/** The wallet API of the signed-in composition (src/compose/index.ts). */
function useWalletPort(): Pick<WalletPort, 'orderHistory' | 'diamondFlows'> {
  return useServices().wallet ?? { orderHistory: notSignedIn, diamondFlows: notSignedIn };
}

export function OrderHistory() {
  const port = useWalletPort();
  return (
    <PagedListView
      label="Orders" empty="No orders yet." endText="No more orders" machine={ordersMachine}
      load={(page, pageSize) => port.orderHistory({ page, pageSize })}
      render={(o) => (
        <li key={o.orderCode}>
          <article className="wallet-row" aria-label={`Order ${o.orderCode}`}>
            <p className="wallet-row-main">
              <span>{`${o.vip ? 'VIP, ' : ''}${o.diamonds} diamonds`}</span>
              <span>{`US$ ${o.price}`}</span>
            </p>
            <p className="wallet-row-sub muted">
              <span>{`${PAY_METHOD_LABEL[o.payMethod]} · ${whenText(o.createdAt)}`}</span>
              <span className={`wallet-status wallet-status-${o.status}`}>{ORDER_STATUS_LABEL[o.status]}</span>
            </p>
          </article>
        </li>
      )}
    />
  );
}

export function DiamondHistory() {
  const port = useWalletPort();
  return (
    <PagedListView
      label="Diamond history" empty="No diamonds came in or went out yet." endText="No more entries" machine={flowsMachine}
      load={(page, pageSize) => port.diamondFlows({ page, pageSize })}
      render={(f) => (
        <li key={f.id}>
          <article className="wallet-row" aria-label={FLOW_LABEL[f.kind]}>
            <p className="wallet-row-main">
              <span>{FLOW_LABEL[f.kind]}</span>
              <span className={f.amount >= 0 ? 'wallet-in' : 'wallet-out'}>{f.amount >= 0 ? `+${f.amount}` : `−${-f.amount}`}</span>
            </p>
            <p className="wallet-row-sub muted">
              <span>{whenText(f.createdAt)}</span>
              <span>{`Balance ${f.balance}`}</span>
            </p>
          </article>
        </li>
      )}
    />
  );
}
