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
import { useState } from 'react';
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
import { measureScroll, mountStage, rowsOf as rowsOfList } from './page';
import type { ScrollResult } from './page';
import '../../src/screens/home/home.css';

export interface ScrollOptions {
  steps: number;
}

export type { ScrollResult };

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
const rowsOf = () => rowsOfList(list());

/** Scrolls the home end to end in `steps` jumps, one per two frames, and reports what it cost. */
async function scroll({ steps }: ScrollOptions): Promise<ScrollResult> {
  const el = document.querySelector<HTMLElement>('.screen-body');
  if (!el) throw new Error('no scroller');
  return measureScroll(el, steps, (i) => (el.scrollHeight - el.clientHeight) * (i / steps), rowsOf);
}

async function main() {
  const tab = await loadedTab();
  const stage = await mountStage('Mine', '/userProfile');
  const firstRenderMs = await stage.show(<Home key="home" tab={tab} />, () => rowsOf().rowsRendered > 0);
  window.bench = { firstRenderMs, domNodes: document.getElementsByTagName('*').length, ...rowsOf(), scroll };
}

main().catch((error: unknown) => {
  window.benchError = error instanceof Error ? `${error.message}\n${error.stack}` : String(error);
});
