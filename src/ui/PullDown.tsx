/**
 * Pull down to refresh (SPEC §4 Home list paging: "pull resets to page 1") without the
 * component library, so a first screen can have it without antd-mobile's animation library.
 * A touch drag that starts with the scroller at the top pulls a status strip down; letting go
 * past the threshold calls `onRefresh`. Whether a refresh is running comes from the caller
 * (a machine's state), and the strip says so politely. The strip's easing is a CSS transition,
 * which the stylesheet turns off under `prefers-reduced-motion`.
 */
import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { scrollParentOf } from './scrollParent';
import './pull-down.css';

/** How far (px, after damping) the strip must be pulled to refresh on release. */
export const PULL_THRESHOLD = 56;
const MAX_PULL = 96;
const HOLD_HEIGHT = 40;

export const PULL_TEXTS = {
  pulling: 'Pull down to refresh',
  release: 'Release to refresh',
  refreshing: 'Refreshing…',
} as const;

interface PullDownProps {
  refreshing: boolean;
  onRefresh: () => void;
  children: ReactNode;
}

export function PullDown({ refreshing, onRefresh, children }: PullDownProps) {
  const area = useRef<HTMLDivElement>(null);
  const [pull, setPull] = useState(0);
  const latest = useRef({ onRefresh, refreshing });
  useEffect(() => { latest.current = { onRefresh, refreshing }; });

  useEffect(() => {
    const el = area.current;
    // The element that scrolls: the pull starts only when it is at the top.
    const scroller = scrollParentOf(el);
    if (!el || !scroller) return;
    let startY: number | null = null;
    let distance = 0;
    const start = (e: TouchEvent) => {
      startY = scroller.scrollTop <= 0 && !latest.current.refreshing && e.touches.length === 1 ? e.touches[0]!.clientY : null;
      distance = 0;
    };
    const move = (e: TouchEvent) => {
      if (startY === null) return;
      const dy = e.touches[0]!.clientY - startY;
      if (dy <= 0 || scroller.scrollTop > 0) {
        if (distance !== 0) setPull(0);
        distance = 0;
        return;
      }
      // Pulling: the page does not scroll meanwhile; the strip follows at half the finger's pace.
      if (e.cancelable) e.preventDefault();
      distance = Math.min(MAX_PULL, dy / 2);
      setPull(distance);
    };
    const end = () => {
      if (startY !== null && distance >= PULL_THRESHOLD) latest.current.onRefresh();
      startY = null;
      distance = 0;
      setPull(0);
    };
    el.addEventListener('touchstart', start, { passive: true });
    el.addEventListener('touchmove', move, { passive: false });
    el.addEventListener('touchend', end);
    el.addEventListener('touchcancel', end);
    return () => {
      el.removeEventListener('touchstart', start);
      el.removeEventListener('touchmove', move);
      el.removeEventListener('touchend', end);
      el.removeEventListener('touchcancel', end);
    };
  }, []);

  const height = refreshing ? Math.max(pull, HOLD_HEIGHT) : pull;
  const text = refreshing ? PULL_TEXTS.refreshing : pull >= PULL_THRESHOLD ? PULL_TEXTS.release : PULL_TEXTS.pulling;
  return (
    <div ref={area} className="pull-down" data-pulling={pull > 0} data-refreshing={refreshing}>
      <div className="pull-down-strip" style={{ height }} aria-hidden={height === 0}>
        <span role="status" className="pull-down-text">{height > 0 ? text : ''}</span>
      </div>
      {children}
    </div>
  );
}
