/**
 * Screen tests of the whole app: the root actor composed with the ports a test gives, started
 * on a memory router at `path` and rendered with the test's services, as main.tsx does; and
 * the answers the signed-in screens ask the API for at once.
 */
import { RouterProvider, createMemoryHistory } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import { StrictMode } from 'react';
import { createActor } from 'xstate';
import { composeAppMachine } from '../../machines/app/app.actors';
import type { AppPorts } from '../../machines/app/app.actors';
import type { StoredAuth } from '../../machines/ports/session.port';
import { config, home, live, people } from '../api/contract';
import { AppActorContext } from './AppActorContext';
import { createAppRouter } from './router';
import { ServicesContext } from './services';
import type { Services } from './services';
import type { FakeHandler } from './services.fake';

export const emptyPage = (body: unknown) => ({ list: [], total: 0, currentPage: (body as { currentPage: number }).currentPage, pageSize: 10 });

/** What the signed-in screens ask the API at once: the app settings and an empty home. */
export const signedInHandlers: Readonly<Record<string, FakeHandler>> = {
  [home.getBaseConfigForIntoBagV4.path]: () => ({ businessConfig: { enabled: true, nonPaidUserCount: 3, microsoft_translator_config_json: null } }),
  // The pages without a session (login, register, landing) load it by app id.
  [home.getBaseConfigForIntoBagV2.path]: () => ({ businessConfig: { enabled: true, nonPaidUserCount: 3, microsoft_translator_config_json: null } }),
  [config.getConfigByKey.path]: () => ({}),
  [home.indexTag.path]: () => ({ parentTags: [], childrenTags: [] }),
  [home.getCountryList.path]: () => [],
  [home.getAppPicByType.path]: () => [],
  [home.anchorList.path]: emptyPage,
  [live.queryLiveList.path]: emptyPage,
  [live.queryMyFollowLive.path]: emptyPage,
  [people.anchorGetUserList.path]: (body) => ({ ...emptyPage(body), canCall: false }),
};

export interface AppMount {
  ports: AppPorts;
  openParams: StoredAuth | null;
  path: string;
  services: Services;
  /** Rendered in StrictMode, as the app runs. */
  strict?: boolean;
}

export function renderApp({ ports, openParams, path, services, strict = false }: AppMount) {
  const app = createActor(composeAppMachine(ports), { input: { openParams, path } });
  const router = createAppRouter(app, createMemoryHistory({ initialEntries: [path] }));
  app.on('navigate', ({ to }) => queueMicrotask(() => void router.navigate({ to, replace: true })));
  app.start();
  const tree = (
    <AppActorContext.Provider value={app}>
      <ServicesContext.Provider value={services}>
        <RouterProvider router={router} />
      </ServicesContext.Provider>
    </AppActorContext.Provider>
  );
  render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { app, router };
}
