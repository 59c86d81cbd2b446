/**
 * The user's side of a connected call (SPEC §2 user call screen; §6 VIP discount): the
 * per-minute price after the discount (CallPrice.tsx), the
 * diamonds left with a warning before they run out, the gift panel, and the host's ask for a
 * gift to send or refuse.
 *
 * SPEC §7 has no balance endpoint for users: what is left starts from the balance createCall
 * answered (or the last gift send) and goes down by the price each billing period.
 */
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { isLowBalance, remainingBalance } from '../../../machines/call/call.selectors';
import type { CallView, GiftListRef, GiftingRef } from '../../../machines/call/call.selectors';
import { CallPrice } from './CallPrice';
import { GiftPanel } from './GiftPanel';
import { useOpened } from './useOpened';
import { useNow } from './useNow';

export const TEXT_LOW_BALANCE = 'Your diamonds are running low: the call ends when they run out.';

export function CallWallet({ view, gifting }: { view: CallView; gifting: GiftingRef }) {
  const known = useSelector(gifting, (s) => s.context.known);
  const now = useNow(true);
  const remaining = remainingBalance(known, { connectedAt: view.connectedAt, periodMs: view.billingPeriodMs, price: view.price }, now);
  return (
    <div className="call-wallet">
      <CallPrice view={view} />
      {remaining !== null && <p className="call-balance" data-testid="call-balance">{`Balance ${remaining} diamonds`}</p>}
      {isLowBalance(remaining, view.price) && <p className="call-low" role="alert">{TEXT_LOW_BALANCE}</p>}
    </div>
  );
}

export function UserGifts({ gifting, list }: { gifting: GiftingRef; list: GiftListRef | undefined }) {
  const [choosing, setChoosing] = useState(false);
  const opened = useOpened(choosing);
  const sending = useSelector(gifting, (s) => s.matches('sending'));
  const notice = useSelector(gifting, (s) => s.context.notice);
  return (
    <div className="call-gift-actions">
      <button type="button" className="call-button call-secondary" disabled={sending || !list} onClick={() => setChoosing(true)}>
        {sending ? 'Sending…' : 'Send a gift'}
      </button>
      {notice && <p className="call-notice" role="status">{notice}</p>}
      {list && opened && (
        <GiftPanel
          list={list}
          mode="send"
          open={choosing}
          onClose={() => setChoosing(false)}
          onSure={(gift, num) => gifting.send({ type: 'gift.send', giftId: gift.id, giftNum: num })}
        />
      )}
    </div>
  );
}

/** The host asks for a gift: send it (one, paid now) or refuse. */
export function IncomingAsk({ gifting }: { gifting: GiftingRef }) {
  const ask = useSelector(gifting, (s) => s.context.ask);
  const busy = useSelector(gifting, (s) => !s.matches('idle'));
  if (!ask) return null;
  const name = ask.giftName || 'gift';
  return (
    <section className="gift-ask" aria-label="Gift request" data-testid="gift-ask">
      {ask.giftImg && <img src={ask.giftImg} alt="" width={48} height={48} />}
      <p className="gift-ask-text">{`${ask.fromNick || 'The host'} asks for a ${name} (${ask.giftPrice} diamonds)`}</p>
      <div className="gift-ask-actions">
        <button type="button" className="call-button call-end" disabled={busy} onClick={() => gifting.send({ type: 'gift.refuseAsk' })}>Refuse</button>
        <button type="button" className="call-button call-accept" disabled={busy} onClick={() => gifting.send({ type: 'gift.sendAsked' })}>{`Send ${name}`}</button>
      </div>
    </section>
  );
}
