/**
 * The hosts of a home tab as a two-column grid of cards (SPEC §2 / content). Only the rows in
 * view (and a few around them) are in the DOM, so a thousand hosts cost what twenty do; rows
 * have one fixed height, so the list's full height is known before anything is measured and a
 * kept scroll position can be restored at once. Names and countries are shown as text.
 */
import { useRouter } from '@tanstack/react-router';
import { useVirtualList } from '../../ui/useVirtualList';
import { memo, useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { MouseEvent } from 'react';
import type { HostCard as Host, OnlineStatus } from '../../../machines/home-list/home-list.port';
import { statusOf } from '../../../machines/home-list/home-list.selectors';
import { STATUS_LABEL } from '../../ui/person';
import { scrollParentOf } from '../../ui/scrollParent';

/** Card height plus the gap under it (home.css keeps them in step). */
export const ROW_HEIGHT = 226;
const COLUMNS = 2;

interface HostGridProps {
  hosts: readonly Host[];
  statuses: Readonly<Record<string, OnlineStatus>>;
  label: string;
}

export function HostGrid({ hosts, statuses, label }: HostGridProps) {
  const listRef = useRef<HTMLUListElement>(null);
  // The element that scrolls the home, found once the grid is in the page (the virtualizer asks in its layout effect).
  const scroller = useRef<HTMLElement | null>(null);
  const scrollElement = useCallback(() => (scroller.current ??= scrollParentOf(listRef.current)), []);
  const [margin, setMargin] = useState(0);
  // Where the grid starts inside the scroller (banners and tabs are above it). Measured after the first
  // paint: cards are placed by their row alone, so only which rows are drawn waits for it.
  useLayoutEffect(() => {
    const list = listRef.current;
    const el = scrollElement();
    if (!list || !el) return;
    const measure = () => setMargin(list.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop);
    // The banners and tools above may change height (banners arrive, or there are none).
    const observer = new ResizeObserver(measure);
    observer.observe(list);
    const head = el.querySelector('.home-head');
    if (head) observer.observe(head);
    return () => observer.disconnect();
  }, [scrollElement]);
  const router = useRouter();
  // A plain click on a card opens its profile in the app; a modified click does what the browser does.
  const open = (e: MouseEvent<HTMLUListElement>) => {
    const link = (e.target as Element).closest<HTMLAnchorElement>('a[href]');
    if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void router.navigate({ href: link.getAttribute('href')! });
  };
  const rows = Math.ceil(hosts.length / COLUMNS);
  const virtualizer = useVirtualList({
    count: rows,
    getScrollElement: scrollElement,
    estimateSize: () => ROW_HEIGHT,
    overscan: 1,
    scrollMargin: margin,
    // Before the scroller is known, render the first screenful.
    initialRect: { width: 360, height: 640 },  });

  return (
    <ul
      ref={listRef}
      className="host-grid"
      aria-label={label}
      data-count={hosts.length}
      style={{ height: virtualizer.getTotalSize() }}
      onClick={open}
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
  // Few elements and attributes: a thousand of these scroll past, each mounted as it comes into view.
  return (
    <a
      href={`/userProfile?userId=${host.userId}`}
      className="host-card"
      aria-label={`${host.nickname}, ${statusText}${facts ? `, ${facts}` : ''}, ${host.videoPrice} diamonds a minute`}
    >
      <img className="host-cover" src={host.cover} alt="" fetchPriority={eager ? 'high' : undefined} decoding="async" />
      <span className="host-status" data-status={status}>{statusText}</span>
      <span className="host-name">{host.nickname}</span>
      <span className="host-facts">{facts}</span>
      <span className="host-price">{host.videoPrice}/min</span>
    </a>
  );
});
