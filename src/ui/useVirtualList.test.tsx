// @vitest-environment jsdom
/**
 * The shared virtual list hook: its first frame holds the rows in view and one more each side;
 * the rows asked for beyond the view (`overscan`) come once that frame has been painted. A scroll
 * renders the list only when the rows shown change, not when it merely starts or ends.
 */
import { act, cleanup, render } from '@testing-library/react';
import { useRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useVirtualList } from './useVirtualList';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** 100 rows of 10 px in a 100 px view: 10 rows in view from the top. */
function List({ overscan }: { overscan?: number }) {
  const virtualizer = useVirtualList<HTMLDivElement, HTMLLIElement>({
    count: 100,
    getScrollElement: () => null,
    estimateSize: () => 10,
    initialRect: { width: 360, height: 100 },
    ...(overscan === undefined ? {} : { overscan }),
  });
  return (
    <ol>
      {virtualizer.getVirtualItems().map((item) => <li key={item.key} data-index={item.index}>{item.index}</li>)}
    </ol>
  );
}

const rows = () => [...document.querySelectorAll('li')].map((li) => Number(li.dataset.index));

/**
 * 100 rows of 10 px in a scroller. jsdom lays nothing out: every element is 360 × 95 px here, the
 * scroller among them, so rows 0–9 are in view at the top. Returns a scroll and the render count.
 */
function renderScrolled(overscan: number) {
  vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(360);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(95);
  const counts = { renders: 0 };
  function Scrolled() {
    const scroller = useRef<HTMLDivElement>(null);
    const virtualizer = useVirtualList<HTMLDivElement, HTMLLIElement>({
      count: 100, getScrollElement: () => scroller.current, estimateSize: () => 10, overscan,
    });
    counts.renders++;
    return (
      <div ref={scroller} data-testid="scroller">
        <ol>{virtualizer.getVirtualItems().map((item) => <li key={item.key} data-index={item.index}>{item.index}</li>)}</ol>
      </div>
    );
  }
  const { getByTestId } = render(<Scrolled />);
  act(() => { vi.advanceTimersToNextFrame(); vi.advanceTimersByTime(1); });
  const scroller = getByTestId('scroller');
  const scrollTo = (top: number) => act(() => {
    scroller.scrollTop = top;
    scroller.dispatchEvent(new Event('scroll'));
  });
  return { scrollTo, counts };
}

describe('useVirtualList', () => {
  it('renders the rows in view and one beyond first, and the overscan after the first paint', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    render(<List overscan={6} />);
    expect(rows()).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    // The frame is painted: the overscan comes in the task after it.
    act(() => { vi.advanceTimersToNextFrame(); });
    expect(rows()).toHaveLength(11);
    act(() => { vi.advanceTimersByTime(1); });
    expect(rows()).toEqual(Array.from({ length: 16 }, (_, i) => i));
  });

  it('never asks for more rows in the first frame than the list wants', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    render(<List overscan={0} />);
    expect(rows()).toHaveLength(10);
    act(() => { vi.advanceTimersToNextFrame(); vi.advanceTimersByTime(1); });
    expect(rows()).toHaveLength(10);
  });

  it('stops waiting for the paint when the list goes before it', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const { unmount } = render(<List overscan={6} />);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('renders again on a scroll only when the rows shown change', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    // Rows 0–9 (10 px each) stay the ones in view while it scrolls up to 5 px.
    const { scrollTo, counts } = renderScrolled(0);
    expect(rows()).toEqual(Array.from({ length: 10 }, (_, i) => i));
    const before = counts.renders;
    // Within the same rows: the scroll starts, moves and ends without a render.
    scrollTo(2);
    scrollTo(5);
    act(() => { vi.advanceTimersByTime(500); });
    expect(counts.renders).toBe(before);
    // Three rows on: the rows shown change, and the list renders them.
    scrollTo(30);
    expect(counts.renders).toBeGreaterThan(before);
    expect(rows()[0]).toBe(3);
  });

  it('keeps one row each side while a scroll leaps more than a view, and the overscan once it ends', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] });
    const { scrollTo } = renderScrolled(6);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
    // Rows 0–9 in view, six more below.
    expect(rows()).toEqual(range(0, 15));
    // A leap of five views: rows 50–59 in view, one more each side.
    scrollTo(500);
    expect(rows()).toEqual(range(49, 60));
    // A small move of the same scroll: still one each side.
    scrollTo(520);
    expect(rows()).toEqual(range(51, 62));
    // The scroll ends: six each side.
    act(() => { vi.advanceTimersByTime(500); });
    expect(rows()).toEqual(range(46, 67));
    // A small scroll from rest keeps six each side.
    scrollTo(540);
    expect(rows()).toEqual(range(48, 69));
  });
});
