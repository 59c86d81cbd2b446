/**
 * The in-call chat (SPEC §2 in-call screen; §5 trimmed, empty ignored, max 200): the newest
 * lines over the video, the input ('Say hi...') with its send button, and the history with
 * the earlier lines. The chat is the `callChat` talk of the session's calls, so it travels as IM
 * p2p text like the talk screen's; translated lines (system message -1) come from the call.
 */
import { useSelector } from '@xstate/react';
import { useId, useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { CHAT_LINES_GRACE_MS, CHAT_LINES_SHOWN, chatLinesOf, selectInCall } from '../../../machines/call/call.selectors';
import type { CallRef, ChatLine } from '../../../machines/call/call.selectors';
import type { TalkRef } from '../../../machines/session/session.selectors';
import { MAX_TEXT, TEXT_TOO_LONG, lengthOf, textToSend } from '../../../machines/talk/talk.machine';
import { Popup } from '../../ui/antd';
import { CloseIcon } from '../../ui/icons';

const NO_MESSAGES: never[] = [];
const NO_LINES: never[] = [];

/** All lines of the call's chat, or only those since the call began (`since`). */
export function useChatLines(call: CallRef, chat: TalkRef | undefined, since: number): ChatLine[] {
  const messages = useSelector(chat, (s) => s?.context.messages) ?? NO_MESSAGES;
  const room = useSelector(call, selectInCall);
  const translations = useSelector(room, (s) => s?.context.translations) ?? NO_LINES;
  return useMemo(() => chatLinesOf(messages, translations, since), [messages, translations, since]);
}

function Line({ line, peerName }: { line: ChatLine; peerName: string }) {
  const who = line.kind === 'out' ? 'You' : line.kind === 'translated' ? 'Translated' : peerName;
  return (
    <li className={`call-chat-line call-chat-${line.kind}`} data-status={line.pending ? 'sending' : line.failure ? 'failed' : 'sent'}>
      <span className="call-chat-who">{who}</span>
      <span className="call-chat-text">{line.text}</span>
      {line.failure && <span className="call-chat-failure">{line.failure}</span>}
    </li>
  );
}

/** The newest lines of this call, over the video. */
export function ChatLines({ call, chat, connectedAt, peerName }: { call: CallRef; chat: TalkRef | undefined; connectedAt: number; peerName: string }) {
  const lines = useChatLines(call, chat, connectedAt - CHAT_LINES_GRACE_MS);
  if (lines.length === 0) return null;
  return (
    <ol className="call-chat-lines" aria-label="Chat" aria-live="polite">
      {lines.slice(-CHAT_LINES_SHOWN).map((line) => <Line key={line.key} line={line} peerName={peerName} />)}
    </ol>
  );
}

export function ChatComposer({ chat }: { chat: TalkRef | undefined }) {
  const id = useId();
  const [text, setText] = useState('');
  const length = lengthOf(text.trim());
  const tooLong = length > MAX_TEXT;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Trimmed; empty ignored; too long refused (nothing is cut off).
    if (!chat || textToSend(text) === null) return;
    chat.send({ type: 'talk.send', text, idClient: crypto.randomUUID(), time: Date.now() });
    setText('');
  };
  return (
    <form className="call-composer" onSubmit={submit}>
      <div className="call-composer-field">
        <input
          className="field-input call-chat-input"
          aria-label="Chat message"
          placeholder="Say hi..."
          aria-invalid={tooLong}
          aria-describedby={tooLong ? `${id}-long` : undefined}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {tooLong && <span id={`${id}-long`} role="alert" className="form-error call-chat-error">{`${TEXT_TOO_LONG} (${length}/${MAX_TEXT})`}</span>}
      </div>
      <button type="submit" className="call-button call-send" disabled={!chat || textToSend(text) === null}>Send</button>
    </form>
  );
}

/** The whole chat with the peer, earlier lines included (SPEC §2 history button). */
export function ChatHistory({
  call, chat, peerName, open, onClose,
}: { call: CallRef; chat: TalkRef | undefined; peerName: string; open: boolean; onClose: () => void }) {
  const titleId = useId();
  const lines = useChatLines(call, chat, 0);
  const complete = useSelector(chat, (s) => s?.matches({ ready: 'complete' }) ?? true);
  const loadingOlder = useSelector(chat, (s) => s?.matches({ ready: 'loadingOlder' }) ?? false);
  return (
    <Popup visible={open} onMaskClick={onClose} onClose={onClose} getContainer={null} destroyOnClose bodyClassName="call-popup">
      <section role="dialog" aria-modal="true" aria-labelledby={titleId} className="call-sheet">
        <header className="call-sheet-head">
          <h2 id={titleId} className="call-sheet-title">Chat history</h2>
          <button type="button" className="icon-button" aria-label="Close" autoFocus onClick={onClose}><CloseIcon /></button>
        </header>
        {!complete && (
          <button type="button" className="text-button" disabled={loadingOlder} onClick={() => chat?.send({ type: 'talk.loadOlder' })}>
            {loadingOlder ? 'Loading…' : 'Earlier messages'}
          </button>
        )}
        {lines.length === 0
          ? <p className="muted">No messages yet.</p>
          : <ol className="call-history" aria-label="Messages">{lines.map((line) => <Line key={line.key} line={line} peerName={peerName} />)}</ol>}
      </section>
    </Popup>
  );
}
