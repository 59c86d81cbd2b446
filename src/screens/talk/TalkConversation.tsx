/**
 * One peer chat (SPEC §2 /talk and the chat of /customer-talk): the session opens a talk
 * for the peer while this is shown and closes it after. The history loads newest last and
 * older pages come when the top is reached; only the messages in view are in the DOM, so a
 * 10,000-message chat costs what a short one does.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useSelector } from '@xstate/react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { selectSession } from '../../../machines/session/session.selectors';
import { MAX_TEXT, TEXT_TOO_LONG, lengthOf, textToSend } from '../../../machines/talk/talk.machine';
import type { TalkMessage } from '../../../machines/talk/talk.machine';
import { useAppActor } from '../../app/AppActorContext';
import { ListMessage } from '../../ui/ListMessage';
import { MessageBody } from './MessageBody';
import { PeerBar, SecretComposer, TalkMessageView } from './TalkExtras';
import type { TalkRef } from './TalkExtras';
import './talk.css';

export function TalkConversation({ peer, className = '' }: { peer: string; className?: string }) {
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const talk = useSelector(session, (s) => s?.children.talk as TalkRef | undefined);
  const isHost = useSelector(session, (s) => s?.context.isHost ?? false);
  const [writingSecret, setWritingSecret] = useState(false);

  useEffect(() => {
    if (!session || !peer) return;
    session.send({ type: 'talk.open', peer });
    return () => session.send({ type: 'talk.close' });
  }, [session, peer]);

  return (
    <div className={`talk ${className}`}>
      {talk && (
        <PeerBar
          talk={talk}
          // A user calls a host from the chat (SPEC §2 /talk call button); no call starts offline (§5).
          onCall={isHost ? undefined : (p) => session?.send({
            type: 'call.start',
            peer: { account: p.account, userId: p.userId, ...(p.nickname ? { nickname: p.nickname } : {}) },
            callType: 0,
            online: navigator.onLine,
          })}
        />
      )}
      {talk ? <Messages talk={talk} /> : <ListMessage busy>Loading messages…</ListMessage>}
      {talk && writingSecret && <SecretComposer talk={talk} onDone={() => setWritingSecret(false)} />}
      <Composer onSend={(text) => talk?.send({ type: 'talk.send', text, idClient: crypto.randomUUID(), time: Date.now() })}>
        {isHost && talk && (
          <button
            type="button"
            className="icon-button talk-secret-toggle"
            aria-label="Secret message"
            aria-expanded={writingSecret}
            onClick={() => setWritingSecret((v) => !v)}
          >
            <span aria-hidden="true">🔒</span>
          </button>
        )}
      </Composer>
    </div>
  );
}

export function Messages({ talk }: { talk: TalkRef }) {
  const messages = useSelector(talk, (s) => s.context.messages);
  const failed = useSelector(talk, (s) => s.matches('failed'));
  const error = useSelector(talk, (s) => s.context.error);
  const complete = useSelector(talk, (s) => s.matches({ ready: 'complete' }));
  const loadingOlder = useSelector(talk, (s) => s.matches({ ready: 'loadingOlder' }));
  const ready = useSelector(talk, (s) => s.matches('ready'));
  if (failed) return <ListMessage error={error} onRetry={() => talk.send({ type: 'talk.retry' })} />;
  return (
    <MessageList
      messages={messages}
      complete={complete}
      loadingOlder={loadingOlder}
      onTop={() => talk.send({ type: 'talk.loadOlder' })}
      renderMessage={(m) => <TalkMessageView talk={talk} message={m} />}
      historyLoaded={ready}
    />
  );
}

const NEAR_BOTTOM_PX = 80;

/** The virtualised list; also rendered on its own by the bench. */
export function MessageList({
  messages, complete, loadingOlder, onTop, renderMessage = (m) => <MessageBody message={m} />, historyLoaded = true,
}: {
  messages: readonly TalkMessage[];
  complete: boolean;
  loadingOlder: boolean;
  onTop: () => void;
  /** What a message shows; by default its body alone. */
  renderMessage?: (message: TalkMessage) => ReactNode;
  /** Whether the newest page of the history is in (stated on the list for tests and tools). */
  historyLoaded?: boolean;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 56,
    overscan: 8,
    getItemKey: (index) => messages[index]!.idClient || messages[index]!.idServer,
    initialRect: { width: 360, height: 500 },
  });
  const atBottom = useRef(true);
  const firstKey = messages[0] ? messages[0].idClient || messages[0].idServer : null;
  const lastKey = messages.at(-1) ? messages.at(-1)!.idClient || messages.at(-1)!.idServer : null;
  const previousFirst = useRef<{ key: string | null; count: number }>({ key: firstKey, count: messages.length });

  // New at the bottom: follow it if the reader was at the bottom. Older ones above: keep the reader's place.
  useLayoutEffect(() => {
    const before = previousFirst.current;
    if (firstKey !== before.key && before.key !== null) {
      const added = messages.findIndex((m) => (m.idClient || m.idServer) === before.key);
      if (added > 0) virtualizer.scrollToIndex(added, { align: 'start' });
    } else if (atBottom.current && messages.length > 0) {
      virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
    }
    previousFirst.current = { key: firstKey, count: messages.length };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the ends of the list change
  }, [firstKey, lastKey, messages.length]);

  const [, rerender] = useState(0);
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    if (el.scrollTop < 200 && !complete && !loadingOlder) onTop();
    rerender((n) => n + 1);
  };

  return (
    <div className="talk-scroller" ref={scroller} onScroll={onScroll} data-testid="talk-scroller">
      {loadingOlder && <p className="muted talk-older" role="status">Loading earlier messages…</p>}
      <ol
        className="talk-list"
        aria-label="Messages"
        // Only the rows in view are in the DOM: the whole list's counts are stated here (tests and tools read them).
        data-count={messages.length}
        data-sending={messages.filter((m) => m.status === 'sending').length}
        data-failed={messages.filter((m) => m.status === 'failed' || m.status === 'refused').length}
        data-history={historyLoaded ? 'loaded' : 'loading'}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {virtualizer.getVirtualItems().map((item) => {
          const m = messages[item.index]!;
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={`talk-row talk-${m.flow}`}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              <div className="talk-bubble" data-status={m.flow === 'out' ? m.status : undefined}>
                {renderMessage(m)}
                {m.flow === 'out' && m.status !== 'sent' && (
                  <span className="muted talk-status">{m.status === 'sending' ? 'Sending…' : m.reason}</span>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

function Composer({ onSend, children }: { onSend: (text: string) => void; children?: ReactNode }) {
  const [text, setText] = useState('');
  const length = lengthOf(text.trim());
  const tooLong = length > MAX_TEXT;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (textToSend(text) === null) return;
    onSend(text);
    setText('');
  };
  return (
    <form className="talk-composer" onSubmit={submit}>
      {children}
      <div className="talk-field">
        <input
          className="field-input"
          aria-label="Message"
          aria-invalid={tooLong}
          aria-describedby={tooLong ? 'talk-too-long' : undefined}
          placeholder="Type a message"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        {tooLong && <span id="talk-too-long" role="alert" className="form-error">{`${TEXT_TOO_LONG} (${length}/${MAX_TEXT})`}</span>}
      </div>
      <button type="submit" className="button-link button-primary" disabled={textToSend(text) === null}>Send</button>
    </form>
  );
}
