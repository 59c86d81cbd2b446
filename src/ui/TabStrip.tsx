/**
 * A row of tabs that scrolls sideways when it is wider than the screen, and says so: the side
 * that holds more tabs fades out under a chevron button that scrolls the row that way. The
 * chevrons are for fingers and mice (a keyboard moves between the tabs with the arrow keys, so
 * they are not in the tab order), and the selected tab is brought into view when it changes.
 */
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent, ReactNode } from 'react';
import { LeftIcon, RightIcon } from './icons';
import { onceAFrame } from './onceAFrame';

interface TabStripProps {
  /** The tab list's accessible name. */
  label: string;
  /** The strip's own class, for its place in the screen (the tabs' own look is the screen's). */
  className: string;
  /** The selected tab's key: when it changes, that tab is scrolled into view. */
  selected: string;
  onKeyDown?: (e: KeyboardEvent<HTMLDivElement>) => void;
  /** The tabs (role="tab" buttons, aria-selected on the selected one). */
  children: ReactNode;
}

/** What the chevrons leave of the row's edges: a tab brought into view is not under one. */
const CHEVRON = 44;

const reducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

export function TabStrip({ label, className, selected, onKeyDown, children }: TabStripProps) {
  const track = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  // Whether tabs lie beyond either edge: on scroll, and when the row or a tab changes size (tabs
  // that come from the server, a font that loads, a turned phone).
  useEffect(() => {
    const el = track.current;
    if (!el) return;
    const update = onceAFrame(() => {
      const before = el.scrollLeft > 1;
      const after = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore((m) => (m.before === before && m.after === after ? m : { before, after }));
    });
    const sizes = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    const observeAll = () => {
      sizes?.disconnect();
      sizes?.observe(el);
      for (const tab of el.children) sizes?.observe(tab);
      update();
    };
    const tabs = typeof MutationObserver === 'function' ? new MutationObserver(observeAll) : null;
    tabs?.observe(el, { childList: true });
    observeAll();
    el.addEventListener('scroll', update, { passive: true });
    return () => {
      update.cancel();
      sizes?.disconnect();
      tabs?.disconnect();
      el.removeEventListener('scroll', update);
    };
  }, []);

  // The selected tab in view, clear of the chevrons.
  useEffect(() => {
    const el = track.current;
    const tab = el?.querySelector<HTMLElement>('[aria-selected="true"]');
    if (!el || !tab) return;
    const start = tab.getBoundingClientRect().left - el.getBoundingClientRect().left + el.scrollLeft;
    const end = start + tab.offsetWidth;
    if (start < el.scrollLeft + CHEVRON) el.scrollLeft = Math.max(0, start - CHEVRON);
    else if (end > el.scrollLeft + el.clientWidth - CHEVRON) el.scrollLeft = end - el.clientWidth + CHEVRON;
  }, [selected]);

  // The arrow keys move between the tabs; the browser's own use of them (scrolling the row by a
  // step) would carry the newly selected tab away again.
  const keyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    onKeyDown?.(e);
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') e.preventDefault();
  };
  const scroll = (direction: 1 | -1) => {
    const el = track.current;
    el?.scrollBy({ left: direction * Math.max(el.clientWidth - 2 * CHEVRON, CHEVRON), behavior: reducedMotion() ? 'auto' : 'smooth' });
  };
  return (
    <div className={`tab-strip ${className}`} data-more-before={more.before} data-more-after={more.after}>
      <div ref={track} role="tablist" aria-label={label} className="tab-strip-track" onKeyDown={keyDown}>
        {children}
      </div>
      {more.before && (
        <button type="button" className="tab-strip-more tab-strip-before" tabIndex={-1} aria-label="Earlier tabs" onClick={() => scroll(-1)}>
          <LeftIcon />
        </button>
      )}
      {more.after && (
        <button type="button" className="tab-strip-more tab-strip-after" tabIndex={-1} aria-label="More tabs" onClick={() => scroll(1)}>
          <RightIcon />
        </button>
      )}
    </div>
  );
}
