/**
 * The host's wishlist on /liveSetting (SPEC §3 Live info wishlist; §8 'set wishlist is
 * failed!'): up to WISHLIST_MAX wishes, each a gift and how many (1…WISH_GIFT_NUM_MAX),
 * loaded with getAnchorWishlist and saved with setAnchorWishlist. A save that fails, for any
 * reason, says SPEC's words.
 */
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../ui/useScreenActor';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { WISHLIST_MAX, WISH_GIFT_NUM_MAX, TEXT_SET_WISHLIST_FAILED, getAnchorWishlist, setAnchorWishlist } from '../../api/contract/live';
import { getGiftList } from '../../api/contract/gift';
import { useServices } from '../../compose/services';
import { CloseIcon } from '../../ui/icons';
import { composeWishlist } from '../../../machines/wishlist/wishlist.actors';
import { countOf } from '../../../machines/wishlist/wishlist.machine';
import type { Wish } from '../../../machines/wishlist/wishlist.machine';
import { selectRoomForMore, selectRows, selectRowsValid, selectWishlistPhase } from '../../../machines/wishlist/wishlist.selectors';
import { useLookup } from '../live-room/useLookup';

export const TEXT_WISHLIST_SAVED = 'Wishlist saved';
export const TEXT_WISHLIST_LOAD_FAILED = 'Could not load your wishlist.';
export const TEXT_WISH_INVALID = `Choose a different gift for each wish, wanted 1 to ${WISH_GIFT_NUM_MAX} times.`;

export function WishlistEditor() {
  const { api } = useServices();
  const gifts = useLookup('gifts', async () => (await api.data(getGiftList, {}, { silent: true })).giftList.flatMap((c) => c.gifts));
  const saved = useLookup('wishlist', () => api.data(getAnchorWishlist, {}, { silent: true }));
  if (saved.error) {
    return (
      <p className="form-error" role="alert">
        {TEXT_WISHLIST_LOAD_FAILED} <button type="button" className="text-button" onClick={saved.reload}>Retry</button>
      </p>
    );
  }
  if (!saved.data) return <p className="muted" role="status">Loading your wishlist…</p>;
  const choices = [...new Map((gifts.data ?? []).map((g) => [g.id, g])).values()];
  const initial = saved.data.map((w) => ({ giftId: w.giftId, giftNum: w.giftNum }));
  const names = new Map(saved.data.map((w) => [w.giftId, w.giftName]));
  for (const g of choices) names.set(g.id, g.name);
  return <Editor initial={initial} names={names} />;
}

/** The rows and their save, bound to a wishlist actor composed once per mount. */
function Editor({ initial, names }: { initial: Wish[]; names: Map<number, string> }) {
  const { api } = useServices();
  const id = useId();
  const [logic] = useState(() => composeWishlist({
    save: async (wishlist) => { await api.data(setAnchorWishlist, { wishlist }, { silent: true }); },
  }));
  const wishlist = useScreenActor(logic, { input: { wishes: initial, max: WISHLIST_MAX, maxCount: WISH_GIFT_NUM_MAX } });
  const rows = useSelector(wishlist, selectRows);
  const valid = useSelector(wishlist, selectRowsValid);
  const roomForMore = useSelector(wishlist, selectRoomForMore);
  const status = useSelector(wishlist, selectWishlistPhase);
  const save = (e: FormEvent) => {
    e.preventDefault();
    wishlist.send({ type: 'wishlist.save' });
  };
  return (
    <form className="wishlist-editor" aria-labelledby={`${id}-title`} onSubmit={save} data-state={status}>
      <h2 id={`${id}-title`} className="live-setting-heading">Wishlist</h2>
      {rows.length === 0 && <p className="muted">No wishes yet.</p>}
      <ol className="wish-rows">
        {rows.map((r, i) => (
          <li key={r.key} className="wish-row" data-testid="wish-row">
            <label className="field wish-gift">
              <span className="field-label">{`Wish ${i + 1} gift`}</span>
              <select className="field-input" value={r.giftId ?? ''} onChange={(e) => wishlist.send({ type: 'wish.setGift', key: r.key, giftId: e.target.value ? Number(e.target.value) : null })}>
                <option value="">Choose a gift</option>
                {[...names].map(([giftId, name]) => <option key={giftId} value={giftId}>{name}</option>)}
              </select>
            </label>
            <label className="field wish-count">
              <span className="field-label">{`Wish ${i + 1} count`}</span>
              <input className="field-input" inputMode="numeric" value={r.count} aria-invalid={countOf(r.count, WISH_GIFT_NUM_MAX) === null} onChange={(e) => wishlist.send({ type: 'wish.setCount', key: r.key, count: e.target.value })} />
            </label>
            <button type="button" className="icon-button wish-remove" aria-label={`Remove wish ${i + 1}`} onClick={() => wishlist.send({ type: 'wish.remove', key: r.key })}><CloseIcon /></button>
          </li>
        ))}
      </ol>
      {!valid && <p className="form-error" role="alert">{TEXT_WISH_INVALID}</p>}
      <div className="wishlist-actions">
        <button type="button" className="button-link" disabled={!roomForMore} onClick={() => wishlist.send({ type: 'wish.add' })}>
          Add a wish
        </button>
        <button type="submit" className="button-link button-primary" disabled={!valid || status === 'saving'}>Save wishlist</button>
      </div>
      {status === 'saved' && <p className="muted" role="status">{TEXT_WISHLIST_SAVED}</p>}
      {status === 'failed' && <p className="form-error" role="alert">{TEXT_SET_WISHLIST_FAILED}</p>}
    </form>
  );
}
