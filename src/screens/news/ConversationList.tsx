/**
 * The message list of /news and /newsRestricted (SPEC §2 message/list, §3 Chat session):
 * the session's conversation list, pinned first, with the peer's online status, the §9
 * preview of the last message and the unread count. Only the rows in view are in the DOM,
 * so 200 sessions cost what 10 do. Peer names and previews are shown as text.
 */
import { Link } from '@tanstack/react-router';
import { useVirtualList } from '../../ui/useVirtualList';
import { useSelector } from '@xstate/react';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { chatRowsOf, phaseOf } from '../../../machines/conversations/conversations.selectors';
import type { ChatRow, ConversationsRef } from '../../../machines/conversations/conversations.selectors';
import { CustomerServiceAvatar } from '../../ui/CustomerServiceAvatar';
import { ListMessage } from '../../ui/ListMessage';
import { StarIcon } from '../../ui/icons';
import './news.css';

const ROW_HEIGHT = 72;
const ONLINE_LABEL: Readonly<Record<number, string>> = { 1: 'Online', 2: 'Busy', 3: 'Offline' };

// Made once, when the module loads (as MailItem's): `toLocale…String` with options builds a formatter
// on every call, and the page's first formatter loads the locale data (some 60 ms at 4× CPU throttling,
// see npm run bench), which then landed in the list's first render.
const timeFormat = new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' });
const dateFormat = new Intl.DateTimeFormat([], { month: '2-digit', day: '2-digit' });

/** Today: the time; otherwise the date. */
export function formatChatTime(time: number, now = Date.now()): string {
  if (!time) return '';
  const date = new Date(time);
  const today = new Date(now);
  const sameDay = date.toDateString() === today.toDateString();
  return sameDay
    ? timeFormat.format(date)
    : dateFormat.format(date);
}

export function ConversationList({ conversations, talkPath, customerService = null }: {
  conversations: ConversationsRef;
  /** Where a row leads: the talk screen for the peer (the customer-service one has its own). */
  talkPath: (row: ChatRow) => { to: string; search?: Record<string, string> };
  /** The customer-service IM account, once known: its chat is named and pictured as such. */
  customerService?: string | null;
}) {
  const phase = useSelector(conversations, phaseOf);
  const error = useSelector(conversations, (s) => s.context.error);
  const sessions = useSelector(conversations, (s) => s.context.sessions);
  const pinned = useSelector(conversations, (s) => s.context.pinned);
  const profiles = useSelector(conversations, (s) => s.context.profiles);
  const rows = useMemo(
    () => chatRowsOf({ sessions, pinned, profiles }, customerService), [sessions, pinned, profiles, customerService],
  );

  // Opening the list refreshes the peers' online status (debounced by the machine).
  useEffect(() => conversations.send({ type: 'conversations.viewed' }), [conversations]);

  if (phase === 'failed') {
    return <ListMessage error={error} onRetry={() => conversations.send({ type: 'conversations.retry' })} />;
  }
  if (phase === 'loading' && rows.length === 0) return <ListMessage busy>Loading chats…</ListMessage>;
  if (rows.length === 0) return <ListMessage>No chats yet.</ListMessage>;
  return <Rows rows={rows} conversations={conversations} talkPath={talkPath} />;
}

function Rows({ rows, conversations, talkPath }: {
  rows: ChatRow[];
  conversations: ConversationsRef;
  talkPath: (row: ChatRow) => { to: string; search?: Record<string, string> };
}) {
  const listRef = useRef<HTMLOListElement>(null);
  const [scrollElement, setScrollElement] = useState<HTMLElement | null>(null);
  const [margin, setMargin] = useState(0);
  // After the first paint: that frame needs neither (it shows the top rows, the list at rest), and
  // measuring before it forced a layout, and a second render, into the list's first frame.
  useEffect(() => {
    const list = listRef.current;
    const scroller = list?.closest<HTMLElement>('.screen-body') ?? null;
    setScrollElement(scroller);
    if (list && scroller) setMargin(list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop);
  }, []);
  const virtualizer = useVirtualList({
    count: rows.length,
    getScrollElement: () => scrollElement,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    scrollMargin: margin,
    getItemKey: (index) => rows[index]!.id,
    // Before the scroll element is known, render the first screenful.
    initialRect: { width: 360, height: 640 },  });
  const items = virtualizer.getVirtualItems();

  return (
    <ol
      ref={listRef}
      className="chat-list"
      aria-label="Chats"
      data-count={rows.length}
      style={{ height: virtualizer.getTotalSize(), position: 'relative' }}
    >
      {items.map((item) => {
        const row = rows[item.index]!;
        return (
          <li
            key={item.key}
            className="chat-row"
            data-pinned={row.pinned}
            style={{ transform: `translateY(${item.start - margin}px)`, height: ROW_HEIGHT }}
          >
            <ChatRowView row={row} conversations={conversations} talkPath={talkPath} />
          </li>
        );
      })}
    </ol>
  );
}

/**
 * Memoised: the list re-renders on every scroll step and once more as it mounts (the scroller is
 * found); a row whose data did not change is not rendered again (its Link builds a location).
 */
const ChatRowView = memo(function ChatRowView({ row, conversations, talkPath }: {
  row: ChatRow;
  conversations: ConversationsRef;
  talkPath: (row: ChatRow) => { to: string; search?: Record<string, string> };
}) {
  const link = talkPath(row);
  const status = ONLINE_LABEL[row.onlineStatus] ?? ONLINE_LABEL[3]!;
  const unreadLabel = row.unread > 0 ? `, ${row.unread} unread` : '';
  // Customer service is no person who is online or not.
  const statusLabel = row.customerService ? '' : `, ${status}`;
  return (
    <>
      <Link
        to={link.to}
        search={link.search}
        className="chat-row-link"
        aria-label={`${row.nickname}${statusLabel}${unreadLabel}: ${row.preview}`}
      >
        <span className="chat-avatar">
          {row.customerService ? <CustomerServiceAvatar size={48} />
            : row.icon
            ? <img className="avatar" src={row.icon} alt="" width={48} height={48} loading="lazy" decoding="async" />
            : <span className="avatar chat-avatar-blank" aria-hidden="true" />}
          {!row.customerService && <span className="chat-online" data-status={row.onlineStatus} aria-hidden="true" />}
        </span>
        <span className="chat-main">
          <span className="chat-head">
            <span className="chat-nick">{row.nickname}</span>
            <span className="chat-time muted">{formatChatTime(row.time)}</span>
          </span>
          <span className="chat-preview muted">{row.preview}</span>
        </span>
        {row.unread > 0 && <span className="chat-unread" aria-hidden="true">{row.unread > 99 ? '99+' : row.unread}</span>}
      </Link>
      <button
        type="button"
        className="icon-button chat-pin"
        aria-pressed={row.pinned}
        aria-label={`${row.pinned ? 'Unpin' : 'Pin'} chat with ${row.nickname}`}
        onClick={() => conversations.send({ type: row.pinned ? 'conversations.unpin' : 'conversations.pin', id: row.id })}
      >
        <StarIcon filled={row.pinned} />
      </button>
    </>
  );
});
