/**
 * The live room's lookups beside the machines (SPEC §2 /liveRoom, §7 Calls and live): follow
 * the host (/api/user/followUser), the send rank (/api/live/send/rank/sendRank) in a sheet,
 * the wishlist's progress (SPEC §3 wishlist giftId, giftNum, compelteGiftNum, ratio,
 * completed: counted by the chat machine, the gifts' names and pictures from
 * getAnchorWishlist) and the host's live gift task (/api/wallet/anchor/taskInfo/liveGiftTask).
 */
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../ui/useScreenActor';
import { useState } from 'react';
import { wishlistOf } from '../../../machines/live-chat/live-chat.selectors';
import { composeFollow } from '../../../machines/people/people.actors';
import {
  selectFollowed, selectReadingRelation, selectRelationError, selectSavingFollow,
} from '../../../machines/people/people.selectors';
import type { LiveChatRef, WishView } from '../../../machines/live-chat/live-chat.selectors';
import { getAnchorWishlist, liveGiftTask, sendRank } from '../../api/contract/live';
import { useServices } from '../../compose/services';
import { ProgressMeter } from '../../ui/ProgressMeter';
import CheckOutline from 'antd-mobile-icons/es/CheckOutline';
import { DiamondIcon } from '../../ui/icons';
import { Sheet } from '../../ui/Sheet';
import { UserBadges } from '../../ui/UserBadges';
import { peoplePortOf } from '../../compose/people';
import { useLookup } from './useLookup';

/**
 * Follow / Following for the room's host, bound to the one follow protocol (follow.machine.ts,
 * the profile's too), composed once per mount. Whether the viewer already follows the host is
 * read from the host's profile (Live info does not say it); until it is known the button waits,
 * and if it cannot be read the button starts as Follow (following twice is still one follow).
 */
export function FollowButton({ hostUserId }: { hostUserId: number }) {
  const { api, upload } = useServices();
  const [logic] = useState(() => composeFollow(peoplePortOf({ api, upload }, 0)));
  const relation = useScreenActor(logic, { input: { userId: hostUserId } });
  const followed = useSelector(relation, selectFollowed);
  const reading = useSelector(relation, selectReadingRelation);
  const busy = useSelector(relation, selectSavingFollow);
  const error = useSelector(relation, selectRelationError);
  return (
    <>
      <button
        type="button"
        className="live-chip live-follow"
        aria-pressed={followed}
        aria-busy={reading || busy}
        disabled={busy || reading}
        onClick={() => relation.send({ type: 'follow.toggle' })}
      >
        {followed ? 'Following' : 'Follow'}
      </button>
      {error && <p className="live-error" role="alert">{error}</p>}
    </>
  );
}

function RankList({ hostUserId }: { hostUserId: number }) {
  const { api } = useServices();
  const rank = useLookup(String(hostUserId), () => api.data(sendRank, { searchValue: hostUserId }, { silent: true }));
  if (rank.loading && !rank.data) return <p className="muted" role="status">Loading…</p>;
  if (rank.error) {
    return <p className="form-error" role="alert">{rank.error} <button type="button" className="text-button" onClick={rank.reload}>Retry</button></p>;
  }
  if (!rank.data?.length) return <p className="muted">No gifts in this room yet.</p>;
  return (
    <ol className="live-rank" aria-label="Top senders">
      {rank.data.map((r) => (
        <li key={r.userId} className="live-rank-row" data-testid="send-rank-row">
          <span className="live-rank-pos">{r.rank}</span>
          <img className="avatar" src={r.icon} alt="" width={36} height={36} />
          <span className="live-rank-name">{r.nickname}</span>
          <UserBadges isVip={r.isVip} isNewUser={false} userLevel={r.userLevel} />
          <span className="live-rank-total"><DiamondIcon /> {r.total}</span>
        </li>
      ))}
    </ol>
  );
}

export function SendRank({ hostUserId }: { hostUserId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" className="live-chip" aria-haspopup="dialog" onClick={() => setOpen(true)}>Send rank</button>
      <Sheet title="Send rank" open={open} onClose={() => setOpen(false)}>
        {open && <RankList hostUserId={hostUserId} />}
      </Sheet>
    </>
  );
}

const sameWishes = (a: WishView[], b: WishView[]) => a.length === b.length
  && a.every((w, i) => w.giftId === b[i]!.giftId && w.giftNum === b[i]!.giftNum && w.compelteGiftNum === b[i]!.compelteGiftNum);

/** Wishes with their progress; `hostUserId` null: the signed-in host's own. */
export function Wishlist({ chat, hostUserId }: { chat: LiveChatRef; hostUserId: number | null }) {
  const { api } = useServices();
  const wishes = useSelector(chat, wishlistOf, sameWishes);
  const gifts = useLookup(wishes.length > 0 ? `wishlist:${hostUserId ?? 'own'}` : null, () =>
    api.data(getAnchorWishlist, hostUserId === null ? {} : { searchValue: hostUserId }, { silent: true }));
  if (wishes.length === 0) return null;
  const giftOf = (w: WishView) => gifts.data?.find((g) => g.giftId === w.giftId);
  return (
    <ul className="live-wishlist" aria-label="Wishlist">
      {wishes.map((w) => {
        const gift = giftOf(w);
        const name = gift?.giftName || `Gift ${w.giftId}`;
        return (
          <li key={w.giftId} className="live-wish" data-testid="wish" data-gift-id={w.giftId} data-completed={w.completed ? 'true' : 'false'}>
            {gift?.giftImg && <img src={gift.giftImg} alt="" width={24} height={24} />}
            <span className="live-wish-text">
              <span className="visually-hidden">{name} </span>
              <span data-testid="wish-count">{`${w.compelteGiftNum}/${w.giftNum}`}</span>
              {w.completed && <span className="live-wish-done"> <CheckOutline aria-hidden /><span className="visually-hidden"> completed</span></span>}
            </span>
            <ProgressMeter label={`${name} wish`} done={w.compelteGiftNum} total={w.giftNum} className="live-wish-meter" />
          </li>
        );
      })}
    </ul>
  );
}

/** The host's live gift task today: loaded on entry and again after each gift (`refresh` changes). */
export function GiftTask({ fallback, refresh }: { fallback: { target: number; done: number; reward: number } | null; refresh: number }) {
  const { api } = useServices();
  const task = useLookup(`task:${refresh}`, () => api.data(liveGiftTask, {}, { silent: true }));
  const shown = task.data ?? fallback;
  if (!shown) return null;
  const completed = shown.done >= shown.target;
  return (
    <div className="live-task" data-testid="gift-task" data-completed={completed ? 'true' : 'false'}>
      <span className="live-task-text">{completed ? `Gift task done · +${shown.reward}` : `Gift task ${shown.done}/${shown.target} · +${shown.reward}`}</span>
      <ProgressMeter label="Live gift task" done={shown.done} total={shown.target} />
    </div>
  );
}
