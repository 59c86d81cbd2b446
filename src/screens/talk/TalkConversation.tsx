/**
 * One peer chat (SPEC §2 /talk and the chat of /customer-talk): the session opens a talk
 * for the peer while this is shown and closes it after. The history loads newest last and
 * older pages come when the top is reached; only the messages in view are in the DOM, so a
 * 10,000-message chat costs what a short one does. The chat opens with the day's limit of people
 * of the app settings (SPEC §4 non-paid user quota); a text the talk refuses stays in the field.
 */
import { useVirtualList } from '../../ui/useVirtualList';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { selectBanner, selectSession, selectTalk, selectTalks } from '../../../machines/session/session.selectors';
import { TEXT_TALK_NOT_LOADED } from '../../../machines/talks/talks.machine';
import { selectTalkNotLoaded } from '../../../machines/talks/talks.selectors';
import { MAX_TEXT, TEXT_TOO_LONG, keyOf, lengthOf, textToSend } from '../../../machines/talk/talk.machine';
import type { TalkMessage } from '../../../machines/talk/talk.machine';
import { useAppActor } from '../../app/AppActorContext';
import { useAppSettings } from '../../app/BaseConfigGate';
import { chatLimitOf } from '../../../machines/talk/chat-quota';
import { ChatLimitNotice } from './ChatLimitNotice';
import { ListMessage } from '../../ui/ListMessage';
import LockOutline from 'antd-mobile-icons/es/LockOutline';
import { MessageBody } from './MessageBody';
import { PeerBar, SecretComposer, SecretUnlockDialog, TalkMessageView } from './TalkExtras';
import type { TalkRef } from './TalkExtras';
import './talk.css';

export function TalkConversation({ peer, className = '' }: { peer: string; className?: string }) {
  const app = useAppActor();
  const session = useSelector(app, selectSession);
  const talks = useSelector(session, selectTalks);
  const talk = useSelector(talks, selectTalk);
  const isHost = useSelector(session, (s) => s?.context.isHost ?? false);
  // The customer-service account cannot be blocked, and no secret (paid) message is written to it.
  const customerService = useSelector(useSelector(session, selectBanner), (s) => s?.context.customerServiceId === peer);
  const [writingSecret, setWritingSecret] = useState(false);
  // The chat's code could not be fetched: say so (the talks try again on Retry or once the connection is back).
  const notLoaded = useSelector(talks, (s) => selectTalkNotLoaded(s, peer));
  const chatLimit = chatLimitOf(useAppSettings());

  useEffect(() => {
    if (!talks || !peer) return;
    talks.send({ type: 'talk.open', peer, chatLimit });
    return () => talks.send({ type: 'talk.close' });
  }, [talks, peer, chatLimit]);

  return (
    <div className={`talk ${className}`}>
      {talk && (
        <PeerBar
          talk={talk}
          blockable={!customerService}
          // A user calls a host from the chat (SPEC §2 /talk call button); no call starts offline (§5).
          onCall={isHost ? undefined : (p, callType) => session?.getSnapshot().children.calls?.send({
            type: 'call.start',
            peer: { account: p.account, userId: p.userId, ...(p.nickname ? { nickname: p.nickname } : {}) },
            callType,
            online: navigator.onLine,
          })}
        />
      )}
      {talk && <Messages talk={talk} />}
      {talk && <SecretUnlockDialog talk={talk} />}
      {!talk && !notLoaded && <ListMessage busy>Loading messages…</ListMessage>}
      {notLoaded && <ListMessage error={TEXT_TALK_NOT_LOADED} onRetry={() => talks?.send({ type: 'talk.retry' })} />}
      {talk && writingSecret && <SecretComposer talk={talk} onDone={() => setWritingSecret(false)} />}
      {talk && <ChatLimitNotice talk={talk} />}
      {/* Nothing is typed into the void: sending waits for the chat to be there. */}
      <Composer ready={Boolean(talk)} onSend={(text) => sent(talk, text)}>
        {isHost && talk && !customerService && (
          <button
            type="button"
            className="icon-button talk-secret-toggle"
            aria-label="Secret message"
            aria-expanded={writingSecret}
            onClick={() => setWritingSecret((v) => !v)}
          >
            <LockOutline aria-hidden />
          </button>
        )}
      </Composer>
    </div>
  );
}

/** Sends the text; whether the talk took it (it refuses one person too many today: the text stays in the field then). */
function sent(talk: TalkRef | undefined, text: string): boolean {
  if (!talk) return false;
  const idClient = crypto.randomUUID();
  talk.send({ type: 'talk.send', text, idClient, time: Date.now() });
  return talk.getSnapshot().context.messages.some((m) => m.idClient === idClient);
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

/**
 * A row's height as talk.css lays it out (4+4 row and 8+8 bubble padding, 19 px lines of some
 * 26 characters in the 360 px column, 46 px for Translate under the peer's texts). Close estimates
 * mean most rows measure what was assumed, so measuring moves nothing: no re-layout, no scroll fix.
 */
function estimateHeight(m: TalkMessage): number {
  const base = 24 + (m.flow === 'out' && m.status !== 'sent' ? 17 : 0);
  if (m.type === 'image') return base + 160;
  if (m.type === 'audio') return base + 54;
  if (m.type === 'custom') return base + (m.attach?.giftImg ? 40 : 19);
  const text = typeof m.text === 'string' ? m.text : '';
  return base + 19 * Math.max(1, Math.ceil(text.length / 26)) + (m.flow === 'in' && text ? 46 : 0);
}

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
  // A new getItemKey makes the virtualizer rebuild every row's position (10,000 calls) on each render.
  const getItemKey = useCallback((index: number) => keyOf(messages[index]!), [messages]);
  const virtualizer = useVirtualList({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => estimateHeight(messages[index]!),
    overscan: 8,
    getItemKey,
    initialRect: { width: 360, height: 500 },
    // A chat opens at the bottom: the first render is of the newest rows, not of the oldest then the newest.
    initialOffset: Number.MAX_SAFE_INTEGER,
  });
  const atBottom = useRef(true);
  const firstKey = messages[0] ? keyOf(messages[0]) : null;
  const lastKey = messages.at(-1) ? keyOf(messages.at(-1)!) : null;
  const previousFirst = useRef<{ key: string | null; count: number }>({ key: firstKey, count: messages.length });

  // New at the bottom: follow it if the reader was at the bottom. Older ones above: keep the reader's place.
  useLayoutEffect(() => {
    const before = previousFirst.current;
    if (firstKey !== before.key && before.key !== null) {
      const added = messages.findIndex((m) => keyOf(m) === before.key);
      if (added > 0) virtualizer.scrollToIndex(added, { align: 'start' });
    } else if (atBottom.current && messages.length > 0) {
      virtualizer.scrollToIndex(messages.length - 1, { align: 'end' });
    }
    previousFirst.current = { key: firstKey, count: messages.length };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the ends of the list change
  }, [firstKey, lastKey, messages.length]);

  // The virtualizer renders on scroll itself; this only notes where the reader is.
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
    if (el.scrollTop < 200 && !complete && !loadingOlder) onTop();
  };
  const sending = useMemo(() => messages.filter((m) => m.status === 'sending').length, [messages]);
  const failed = useMemo(() => messages.filter((m) => m.status === 'failed' || m.status === 'refused').length, [messages]);

  const items = virtualizer.getVirtualItems();
  return (
    <div className="talk-scroller" ref={scroller} onScroll={onScroll} data-testid="talk-scroller">
      {loadingOlder && <p className="muted talk-older" role="status">Loading earlier messages…</p>}
      <ol
        className="talk-list"
        aria-label="Messages"
        // Only the rows in view are in the DOM: the whole list's counts are stated here (tests and tools read them).
        data-count={messages.length}
        data-sending={sending}
        data-failed={failed}
        data-history={historyLoaded ? 'loaded' : 'loading'}
        style={{ height: virtualizer.getTotalSize(), paddingTop: items[0]?.start ?? 0 }}
      >
        {items.map((item) => {
          const m = messages[item.index]!;
          return (
            <li
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={`talk-row talk-${m.flow}`}
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

function Composer({ ready, onSend, children }: { ready: boolean; onSend: (text: string) => boolean; children?: ReactNode }) {
  const [text, setText] = useState('');
  const length = lengthOf(text.trim());
  const tooLong = length > MAX_TEXT;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!ready || textToSend(text) === null) return;
    if (onSend(text)) setText('');
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
      <button type="submit" className="button-link button-primary" disabled={!ready || textToSend(text) === null}>Send</button>
    </form>
  );
}
