/**
 * The host's ask for a gift (SPEC §2 ask-for-gift button with the 15 s cooldown shown; §8
 * 'Asking for a gift was refused'). The countdown is read from the ask's deadline each
 * second, never counted down.
 */
import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import { cooldownSecondsLeft } from '../../../machines/ask-gift/ask-gift.machine';
import type { AskGiftRef, GiftListRef } from '../../../machines/call/call.selectors';
import { GiftPanel } from './GiftPanel';
import { useNow } from './useNow';
import { useOpened } from './useOpened';

export function HostGifts({ ask, list }: { ask: AskGiftRef; list: GiftListRef | undefined }) {
  const id = useId();
  const [choosing, setChoosing] = useState(false);
  const opened = useOpened(choosing);
  const asking = useSelector(ask, (s) => s.matches('asking'));
  const coolingDown = useSelector(ask, (s) => s.matches('coolingDown'));
  const nextAskAt = useSelector(ask, (s) => s.context.nextAskAt);
  const notice = useSelector(ask, (s) => s.context.notice);
  const now = useNow(coolingDown, 250);
  const left = coolingDown ? Math.max(1, cooldownSecondsLeft(nextAskAt, now)) : 0;
  return (
    <div className="call-gift-actions">
      <button
        type="button"
        className="call-button call-secondary"
        disabled={asking || coolingDown || !list}
        aria-describedby={coolingDown ? `${id}-cooldown` : undefined}
        onClick={() => setChoosing(true)}
      >
        {asking ? 'Asking…' : 'Ask for a gift'}
      </button>
      {coolingDown && (
        <span id={`${id}-cooldown`} className="call-cooldown" role="timer" aria-label="Ask again in">{`Again in ${left} s`}</span>
      )}
      {notice && <p className="call-notice" role="status">{notice}</p>}
      {list && opened && (
        <GiftPanel
          list={list}
          mode="ask"
          open={choosing}
          onClose={() => setChoosing(false)}
          onSure={(gift) => ask.send({ type: 'gift.ask', giftId: gift.id })}
        />
      )}
    </div>
  );
}
