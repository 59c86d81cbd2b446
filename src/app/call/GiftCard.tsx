/**
 * The gift showing now from the call's gift queue (SPEC §4 gift animation queue, one at a
 * time; §9 hidden after 5 s): an animated card, or a static one when the person prefers
 * reduced motion (the stylesheet's media query).
 */
import { useSelector } from '@xstate/react';
import type { GiftQueueRef } from '../../../machines/call/call.selectors';
import { CloseIcon } from '../../ui/icons';

export function GiftCard({ queue }: { queue: GiftQueueRef }) {
  const gift = useSelector(queue, (s) => s.context.current);
  const waiting = useSelector(queue, (s) => s.context.waiting.length);
  if (!gift) return null;
  const text = `${gift.fromNick || 'Someone'} sent ${gift.giftName || 'a gift'} ×${gift.giftNum}`;
  return (
    <div className="gift-card" data-testid="gift-card" key={gift.seq}>
      {/* The status says the gift; the close button beside it is not part of what it reads. */}
      <div className="gift-card-status" role="status" aria-live="polite">
        {gift.giftImg && <img className="gift-card-img" src={gift.giftImg} alt="" width={96} height={96} />}
        <p className="gift-card-text">{text}</p>
        {waiting > 0 && <p className="gift-card-more">{`${waiting} more`}</p>}
      </div>
      <button type="button" className="icon-button gift-card-close" aria-label="Dismiss gift" onClick={() => queue.send({ type: 'gift.dismiss' })}>
        <CloseIcon />
      </button>
    </div>
  );
}
