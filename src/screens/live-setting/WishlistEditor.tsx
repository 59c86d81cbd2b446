/**
 * The host's wishlist on /liveSetting (SPEC §3 Live info wishlist; §8 'set wishlist is
 * failed!'): up to WISHLIST_MAX wishes, each a gift and how many (1…WISH_GIFT_NUM_MAX),
 * loaded with getAnchorWishlist and saved with setAnchorWishlist. A save that fails, for any
 * reason, says SPEC's words.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { WISHLIST_MAX, WISH_GIFT_NUM_MAX, TEXT_SET_WISHLIST_FAILED, getAnchorWishlist, setAnchorWishlist } from '../../api/contract/live';
import { getGiftList } from '../../api/contract/gift';
import { useServices } from '../../app/services';
import { CloseIcon } from '../../ui/icons';
import { useLookup } from '../live-room/useLookup';

interface Row { key: number; giftId: number | null; count: string }

export const TEXT_WISHLIST_SAVED = 'Wishlist saved';
export const TEXT_WISHLIST_LOAD_FAILED = 'Could not load your wishlist.';
export const TEXT_WISH_INVALID = `Choose a different gift for each wish, wanted 1 to ${WISH_GIFT_NUM_MAX} times.`;

const countOf = (text: string): number | null => {
  const n = Number(text);
  return text.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= WISH_GIFT_NUM_MAX ? n : null;
};

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
  const initial = saved.data.map((w, i) => ({ key: i, giftId: w.giftId, count: String(w.giftNum) }));
  const names = new Map(saved.data.map((w) => [w.giftId, w.giftName]));
  for (const g of choices) names.set(g.id, g.name);
  return <Editor initial={initial} names={names} />;
}

function Editor({ initial, names }: { initial: Row[]; names: Map<number, string> }) {
  const { api } = useServices();
  const id = useId();
  const [rows, setRows] = useState<Row[]>(initial);
  const [next, setNext] = useState(initial.length);
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const change = (key: number, patch: Partial<Row>) => {
    setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
    setStatus('idle');
  };
  const ids = rows.map((r) => r.giftId);
  const valid = rows.every((r) => r.giftId !== null && countOf(r.count) !== null) && new Set(ids).size === ids.length;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!valid || status === 'saving') return;
    setStatus('saving');
    try {
      await api.data(setAnchorWishlist, { wishlist: rows.map((r) => ({ giftId: r.giftId!, giftNum: countOf(r.count)! })) }, { silent: true });
      setStatus('saved');
    } catch {
      setStatus('failed');
    }
  };
  return (
    <form className="wishlist-editor" aria-labelledby={`${id}-title`} onSubmit={(e) => void save(e)} data-state={status}>
      <h2 id={`${id}-title`} className="live-setting-heading">Wishlist</h2>
      {rows.length === 0 && <p className="muted">No wishes yet.</p>}
      <ol className="wish-rows">
        {rows.map((r, i) => (
          <li key={r.key} className="wish-row" data-testid="wish-row">
            <label className="field wish-gift">
              <span className="field-label">{`Wish ${i + 1} gift`}</span>
              <select className="field-input" value={r.giftId ?? ''} onChange={(e) => change(r.key, { giftId: e.target.value ? Number(e.target.value) : null })}>
                <option value="">Choose a gift</option>
                {[...names].map(([giftId, name]) => <option key={giftId} value={giftId}>{name}</option>)}
              </select>
            </label>
            <label className="field wish-count">
              <span className="field-label">{`Wish ${i + 1} count`}</span>
              <input className="field-input" inputMode="numeric" value={r.count} aria-invalid={countOf(r.count) === null} onChange={(e) => change(r.key, { count: e.target.value })} />
            </label>
            <button type="button" className="icon-button wish-remove" aria-label={`Remove wish ${i + 1}`} onClick={() => { setRows((rs) => rs.filter((x) => x.key !== r.key)); setStatus('idle'); }}><CloseIcon /></button>
          </li>
        ))}
      </ol>
      {!valid && <p className="form-error" role="alert">{TEXT_WISH_INVALID}</p>}
      <div className="wishlist-actions">
        <button type="button" className="button-link" disabled={rows.length >= WISHLIST_MAX} onClick={() => { setRows((rs) => [...rs, { key: next, giftId: null, count: '1' }]); setNext((n) => n + 1); setStatus('idle'); }}>
          Add a wish
        </button>
        <button type="submit" className="button-link button-primary" disabled={!valid || status === 'saving'}>Save wishlist</button>
      </div>
      {status === 'saved' && <p className="muted" role="status">{TEXT_WISHLIST_SAVED}</p>}
      {status === 'failed' && <p className="form-error" role="alert">{TEXT_SET_WISHLIST_FAILED}</p>}
    </form>
  );
}
