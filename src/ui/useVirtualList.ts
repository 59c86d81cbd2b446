/**
 * `useVirtualizer` of @tanstack/react-virtual, less one thing: while scrolling, that hook
 * re-renders with `flushSync` on every scroll event, a synchronous React render each time, which
 * made the long tasks of a fling up a 10,000-message chat. Here rows follow the scroll in React's
 * own time (react-virtual 3.14 has this as `useFlushSync: false`, at 6 KiB more gzip on the first
 * screens), and only when the rows shown or their places changed (not when a scroll merely starts
 * or ends). The rest is the same hook over @tanstack/virtual-core, plus one thing: the first
 * frame holds only the rows in view (overscan 1), so a list shows as soon as it can; the rows kept
 * ready beyond the view for scrolling (`overscan`) come in a task after that frame is painted.
 * And a scroll that leaps more than a view at once (a fast fling, a scrollbar drag) shows all-new
 * rows each time: the rows kept ready around them would never be seen, so until that scroll ends
 * the list keeps one row each side (half the rows to render and measure in each of its frames).
 */
import { Virtualizer, elementScroll, observeElementOffset, observeElementRect } from '@tanstack/virtual-core';
import type { PartialKeys, VirtualizerOptions } from '@tanstack/virtual-core';
import { useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import type { VirtualItem } from '@tanstack/virtual-core';

type Options<S extends Element, I extends Element> =
  PartialKeys<VirtualizerOptions<S, I>, 'observeElementRect' | 'observeElementOffset' | 'scrollToFn'>;

export function useVirtualList<S extends Element, I extends Element>(options: Options<S, I>): Virtualizer<S, I> {
  const rerender = useReducer(() => ({}), {})[1];
  const [painted, setPainted] = useState(false);
  const shown = useRef<readonly VirtualItem[] | null>(null);
  const leaping = useRef(false);
  const lastOffset = useRef<number | null>(null);
  useEffect(() => afterPaint(() => setPainted(true)), []);
  const resolved: VirtualizerOptions<S, I> = {
    observeElementRect,
    observeElementOffset,
    scrollToFn: elementScroll,
    ...options,
    overscan: painted && !leaping.current ? options.overscan : Math.min(options.overscan ?? 1, FEW_OVERSCAN),
    onChange: (instance, sync) => {
      const wasLeaping = leaping.current;
      leaping.current = isLeaping(instance, lastOffset.current, wasLeaping);
      lastOffset.current = instance.scrollOffset;
      // The rows and their places are all a list renders from the virtualizer: when neither changed
      // (a scroll starting or ending within the same rows, `isScrolling` alone), nothing is rendered.
      if (instance.getVirtualItems() !== shown.current || leaping.current !== wasLeaping) rerender();
      options.onChange?.(instance, sync);
    },
  };
  const [instance] = useState(() => new Virtualizer<S, I>(resolved));
  instance.setOptions(resolved);
  // What this render shows (the list reads the same memoised array).
  shown.current = instance.getVirtualItems();
  useLayoutEffect(() => instance._didMount(), []); // eslint-disable-line react-hooks/exhaustive-deps -- once, as the library does
  useLayoutEffect(() => instance._willUpdate());
  return instance;
}

/** The rows kept beyond the view in the first frame and while a scroll leaps. */
const FEW_OVERSCAN = 1;

/**
 * Whether a scroll leaps: it moved more than a view since the last change seen, and stays leaping
 * until it ends (the small moves that follow, the list's own corrections among them, keep it so).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any list
export function isLeaping(instance: Virtualizer<any, any>, lastOffset: number | null, wasLeaping: boolean): boolean {
  if (!instance.isScrolling) return false;
  if (wasLeaping) return true;
  const offset = instance.scrollOffset;
  const view = instance.scrollRect?.[instance.options.horizontal ? 'width' : 'height'] ?? 0;
  return offset !== null && lastOffset !== null && view > 0 && Math.abs(offset - lastOffset) > view;
}

/**
 * Calls `callback` in a task after the next frame is painted (a frame callback runs before its
 * paint; a timeout set from it runs after), unless cancelled by the function it returns.
 */
function afterPaint(callback: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => { timer = setTimeout(callback); });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
