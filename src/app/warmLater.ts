/**
 * Code that is not on the first screen but should be at hand before it is needed (the call
 * screens, the per-use machines, the component library's toasts) is fetched once the first
 * screen has settled: evaluating it is main-thread work that would otherwise land in the first
 * seconds, while the person starts using the screen. (The call code alone cost the home
 * screen some 170 ms of blocking time and ten Lighthouse points; the component library,
 * fetched at the first idle moment, another 38 KiB and 100 ms in the same seconds.)
 */
export const WARM_AFTER_MS = 10_000;

type IdleWindow = { requestIdleCallback?: (fn: () => void) => number; cancelIdleCallback?: (id: number) => void };

/**
 * Runs `load` at the next idle moment; the returned function cancels it. Without idle callbacks
 * it runs in a task of its own, or at once when `inOwnTask` (the caller is a task of its own).
 */
export function whenIdle(load: () => void, inOwnTask = false): () => void {
  const w = window as IdleWindow;
  if (w.requestIdleCallback) {
    const id = w.requestIdleCallback(load);
    return () => w.cancelIdleCallback?.(id);
  }
  if (inOwnTask) {
    load();
    return () => undefined;
  }
  const timer = window.setTimeout(load, 0);
  return () => window.clearTimeout(timer);
}

/** Runs `load` at the first idle moment after WARM_AFTER_MS; the returned function cancels it. */
export function warmLater(load: () => void): () => void {
  let cancelIdle: (() => void) | null = null;
  const timer = window.setTimeout(() => { cancelIdle = whenIdle(load, true); }, WARM_AFTER_MS);
  return () => {
    window.clearTimeout(timer);
    cancelIdle?.();
  };
}
