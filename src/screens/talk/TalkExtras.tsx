/**
 * The talk's extras (SPEC §2 /talk, §7): the peer bar with the room of a host live now and
 * block/unblock, a translate button under the peer's texts, secret (paid) messages — opened
 * by their recipient for the price, written by hosts — each bound to the talk actor. All
 * text is shown as text.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { blockStateOf } from '../../../machines/talk/talk-extras.machine';
import { SECRET_PRICE_MAX, SECRET_TEXT_MAX, keyOf, lengthOf, secretOf } from '../../../machines/talk/talk.machine';
import type { TalkMachine, TalkMessage } from '../../../machines/talk/talk.machine';
import { selectExtras } from '../../../machines/talk/talk.selectors';
import { useWarmCall } from '../call/callCode';
import { LiveButton } from '../../ui/LiveButton';
import { AudioCallButton } from '../../ui/CallButtons';
import { CallType } from '../../../machines/codes/call.codes';
import { VideoIcon } from '../../ui/icons';
import { RECHARGE_PATH } from '../../app/recharge';
import { MessageBody, safeMediaUrl } from './MessageBody';

export type TalkRef = ActorRefFrom<TalkMachine>;

/** The language translations go to: the device's (SPEC §7 translator "target language"). */
export const targetLanguage = (): string => (globalThis.navigator?.language || 'en').split('-')[0]!.toLowerCase();

export function PeerBar({ talk, onCall, blockable = true }: {
  talk: TalkRef;
  /** Calls the peer: a video call, or an audio call (SPEC §3 signalling actions 0 and 10). */
  onCall?: (peer: { account: string; userId: number; nickname: string | null }, callType: CallType) => void;
  /** Whether Block is offered (not to customer service). */
  blockable?: boolean;
}) {
  const extras = useSelector(talk, selectExtras);
  const peer = useSelector(talk, (s) => s.context.peer);
  const name = useSelector(extras, (s) => s?.context.peerName ?? null);
  const peerUserId = useSelector(extras, (s) => s?.context.peerUserId ?? null);
  const peerIsHost = useSelector(extras, (s) => s?.context.peerIsHost ?? false);
  const peerLiving = useSelector(extras, (s) => s?.context.peerLiving ?? false);
  const blocked = useSelector(extras, (s) => (s ? blockStateOf(s).blocked : null));
  const blocking = useSelector(extras, (s) => (s ? blockStateOf(s).changing : false));
  const callable = onCall !== undefined && peerIsHost && peerUserId !== null;
  useWarmCall(callable);
  return (
    // The peer's name is the screen's title (TalkScreen); the bar holds what can be done with the peer.
    <div className="talk-peer">
      {peerLiving && peerUserId !== null && <LiveButton hostUserId={peerUserId} nickname={name ?? peer} />}
      {callable && (
        <button
          type="button"
          className="button-link talk-call"
          aria-label={`Video call ${name ?? peer}`}
          onClick={() => onCall({ account: peer, userId: peerUserId, nickname: name }, CallType.video)}
        >
          <VideoIcon /> Video call
        </button>
      )}
      {callable && (
        <AudioCallButton
          name={name ?? peer}
          className="button-link talk-call"
          onCall={() => onCall({ account: peer, userId: peerUserId, nickname: name }, CallType.audio)}
        />
      )}
      {blocked !== null && blockable && (
        <button
          type="button"
          className="text-button"
          disabled={blocking}
          aria-pressed={blocked}
          onClick={() => extras?.send({ type: 'talk.setBlocked', blocked: !blocked })}
        >
          {blocked ? 'Unblock' : 'Block'}
        </button>
      )}
      {blocked && <span className="muted talk-peer-note">You blocked this person: their messages do not reach you.</span>}
    </div>
  );
}

/** One message with its extras: a secret's lock, a translation. */
export function TalkMessageView({ talk, message }: { talk: TalkRef; message: TalkMessage }) {
  const secret = secretOf(message);
  if (secret && message.flow === 'in') return <SecretCard talk={talk} id={secret.id} price={secret.price} />;
  return (
    <>
      {secret && <span className="muted talk-secret-label">{`Secret message · ${secret.price} diamonds`}</span>}
      <MessageBody message={secret ? { ...message, ext: undefined } : message} />
      {message.flow === 'in' && message.type === 'text' && typeof message.text === 'string' && (
        <Translation talk={talk} message={message} />
      )}
    </>
  );
}

function Translation({ talk, message }: { talk: TalkRef; message: TalkMessage }) {
  const key = keyOf(message);
  const extras = useSelector(talk, selectExtras);
  const state = useSelector(extras, (s) => s?.context.translations[key]);
  if (state?.status === 'done') return <span className="talk-translation" lang={targetLanguage()}>{state.text}</span>;
  return (
    <span className="talk-translate">
      {state?.status === 'failed' && <span className="muted" role="alert">{state.reason}</span>}
      <button
        type="button"
        className="text-button talk-translate-button"
        disabled={state?.status === 'translating'}
        onClick={() => extras?.send({ type: 'talk.translate', key, text: message.text ?? '', to: targetLanguage() })}
      >
        {state?.status === 'translating' ? 'Translating…' : 'Translate'}
      </button>
    </span>
  );
}

function SecretCard({ talk, id, price }: { talk: TalkRef; id: number; price: number }) {
  const extras = useSelector(talk, selectExtras);
  const state = useSelector(extras, (s) => s?.context.secrets[id]);
  if (state?.status === 'open' && state.info.unlocked) {
    return (
      <span className="talk-secret">
        <span className="muted talk-secret-label">Secret message</span>
        {state.info.content && <span className="talk-text">{state.info.content}</span>}
        {state.info.mediaList.map((m, i) => {
          const src = safeMediaUrl(m.mediaUrl);
          if (!src) return null;
          return m.mediaType === 1
            ? <img key={i} className="talk-image" src={src} alt="Picture" loading="lazy" width={160} height={160} />
            : <video key={i} className="talk-image" src={src} controls preload="none" aria-label="Video" />;
        })}
      </span>
    );
  }
  return (
    <span className="talk-secret">
      <span className="talk-card">[Secret Message]</span>
      <button
        type="button"
        className="button-link button-primary"
        disabled={state?.status === 'checking' || state?.status === 'confirming' || state?.status === 'opening'}
        onClick={() => extras?.send({ type: 'talk.unlockSecret', id })}
      >
        {state?.status === 'opening' ? 'Opening…' : `Unlock for ${price} diamonds`}
      </button>
    </span>
  );
}

export const TEXT_UNLOCK_TITLE = 'Unlock this secret message?';
export const TEXT_UNLOCK_SHORT = 'You do not have enough diamonds.';

/**
 * Asks before a secret is paid for (the talk's extras hold the secret in `confirming`): its price
 * and the diamonds the person has, then Unlock or Cancel; with too few diamonds, Recharge or Close.
 */
export function SecretUnlockDialog({ talk }: { talk: TalkRef }) {
  const extras = useSelector(talk, selectExtras);
  const asked = useSelector(extras, (s) => {
    const entry = Object.entries(s?.context.secrets ?? {}).find(([, secret]) => secret.status === 'confirming');
    return entry && entry[1].status === 'confirming' ? { id: Number(entry[0]), price: entry[1].price, balance: entry[1].balance } : null;
  }, (a, b) => a?.id === b?.id && a?.price === b?.price && a?.balance === b?.balance);
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (asked) dialog.current?.focus();
  }, [asked]);
  if (!asked) return null;
  const cancel = () => extras?.send({ type: 'talk.cancelUnlock', id: asked.id });
  const enough = asked.balance >= asked.price;
  return (
    <div className="dialog-backdrop" onKeyDown={(e) => e.key === 'Escape' && cancel()}>
      <div ref={dialog} tabIndex={-1} className="dialog talk-unlock" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <h2 id={titleId} className="dialog-title">{TEXT_UNLOCK_TITLE}</h2>
        <p className="talk-unlock-figures">
          <span data-testid="unlock-price">{`Price: ${asked.price} diamonds`}</span>
          <span data-testid="unlock-balance">{`Your balance: ${asked.balance} diamonds`}</span>
        </p>
        {!enough && <p className="form-error" role="alert">{TEXT_UNLOCK_SHORT}</p>}
        <div className="talk-unlock-actions">
          {enough && (
            <button type="button" className="button-link button-primary" onClick={() => extras?.send({ type: 'talk.confirmUnlock', id: asked.id })}>
              {`Unlock for ${asked.price} diamonds`}
            </button>
          )}
          {!enough && (
            // Too few diamonds: the recharge is one tap away (SPEC §4 Recharge); the secret stays locked until then.
            <Link to={RECHARGE_PATH} className="button-link button-primary" onClick={cancel}>Recharge</Link>
          )}
          <button type="button" className="button-link" onClick={cancel}>{enough ? 'Cancel' : 'Close'}</button>
        </div>
      </div>
    </div>
  );
}

/** Hosts: a secret message for the peer, with its price in diamonds. */
export function SecretComposer({ talk, onDone }: { talk: TalkRef; onDone: () => void }) {
  const [content, setContent] = useState('');
  const [price, setPrice] = useState('10');
  const length = lengthOf(content.trim());
  const priceNumber = Number(price);
  const priceOk = Number.isInteger(priceNumber) && priceNumber >= 1 && priceNumber <= SECRET_PRICE_MAX;
  const ok = length > 0 && length <= SECRET_TEXT_MAX && priceOk;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ok) return;
    talk.send({ type: 'talk.sendSecret', idClient: crypto.randomUUID(), time: Date.now(), price: priceNumber, content });
    setContent('');
    onDone();
  };
  return (
    <form className="talk-secret-form" onSubmit={submit} aria-label="Secret message">
      <label className="field">
        <span className="field-label">Secret text</span>
        <textarea className="field-input" rows={3} value={content} onChange={(e) => setContent(e.target.value)} />
        <span className={length > SECRET_TEXT_MAX ? 'form-error' : 'muted'}>{`${length}/${SECRET_TEXT_MAX}`}</span>
      </label>
      <label className="field">
        <span className="field-label">Price (diamonds)</span>
        <input
          className="field-input"
          inputMode="numeric"
          value={price}
          aria-invalid={!priceOk}
          onChange={(e) => setPrice(e.target.value)}
        />
        {!priceOk && <span className="form-error" role="alert">{`A price is a whole number from 1 to ${SECRET_PRICE_MAX}.`}</span>}
      </label>
      <button type="submit" className="button-link button-primary" disabled={!ok}>Send secret message</button>
    </form>
  );
}
