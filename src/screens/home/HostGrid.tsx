/**
 * The hosts of a home tab as a two-column grid of cards (SPEC §2 / content). Only the rows in
 * view (and a few around them) are in the DOM, so a thousand hosts cost what twenty do; rows
 * have one fixed height, so the list's full height is known before anything is measured and a
 * kept scroll position can be restored at once. Names and countries are shown as text.
 */
import { Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useLayoutEffect, useRef, useState } from 'react';
import type { HostCard as Host, OnlineStatus } from '../../../machines/home-list/home-list.port';
import { statusOf } from '../../../machines/home-list/home-list.selectors';
import { STATUS_LABEL } from '../../ui/person';

/** Card height plus the gap under it (home.css keeps them in step). */
export const ROW_HEIGHT = 226;
const COLUMNS = 2;

interface HostGridProps {
  hosts: readonly Host[];
  statuses: Readonly<Record<string, OnlineStatus>>;
  /** The element that scrolls the home. */
  scroller: HTMLElement | null;
  label: string;
}

export function HostGrid({ hosts, statuses, scroller, label }: HostGridProps) {
  const listRef = useRef<HTMLUListElement>(null);
  const [margin, setMargin] = useState(0);
  // Where the grid starts inside the scroller (banners and tabs are above it); they have fixed heights.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list || !scroller) return;
    const measure = () => setMargin(list.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop);
    measure();
    // The banners and tools above may change height (banners arrive, or there are none).
    const observer = new ResizeObserver(measure);
    const head = scroller.querySelector('.home-head');
    if (head) observer.observe(head);
    return () => observer.disconnect();
  }, [scroller]);
  const rows = Math.ceil(hosts.length / COLUMNS);
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller,
    estimateSize: () => ROW_HEIGHT,
    overscan: 3,
    scrollMargin: margin,
    // Before the scroller is known, render the first screenful.
    initialRect: { width: 360, height: 640 },
  });

  return (
    <ul
      ref={listRef}
      className="host-grid"
      aria-label={label}
      data-count={hosts.length}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().flatMap((row) => {
        const cards = [];
        for (let column = 0; column < COLUMNS; column++) {
          const index = row.index * COLUMNS + column;
          const host = hosts[index];
          if (!host) break;
          cards.push(
            <li
              key={host.userId}
              className="host-cell"
              data-column={column}
              style={{ transform: `translateY(${row.start - margin}px)` }}
              aria-posinset={index + 1}
              aria-setsize={hosts.length}
            >
              <HostCardView host={host} status={statusOf(host, statuses)} eager={index < 4} />
            </li>,
          );
        }
        return cards;
      })}
    </ul>
  );
}

/** Memoised: the grid re-renders on every scroll step; a card whose data did not change is not rendered again. */
export const HostCardView = memo(function HostCardView({ host, status, eager }: { host: Host; status: OnlineStatus; eager: boolean }) {
  const statusText = STATUS_LABEL[status];
  const facts = [host.age !== null ? `${host.age}` : null, host.countryName].filter(Boolean).join(' · ');
  return (
    <Link
      to="/userProfile"
      search={{ userId: String(host.userId) }}
      className="host-card"
      aria-label={`${host.nickname}, ${statusText}${facts ? `, ${facts}` : ''}, ${host.videoPrice} diamonds a minute`}
    >
      <img
        className="host-cover"
        src={host.cover}
        alt=""
        width={160}
        height={152}
        loading={eager ? 'eager' : 'lazy'}
        fetchPriority={eager ? 'high' : 'auto'}
        decoding="async"
      />
      <span className="host-status" data-status={status}>
        <span className="status-dot" aria-hidden="true" />
        {statusText}
      </span>
      <span className="host-info">
        <span className="host-name">{host.nickname}</span>
        <span className="host-facts muted">{facts}</span>
        <span className="host-price">{host.videoPrice}<span className="muted">/min</span></span>
      </span>
    </Link>
  );
});
