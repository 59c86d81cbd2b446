/**
 * The home rendering bench page (built by tests/bench/home.vite.config.ts, driven by
 * tests/bench/home.bench.mjs): the real Home tab panel (TabPanel → the virtualised HostGrid),
 * with the real tab strip above it, over a real homeTab actor that holds 1,000 hosts, in the
 * app's own frame and CSS at 360 × 640.
 *
 * First render: the app column is up with another screen (as when a tab is switched); from just
 * before the home is rendered to the paint of the first frame with host cards in the DOM. The
 * results are on `window.bench`; `window.bench.scroll()` scrolls the list end to end in steps
 * and reports long tasks, frames, DOM size and rendered cards.
 */
import {
  RouterProvider, createMemoryHistory, createRootRoute, createRoute, createRouter,
} from '@tanstack/react-router';
import { useState, useSyncExternalStore } from 'react';
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ALL_TAB, LIVE_TAB, USERS_TAB } from '../../machines/home-list/home-list.machine';
import type { HomeItem } from '../../machines/home-list/home-list.port';
import { homeTabMachine } from '../../machines/home-list/home-tab.machine';
import type { HomeTabDef, LoadPageInput } from '../../machines/home-list/home-tab.machine';
import { Banners } from '../../src/screens/home/Banners';
import { HomeTabs } from '../../src/screens/home/HomeTabs';
import { TabPanel } from '../../src/screens/home/TabPanel';
import { ScreenFrame } from '../../src/ui/ScreenFrame';
import { HOSTS, benchHosts, makeCovers } from './home.data';
import '../../src/ui/app.css';
import '../../src/screens/home/home.css';

export interface ScrollOptions {
  steps: number;
}

export interface ScrollResult {
  steps: number;
  distance: number;
  durationMs: number;
  longTasks: number;
  longTaskMs: number;
  longestTaskMs: number;
  longestFrameMs: number;
  domNodes: number;
  rowsRendered: number;
  rowsTotal: number;
}

export interface BenchPage {
  firstRenderMs: number;
  domNodes: number;
  rowsRendered: number;
  rowsTotal: number;
  scroll: (options: ScrollOptions) => Promise<ScrollResult>;
}

declare global {
  interface Window {
    bench?: BenchPage;
    benchError?: string;
  }
}

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
const TABS: HomeTabDef[] = [
  ALL_TAB,
  { key: 'tag:11', kind: 'tag', label: 'New', tagId: 11 },
  { key: 'tag:12', kind: 'tag', label: 'Popular', tagId: 12 },
  { key: 'tag:13', kind: 'tag', label: 'Nearby', tagId: 13 },
  LIVE_TAB,
  USERS_TAB,
];
const idOf = (key: string) => ({ tab: `tab-${key}`, panel: `panel-${key}` });

/** The All tab with every host loaded (one page of 1,000; a next page would be empty). */
async function loadedTab() {
  const hosts = benchHosts(await makeCovers());
  const tab = createActor(homeTabMachine.provide({
    actors: { loadPage: fromPromise<HomeItem[], LoadPageInput>(async ({ input }) => (input.page === 1 ? hosts : [])) },
  }), { input: { tab: ALL_TAB, pageSize: HOSTS, countryIds: [] } }).start();
  await waitFor(tab, (s) => s.matches('listed'));
  return tab;
}

type TabRef = Awaited<ReturnType<typeof loadedTab>>;

/** HomeScreen's layout: the banners, the tools and tabs, the All tab's panel. */
function Home({ tab }: { tab: TabRef }) {
  const [memory] = useState(() => new Map<string, number>());
  return (
    <ScreenFrame title="Home" className="home">
      <div className="home-top">
        <HomeTabs
          head={<Banners banners={[]} pending />}
          tabs={TABS}
          active={ALL_TAB.key}
          idOf={idOf}
          onSelect={() => {}}
          countries={[]}
          countryIds={[]}
          onCountries={() => {}}
          onRefresh={() => {}}
        />
      </div>
      <TabPanel
        tab={ALL_TAB}
        list={tab}
        followedLive={null}
        statuses={{}}
        scrollMemory={memory}
        id={idOf(ALL_TAB.key).panel}
        labelledBy={idOf(ALL_TAB.key).tab}
      />
    </ScreenFrame>
  );
}

const list = () => document.querySelector<HTMLElement>('ul[aria-label="All hosts"]');
const rowsOf = () => ({
  rowsRendered: list()?.querySelectorAll(':scope > li').length ?? 0,
  rowsTotal: Number(list()?.dataset.count ?? 0),
});

/** Scrolls the home end to end in `steps` jumps, one per two frames, and reports what it cost. */
async function scroll({ steps }: ScrollOptions): Promise<ScrollResult> {
  const el = document.querySelector<HTMLElement>('.screen-body');
  if (!el) throw new Error('no scroller');
  const tasks: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((entries) => tasks.push(...entries.getEntries()));
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
    el.scrollTop = (el.scrollHeight - el.clientHeight) * (i / steps);
    await frame();
    await frame();
  }
  const distance = Math.abs(el.scrollTop - from);
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
    ...rowsOf(),
  };
}

/** Resolves with the time from now to the paint of the first frame in which `ready()` holds. */
function timeToFirstPaint(name: string, render: () => void, ready: () => boolean): Promise<number> {
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

const stage = {
  screen: (<ScreenFrame key="mine" title="Mine"><p className="muted">Mine</p></ScreenFrame>) as ReactNode,
  listeners: new Set<() => void>(),
  show(screen: ReactNode) {
    stage.screen = screen;
    stage.listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void) {
    stage.listeners.add(listener);
    return () => stage.listeners.delete(listener);
  },
};

function Stage() {
  const screen = useSyncExternalStore(stage.subscribe, () => stage.screen);
  return <div className="app-column"><main className="app-main">{screen}</main></div>;
}

async function main() {
  const tab = await loadedTab();
  const root = createRootRoute({ component: Stage });
  const leaf = createRoute({ getParentRoute: () => root, path: '/userProfile', component: () => null });
  const router = createRouter({ routeTree: root.addChildren([leaf]), history: createMemoryHistory({ initialEntries: ['/'] }) });
  await router.load();
  await timeToFirstPaint('shell', () => createRoot(document.getElementById('root')!).render(<RouterProvider router={router} />), () => (
    document.querySelector('.screen-title') != null
  ));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const firstRenderMs = await timeToFirstPaint('bench', () => stage.show(<Home key="home" tab={tab} />), () => rowsOf().rowsRendered > 0);
  window.bench = { firstRenderMs, domNodes: document.getElementsByTagName('*').length, ...rowsOf(), scroll };
}

main().catch((error: unknown) => {
  window.benchError = error instanceof Error ? `${error.message}\n${error.stack}` : String(error);
});
