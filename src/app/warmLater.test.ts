// @vitest-environment jsdom
/** Code that is warmed ahead of need waits until the first screen has settled, then the first idle moment. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WARM_AFTER_MS, warmLater } from './warmLater';

/** The idle callbacks as the test sets them (jsdom has none). */
const w = window as unknown as { requestIdleCallback?: (fn: () => void) => number; cancelIdleCallback?: (id: number) => void };

afterEach(() => {
  vi.useRealTimers();
  delete w.requestIdleCallback;
  delete w.cancelIdleCallback;
});

describe('warmLater', () => {
  it('loads nothing in the first seconds, then at the first idle moment', () => {
    vi.useFakeTimers();
    const idle: (() => void)[] = [];
    w.requestIdleCallback = (fn) => idle.push(fn);
    const load = vi.fn();
    warmLater(load);
    vi.advanceTimersByTime(WARM_AFTER_MS - 1);
    expect(idle).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(load).not.toHaveBeenCalled();
    idle[0]!();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('without idle callbacks it loads when the wait is over', () => {
    vi.useFakeTimers();
    const load = vi.fn();
    warmLater(load);
    vi.advanceTimersByTime(WARM_AFTER_MS);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('cancelled, it loads nothing, also once waiting for an idle moment', () => {
    vi.useFakeTimers();
    const load = vi.fn();
    warmLater(load)();
    vi.advanceTimersByTime(WARM_AFTER_MS);
    expect(load).not.toHaveBeenCalled();
    const cancelled: number[] = [];
    w.requestIdleCallback = () => 7;
    w.cancelIdleCallback = (id) => cancelled.push(id);
    const cancel = warmLater(load);
    vi.advanceTimersByTime(WARM_AFTER_MS);
    cancel();
    expect(cancelled).toEqual([7]);
  });
});
