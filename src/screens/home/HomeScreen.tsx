/**
 * Home (SPEC §2 / with content, floatButtons, liveList, match and online; the Home paragraph):
 * banners, the country filter, the tabs (All with its 'more offline anchors', the server's
 * tags, Live, and a host's Users) and the float buttons, bound to one homeList actor. Home is
 * a cached view: the actor, every tab's pages and each tab's scroll position stay while
 * another tab or screen is shown. The workspace shortcuts that used to be here are on Mine.
 */
import { useSelector } from '@xstate/react';
import { useScreenActor } from '../../ui/useScreenActor';
import { Activity, Suspense, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { lazyComponent } from '../../app/lazyComponent';
import { composeHomeList } from '../../../machines/home-list/home-list.actors';
import {
  selectActiveKey, selectBanners, selectCountries, selectCountryIds, selectFollowedLive, selectMatchPhase, selectSetupError, selectSetupPhase,
  selectStatuses, selectTabs,
} from '../../../machines/home-list/home-list.selectors';
import { selectMode } from '../../../machines/app/app.selectors';
import { useAppActor } from '../../app/AppActorContext';
import { useServices } from '../../compose/services';
import { ListMessage } from '../../ui/ListMessage';
import { ScreenFrame } from '../../ui/ScreenFrame';
import { Banners } from './Banners';
import { FloatButtons } from './FloatButtons';
import { HomeTabs } from './HomeTabs';
import { TabPanel } from './TabPanel';
import { homePortOf } from '../../compose/home';
import './home.css';

/** Loaded with the first Match (kept off the first screen). */
const MatchDialog = lazyComponent(() => import('./MatchDialog').then((m) => ({ default: m.MatchDialog })));

export default function HomeScreen() {
  const { api, early } = useServices();
  const isHost = useSelector(useAppActor(), (s) => selectMode(s) === 'host');
  const logic = useMemo(() => composeHomeList(homePortOf({ api, early })), [api, early]);
  const home = useScreenActor(logic, { input: { isHost } });
  const tabs = useSelector(home, selectTabs);
  const active = useSelector(home, selectActiveKey);
  const lists = useSelector(home, (s) => s.context.lists);
  const followedLive = useSelector(home, selectFollowedLive);
  const statuses = useSelector(home, selectStatuses);
  const setupPhase = useSelector(home, selectSetupPhase);
  const setupError = useSelector(home, selectSetupError);
  const banners = useSelector(home, selectBanners);
  const countries = useSelector(home, selectCountries);
  const countryIds = useSelector(home, selectCountryIds);
  const matchOpen = useSelector(home, (s) => selectMatchPhase(s) !== 'closed');
  const [scrollMemory] = useState(() => new Map<string, number>());
  const baseId = useId();
  const idOf = useCallback((key: string) => ({ tab: `${baseId}-tab-${key}`, panel: `${baseId}-panel-${key}` }), [baseId]);

  // Shown (again): the listed people's online status is looked up now rather than at the next round.
  useEffect(() => home.send({ type: 'home.refreshStatuses' }), [home]);

  return (
    <ScreenFrame title="Home" className="home" actions={<FloatButtons onMatch={() => home.send({ type: 'match.start' })} />}>
      <div className="home-top" data-setup={setupPhase}>
        <HomeTabs
          head={(
            <>
              <Banners banners={banners} pending={setupPhase === 'loading'} />
              {setupPhase === 'failed' && <SetupFailed error={setupError} onRetry={() => home.send({ type: 'home.retry' })} />}
            </>
          )}
          tabs={tabs}
          active={active}
          idOf={idOf}
          onSelect={(key) => home.send({ type: 'tab.select', key })}
          countries={countries}
          countryIds={countryIds}
          onCountries={(countryIds) => home.send({ type: 'home.setCountries', countryIds })}
          onRefresh={() => lists[active]?.send({ type: 'tab.refresh' })}
        />
      </div>
      {tabs.map((tab) => {
        const list = lists[tab.key];
        if (!list) return null;
        return (
          <Activity key={tab.key} mode={tab.key === active ? 'visible' : 'hidden'}>
            <TabPanel
              tab={tab}
              list={list}
              followedLive={followedLive}
              statuses={statuses}
              scrollMemory={scrollMemory}
              id={idOf(tab.key).panel}
              labelledBy={idOf(tab.key).tab}
            />
          </Activity>
        );
      })}
      {matchOpen && <Suspense fallback={null}><MatchDialog home={home} /></Suspense>}
    </ScreenFrame>
  );
}

function SetupFailed({ error, onRetry }: { error: string | null; onRetry: () => void }) {
  return <ListMessage error={error ? `The tags could not be loaded: ${error}` : null} onRetry={onRetry} />;
}
