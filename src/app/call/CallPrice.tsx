/**
 * What the call costs the one who pays (SPEC §6): the price a minute after the VIP discount,
 * the list price struck through and the discount as "100 − d % off" when one applies; and, while
 * it rings, her diamonds, or why the price is not there yet.
 */
import type { CallView } from '../../../machines/call/call.selectors';

export function CallPrice({ view }: { view: CallView }) {
  if (view.price === null) return null;
  const discounted = view.listPrice !== null && view.listPrice !== view.price;
  return (
    <p className="call-price" data-testid="call-price">
      {discounted && <s><span className="visually-hidden">was </span>{view.listPrice}</s>}
      <span>{`${view.price} diamonds/min`}</span>
      {view.percentOff !== null && <span className="call-vip">{`VIP ${view.percentOff}% off`}</span>}
    </p>
  );
}

/** Before the call is taken: the payer's price and balance (a callee cannot take it before they are there). */
export function PriceBeforeCall({ view }: { view: CallView }) {
  if (view.terms === 'asking') return <p className="call-details" role="status">Checking the price…</p>;
  if (view.terms === 'unknown') return <p className="call-details" role="status">The price could not be shown.</p>;
  if (view.price === null) return null;
  return (
    <div className="call-wallet call-wallet-ring">
      <CallPrice view={view} />
      {view.balance !== null && <p className="call-balance" data-testid="call-balance">{`Balance ${view.balance} diamonds`}</p>}
    </div>
  );
}
