/**
 * A viewer's gifts in a live room (SPEC §2 gift popup titled 'Popular' with a Sure button and
 * a quantity stepper, max 99, an integer; §3 Gift): the call's gift panel over the room's gift
 * list, and the send in the room's scene (the viewing machine's gifting). What the person was
 * told about the last send shows beside the button.
 */
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { selectViewingGiftList, selectViewingGifting } from '../../../machines/live-viewing/live-viewing.selectors';
import type { LiveViewingRef } from '../../../machines/live-viewing/live-viewing.selectors';
import { GiftPanel } from '../../app/call/GiftPanel';
import GiftOutline from 'antd-mobile-icons/es/GiftOutline';

export function ViewerGifts({ viewing }: { viewing: LiveViewingRef }) {
  const [open, setOpen] = useState(false);
  const list = useSelector(viewing, selectViewingGiftList);
  const gifting = useSelector(viewing, selectViewingGifting);
  const sending = useSelector(gifting, (s) => s?.matches('sending') ?? false);
  const notice = useSelector(gifting, (s) => s?.context.notice ?? null);
  if (!list || !gifting) return null;
  return (
    <>
      <button type="button" className="live-button live-gift" aria-haspopup="dialog" disabled={sending} onClick={() => setOpen(true)}>
        <GiftOutline aria-hidden /> Gift
      </button>
      {notice && <p className="live-gift-notice" role="status" data-testid="gift-notice">{notice}</p>}
      <GiftPanel
        list={list}
        mode="send"
        open={open}
        onClose={() => setOpen(false)}
        onSure={(gift, num) => gifting.send({ type: 'gift.send', giftId: gift.id, giftNum: num })}
      />
    </>
  );
}
