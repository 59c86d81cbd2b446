/**
 * The gift popup of a call (SPEC §2 popup titled 'Popular' with a Sure button and a quantity
 * stepper, max 99, an integer; §3 gifts by category; §5 optional min/max price filter). A user
 * picks a gift and how many to send; a host picks the gift to ask for (an ask has no quantity).
 */
import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { GiftListRef } from '../../../machines/call/call.selectors';
import { filterProblem } from '../../../machines/gift-list/gift-list.machine';
import { isGiftQuantity } from '../../../machines/gifting/gifting.machine';
import { GIFT_NUM_MAX } from '../../../machines/ports/gift.port';
import type { GiftFilter, GiftItem } from '../../../machines/ports/gift.port';
import { Popup } from '../../ui/antd';
import { CloseIcon, DiamondIcon } from '../../ui/icons';
import { QuantityStepper } from '../../ui/QuantityStepper';

export type GiftPanelMode = 'send' | 'ask';

const priceOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

function PriceFilter({ list }: { list: GiftListRef }) {
  const [min, setMin] = useState('');
  const [max, setMax] = useState('');
  const filter: GiftFilter = { ...(priceOf(min) !== undefined ? { minPrice: priceOf(min) } : {}), ...(priceOf(max) !== undefined ? { maxPrice: priceOf(max) } : {}) };
  const problem = filterProblem(filter);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (problem === null) list.send({ type: 'giftList.filter', filter });
  };
  return (
    <form className="gift-filter" onSubmit={submit} aria-label="Price filter">
      <label className="gift-filter-field">Min price<input className="field-input" inputMode="numeric" value={min} onChange={(e) => setMin(e.target.value)} /></label>
      <label className="gift-filter-field">Max price<input className="field-input" inputMode="numeric" value={max} onChange={(e) => setMax(e.target.value)} /></label>
      <button type="submit" className="call-button call-secondary" disabled={problem !== null}>Filter</button>
      {problem && <p className="form-error gift-filter-error" role="alert">{problem}</p>}
    </form>
  );
}

export function GiftPanel({
  list, mode, open, onClose, onSure,
}: {
  list: GiftListRef;
  mode: GiftPanelMode;
  open: boolean;
  onClose: () => void;
  onSure: (gift: GiftItem, num: number) => void;
}) {
  const titleId = useId();
  const categories = useSelector(list, (s) => s.context.categories);
  const loading = useSelector(list, (s) => s.matches('loading'));
  const error = useSelector(list, (s) => (s.matches('failed') ? s.context.error : null));
  const [tab, setTab] = useState(0);
  const [chosen, setChosen] = useState<GiftItem | null>(null);
  const [num, setNum] = useState<number | null>(1);
  const category = categories[Math.min(tab, Math.max(0, categories.length - 1))];
  const ready = chosen !== null && (mode === 'ask' || (num !== null && isGiftQuantity(num)));
  const sure = () => {
    if (!chosen || !ready) return;
    onSure(chosen, mode === 'ask' ? 1 : num ?? 1);
    onClose();
  };
  return (
    <Popup visible={open} onMaskClick={onClose} onClose={onClose} getContainer={null} destroyOnClose bodyClassName="call-popup">
      <section role="dialog" aria-modal="true" aria-labelledby={titleId} className="call-sheet gift-panel">
        <header className="call-sheet-head">
          <h2 id={titleId} className="call-sheet-title">Popular</h2>
          <button type="button" className="icon-button" aria-label="Close" autoFocus onClick={onClose}><CloseIcon /></button>
        </header>
        {mode === 'ask' && <p className="muted">Choose the gift to ask for.</p>}
        <div role="tablist" aria-label="Gift categories" className="gift-tabs">
          {categories.map((c, i) => (
            <button key={c.id} type="button" role="tab" aria-selected={c === category} className="gift-tab" onClick={() => setTab(i)}>{c.name}</button>
          ))}
        </div>
        <PriceFilter list={list} />
        <div role="tabpanel" aria-label={category?.name ?? 'Gifts'} className="gift-grid-scroll" aria-busy={loading}>
          {loading && <p className="muted" role="status">Loading gifts…</p>}
          {error && (
            <p className="form-error" role="alert">
              {error} <button type="button" className="text-button" onClick={() => list.send({ type: 'giftList.retry' })}>Retry</button>
            </p>
          )}
          {!loading && !error && !category && <p className="muted">No gifts at these prices.</p>}
          <ul className="gift-grid">
            {category?.gifts.map((g) => (
              <li key={g.id}>
                <button type="button" className="gift-item" aria-pressed={chosen?.id === g.id} aria-label={`${g.name}, ${g.price} diamonds`} onClick={() => setChosen(g)}>
                  <img src={g.smallImg} alt="" width={40} height={40} />
                  <span className="gift-item-name">{g.name}</span>
                  <span className="gift-item-price"><DiamondIcon /> {g.price}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
        <div className="gift-panel-foot">
          {mode === 'send' && <QuantityStepper label="Quantity" min={1} max={GIFT_NUM_MAX} value={num} onChange={setNum} />}
          {mode === 'send' && chosen && num !== null && <span className="gift-total">{`Total ${chosen.price * num} diamonds`}</span>}
          <button type="button" className="call-button call-accept gift-sure" disabled={!ready} onClick={sure}>Sure</button>
        </div>
      </section>
    </Popup>
  );
}
