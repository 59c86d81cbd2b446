/**
 * What every rendering bench page shares (tests/bench/chat.tsx, home.tsx): the app column
 * with a placeholder screen first and the screen under test after it (as a tab switch
 * does), the time from rendering to the paint of the first frame with its rows, and a
 * measured scroll (long tasks, longest frame, DOM size).
 */
import {
  RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter,
} from '@tanstack/react-router';
import { useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { ScreenFrame } from '../../src/ui/ScreenFrame';
import '../../src/ui/app.css';

export interface ScrollResult {
  steps: number;
  /** Pixels scrolled. */
  distance: number;
  durationMs: number;
  longTasks: number;
  longTaskMs: number;
  longestTaskMs: number;
  /** The longest gap between two frames while scrolling. */
  longestFrameMs: number;
  domNodes: number;
  rowsRendered: number;
  rowsTotal: number;
}

export const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));

/** Rows in the DOM and in all of a virtualised list that states its `data-count`. */
export function rowsOf(list: HTMLElement | null) {
  return { rowsRendered: list?.querySelectorAll(':scope > li').length ?? 0, rowsTotal: Number(list?.dataset.count ?? 0) };
}

/**
 * Scrolls `el` to the positions `target(i)` for i = 1…steps, one per two frames, and reports
 * the long tasks that started meanwhile, the longest frame and the DOM after it.
 */
export async function measureScroll(
  el: HTMLElement, steps: number, target: (i: number) => number, rows: () => ReturnType<typeof rowsOf>,
): Promise<ScrollResult> {
  const tasks: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
  observer.observe({ type: 'longtask', buffered: true });
  const started = performance.now();
  let longestFrameMs = 0;
  let last = await frame();
  const counting = { on: true };
  void (async () => {
    while (counting.on) {
      const now = await frame();
      longestFrameMs = Math.max(longestFrameMs, now - last);
      last = now;
    }
  })();
  const from = el.scrollTop;
  for (let i = 1; i <= steps; i++) {
    el.scrollTop = target(i);
    await frame();
    await frame();
  }
  const distance = Math.abs(el.scrollTop - from);
  // Let the last frame's work finish, then read the long tasks that started while scrolling.
  await new Promise((resolve) => setTimeout(resolve, 300));
  counting.on = false;
  const durationMs = performance.now() - started;
  tasks.push(...observer.takeRecords());
  observer.disconnect();
  const during = tasks.filter((t) => t.startTime >= started);
  return {
    steps,
    distance,
    durationMs,
    longTasks: during.length,
    longTaskMs: during.reduce((n, t) => n + t.duration, 0),
    longestTaskMs: during.reduce((n, t) => Math.max(n, t.duration), 0),
    longestFrameMs,
    domNodes: document.getElementsByTagName('*').length,
    ...rows(),
  };
}

/** Resolves with the time from now to the paint of the first frame in which `ready()` holds. */
export function timeToFirstPaint(name: string, render: () => void, ready: () => boolean): Promise<number> {
  // Marks for a DevTools trace of the bench: what lies between them is the first render.
  const t0 = performance.mark(`${name}:render`).startTime;
  render();
  return new Promise((resolve) => {
    const check = () => {
      if (!ready()) {
        requestAnimationFrame(check);
        return;
      }
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.mark(`${name}:painted`).startTime - t0);
      channel.port2.postMessage(null);
    };
    requestAnimationFrame(check);
  });
}

/**
 * Renders the app column (router, frame, fonts, styles) with a placeholder screen, so the
 * bench times the screen under test and not the page; `show` then swaps it in and answers
 * its first-render time. `linkPath` is a route the screen's links may point at; `text` is what
 * the placeholder shows, such as the line of the screen one comes from (its fonts are then
 * loaded, as they are in the app).
 */
export async function mountStage(placeholder: string, linkPath: string, text = placeholder) {
  const stage = {
    screen: (<ScreenFrame key={placeholder} title={placeholder}><p className="muted">{text}</p></ScreenFrame>) as ReactNode,
    listeners: new Set<() => void>(),
    subscribe(listener: () => void) {
      stage.listeners.add(listener);
      return () => stage.listeners.delete(listener);
    },
  };
  function Stage() {
    const screen = useSyncExternalStore(stage.subscribe, () => stage.screen);
    return <div className="app-column"><main className="app-main">{screen}</main></div>;
  }
  const root = createRootRoute({ component: Stage });
  const leaf = createRoute({ getParentRoute: () => root, path: linkPath, component: () => null });
  const router = createRouter({ routeTree: root.addChildren([leaf]), history: createMemoryHistory({ initialEntries: ['/'] }) });
  await router.load();
  await timeToFirstPaint('shell', () => createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />), () => (
    document.querySelector('.screen-title') != null
  ));
  await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    show: (screen: ReactNode, ready: () => boolean) => timeToFirstPaint('bench', () => {
      stage.screen = screen;
      stage.listeners.forEach((listener) => listener());
    }, ready),
  };
}
