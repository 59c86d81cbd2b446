/**
 * The recharge (SPEC §4 Recharge, §5 VIP text, §8 'no pay'): the packages with their prices,
 * diamonds and gifts; a package with one way to pay pays at once, one with several opens the
 * picker, a USDT payment asks for its chain. Bound to the wallet's recharge, which runs while
 * this panel is shown (`recharge.open` / `recharge.close`).
 */
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { USDT_CHAINS } from '../../../machines/recharge/recharge.machine';
import { selectRecharge, selectRechargeStep } from '../../../machines/wallet/wallet.selectors';
import type { WalletRef } from '../../../machines/wallet/wallet.selectors';
import type { PayChannel, RechargeOffer } from '../../../machines/ports/wallet.port';
import { ListMessage } from '../../ui/ListMessage';
import { Sheet } from '../../ui/Sheet';
import { PAY_METHOD_LABEL } from './money';

const STEP_TEXT: Partial<Record<ReturnType<typeof selectRechargeStep>, string>> = {
  ordering: 'Placing the order…',
  storePaying: 'Waiting for the store…',
  leaving: 'Opening the payment…',
};

export function RechargePanel({ wallet, returnPath }: { wallet: WalletRef; returnPath: string }) {
  useEffect(() => {
    wallet.send({ type: 'recharge.open', returnPath });
    return () => wallet.send({ type: 'recharge.close' });
  }, [wallet, returnPath]);
  const recharge = useSelector(wallet, selectRecharge);
  const step = useSelector(recharge, selectRechargeStep);
  const offers = useSelector(recharge, (s) => s?.context.offers ?? []);
  const chosen = useSelector(recharge, (s) => s?.context.chosen ?? null);
  const notice = useSelector(recharge, (s) => s?.context.notice ?? null);
  const busy = step === 'ordering' || step === 'storePaying' || step === 'leaving';

  if (step === 'loading') return <ListMessage busy>Loading packages…</ListMessage>;
  if (step === 'failed') return <ListMessage error={notice} onRetry={() => recharge?.send({ type: 'recharge.retry' })} />;
  return (
    <div className="recharge" aria-busy={busy}>
      {notice && <p className="recharge-notice" role="alert">{notice}</p>}
      {STEP_TEXT[step] && <p className="recharge-step" role="status">{STEP_TEXT[step]}</p>}
      <ul className="recharge-offers">
        {offers.map((offer) => (
          <li key={offer.batchNo}>
            <OfferButton offer={offer} disabled={busy} onChoose={() => recharge?.send({ type: 'recharge.choose', batchNo: offer.batchNo })} />
          </li>
        ))}
      </ul>
      <Sheet title="Choose how to pay" open={step === 'picking'} onClose={() => recharge?.send({ type: 'recharge.back' })}>
        <ul className="recharge-channels">
          {(chosen?.channels ?? []).map((c) => (
            <li key={`${c.channelId}.${c.countryTypeId}`}>
              <button
                type="button" className="recharge-channel" aria-label={channelLabel(c)}
                onClick={() => recharge?.send({ type: 'recharge.pick', channelId: c.channelId, countryTypeId: c.countryTypeId })}
              >
                <ChannelIcon channel={c} />
                <span>{PAY_METHOD_LABEL[c.payMethod]}</span>
                {c.recommended && <span className="recharge-tag">Recommended</span>}
                {c.recent && <span className="recharge-tag">Used recently</span>}
              </button>
            </li>
          ))}
        </ul>
      </Sheet>
      <Sheet title="Choose the chain" open={step === 'choosingChain'} onClose={() => recharge?.send({ type: 'recharge.back' })}>
        <ul className="recharge-channels">
          {USDT_CHAINS.map((chain) => (
            <li key={chain}>
              <button type="button" className="recharge-channel" onClick={() => recharge?.send({ type: 'recharge.chain', chain })}>
                <span>{`USDT on ${chain}`}</span>
              </button>
            </li>
          ))}
        </ul>
      </Sheet>
    </div>
  );
}

/** A way to pay and its tags as one name ("Card, recommended"): the tags are separate words, not run together. */
const channelLabel = (c: PayChannel): string =>
  [PAY_METHOD_LABEL[c.payMethod], c.recommended ? 'recommended' : null, c.recent ? 'used recently' : null].filter(Boolean).join(', ');

function ChannelIcon({ channel }: { channel: PayChannel }) {
  return <img className="recharge-channel-icon" src={channel.icon} alt="" width={28} height={28} />;
}

function OfferButton({ offer, disabled, onChoose }: { offer: RechargeOffer; disabled: boolean; onChoose: () => void }) {
  const only = offer.channels.length === 1 ? offer.channels[0]! : null;
  const label = [
    offer.vip ? 'VIP' : null,
    `${offer.diamonds} diamonds`,
    offer.bonus > 0 ? `plus ${offer.bonus}` : null,
    offer.firstRechargeBonus > 0 ? `plus ${offer.firstRechargeBonus} on a first recharge` : null,
    `US$ ${offer.price}`,
    only ? `by ${PAY_METHOD_LABEL[only.payMethod]}` : null,
  ].filter(Boolean).join(', ');
  return (
    <button type="button" className={offer.vip ? 'recharge-offer recharge-offer-vip' : 'recharge-offer'} disabled={disabled || offer.channels.length === 0} aria-label={label} onClick={onChoose}>
      {offer.vip && <span className="recharge-vip">VIP</span>}
      <span className="recharge-diamonds">{`${offer.diamonds} diamonds`}</span>
      {offer.bonus > 0 && <span className="recharge-bonus">{`+${offer.bonus}`}</span>}
      {offer.firstRechargeBonus > 0 && <span className="recharge-first">{`First recharge +${offer.firstRechargeBonus}`}</span>}
      <span className="recharge-price">{`US$ ${offer.price}`}</span>
      {only && <ChannelIcon channel={only} />}
    </button>
  );
}
