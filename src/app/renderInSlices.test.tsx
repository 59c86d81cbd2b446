// @vitest-environment jsdom
/** renderInSlices: the first render lets waiting tasks run between its parts. */
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderInSlices } from './renderInSlices';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

/** Counts the tasks that ran (a timer that sets itself again) while the render goes on. */
let tasks = 0;
let ticking = false;
function tick() {
  tasks += 1;
  if (ticking) setTimeout(tick, 0);
}

/** Takes about 1 ms to render, and notes how many tasks had run by then. */
function Slow({ seen }: { seen: Set<number> }) {
  const until = performance.now() + 1;
  while (performance.now() < until) { /* a part of the screen that takes a while */ }
  seen.add(tasks);
  return <span />;
}

describe('renderInSlices', () => {
  const before = globalThis.IS_REACT_ACT_ENVIRONMENT;
  // Rendered as the browser would, with React's own scheduler (not act's).
  beforeEach(() => { globalThis.IS_REACT_ACT_ENVIRONMENT = false; });
  afterEach(() => { globalThis.IS_REACT_ACT_ENVIRONMENT = before; ticking = false; });

  it('renders 100 ms of components in slices, with other tasks running between them', async () => {
    const container = document.createElement('div');
    const root = createRoot(container);
    const seen = new Set<number>();
    ticking = true;
    tick();
    renderInSlices(root, <>{Array.from({ length: 100 }, (_, i) => <Slow key={i} seen={seen} />)}</>);
    await expect.poll(() => container.childElementCount, { timeout: 5000 }).toBe(100);
    // In one task every component would have seen the same count.
    expect(seen.size).toBeGreaterThan(5);
    root.unmount();
  });
});
