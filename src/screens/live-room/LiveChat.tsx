/**
 * The live room's chat, for the host and for viewers (SPEC §3 Live chat record: fromNick,
 * text, isVip, isNewUser, userLevel, giftImg, giftNum; §9 the last 5 on entry; §4 a gagged
 * viewer cannot send and sees why). The lines are the chat machine's records; the composer
 * trims, ignores an empty line and refuses one over the chat's limit without cutting it.
 */
import { useSelector } from '@xstate/react';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { MAX_CHAT_TEXT } from '../../../machines/live-chat/live-chat.types';
import { chatLinesOf, chatPhaseOf, gagOf } from '../../../machines/live-chat/live-chat.selectors';
import type { LiveChatLine, LiveChatRef } from '../../../machines/live-chat/live-chat.selectors';
import { UserBadges } from '../../ui/UserBadges';

export const TEXT_CHAT_ENTERING = 'Entering the chat…';
export const TEXT_CHAT_FAILED = 'Could not enter the chat.';
export const TEXT_CHAT_TOO_LONG = `A message can have up to ${MAX_CHAT_TEXT} characters.`;

/** A record never changes once kept (it is known by its server id): the same keys are the same lines. */
const sameLines = (a: LiveChatLine[], b: LiveChatLine[]) => a.length === b.length && a.every((line, i) => line.key === b[i]!.key);

function Line({ line }: { line: LiveChatLine }) {
  return (
    <li className={line.own ? 'live-line live-line-own' : 'live-line'} data-testid="live-chat-line" data-kind={line.kind}>
      <span className="live-line-who">
        <span className="live-line-nick">{line.fromNick}</span>
        <UserBadges isVip={line.isVip} isNewUser={line.isNewUser} userLevel={line.userLevel} />
      </span>
      {line.kind === 'gift' ? (
        <span className="live-line-gift">
          {'sent '}
          {line.giftImg
            ? <img className="live-line-gift-img" src={line.giftImg} alt={line.giftName || 'a gift'} width={24} height={24} />
            : <span>{line.giftName || 'a gift'}</span>}
          <span data-testid="gift-num">{` ×${line.giftNum}`}</span>
        </span>
      ) : (
        <span className="live-line-text">{line.text}</span>
      )}
    </li>
  );
}

/** The room's lines, oldest first; the list keeps the newest in view. */
export function ChatLines({ chat }: { chat: LiveChatRef }) {
  const lines = useSelector(chat, chatLinesOf, sameLines);
  const list = useRef<HTMLOListElement>(null);
  useLayoutEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines.length]);
  return (
    <ol ref={list} className="live-lines" aria-label="Live chat" aria-live="polite">
      {lines.map((line) => <Line key={line.key} line={line} />)}
    </ol>
  );
}

export function ChatComposer({ chat }: { chat: LiveChatRef }) {
  const id = useId();
  const [text, setText] = useState('');
  const muted = useSelector(chat, (s) => gagOf(s).muted);
  const reason = useSelector(chat, (s) => gagOf(s).reason);
  const sending = useSelector(chat, (s) => s.matches({ ready: { sending: 'sending' } }));
  const notice = useSelector(chat, (s) => s.context.notice);
  const phase = useSelector(chat, chatPhaseOf);
  const trimmed = text.trim();
  const tooLong = trimmed.length > MAX_CHAT_TEXT;
  const canSend = phase === 'ready' && !muted && !sending && trimmed !== '' && !tooLong;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!canSend) return;
    chat.send({ type: 'chat.send', text: trimmed });
    setText('');
  };
  if (phase === 'failed') {
    return (
      <p className="live-chat-status" role="alert">
        {TEXT_CHAT_FAILED}{' '}
        <button type="button" className="text-button" onClick={() => chat.send({ type: 'chat.retry' })}>Retry</button>
      </p>
    );
  }
  const said = muted ? reason : notice;
  return (
    <form className="live-composer" onSubmit={submit} aria-label="Send a message" data-muted={muted ? 'true' : 'false'}>
      <div className="live-composer-field">
        <input
          className="field-input live-chat-input"
          aria-label="Chat message"
          placeholder={phase === 'entering' ? TEXT_CHAT_ENTERING : 'Say hi...'}
          disabled={muted}
          aria-invalid={tooLong}
          aria-describedby={tooLong ? `${id}-long` : said ? `${id}-said` : undefined}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {tooLong && <span id={`${id}-long`} role="alert" className="form-error live-chat-error">{`${TEXT_CHAT_TOO_LONG} (${trimmed.length}/${MAX_CHAT_TEXT})`}</span>}
        {!tooLong && said && <span id={`${id}-said`} role="status" className="live-chat-notice" data-testid="live-chat-notice">{said}</span>}
      </div>
      <button type="submit" className="live-button live-send" disabled={!canSend}>Send</button>
    </form>
  );
}
