/**
 * The lazy route tree of SPEC §2. Guards only read the root actor's snapshot: signed out
 * on a protected path goes to /login, signed in on a public path goes home, each mode
 * is kept on its own tab roots (a non-host on /news lands on /newsRestricted), a non-host is
 * kept off the host-only screens (app.paths.ts HOST_ONLY_PATHS: to /newsRestricted), and a visitor
 * (SPEC §6) is kept to the visitor's paths (a deep link to /talk or /wallet goes home).
 */
import {
  createRootRouteWithContext, createRoute, createRouter, redirect,
} from '@tanstack/react-router';
import type { RouterHistory } from '@tanstack/react-router';
import { RouteError } from './RouteError';
import { lazyComponent } from './lazyComponent';
import { homeFor, isVisitorPath, pathForMode } from '../../machines/app/app.paths';
import { selectIsVisitor, selectMode, selectPhase } from '../../machines/app/app.selectors';
import { NotFound } from '../ui/NotFound';
import type { AppActor } from './AppActorContext';
import { RootLayout } from './RootLayout';
import { screens } from './screens';
import type { ScreenDef } from './screens';

interface RouterContext {
  app: AppActor;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

function guard(def: ScreenDef) {
  return ({ context, location }: { context: RouterContext; location: { pathname: string } }) => {
    const snapshot = context.app.getSnapshot();
    const phase = selectPhase(snapshot);
    if (phase === 'signedOut' && !def.public) throw redirect({ to: '/login', replace: true });
    const mode = selectMode(snapshot);
    if (!mode) return;
    if (selectIsVisitor(snapshot) && !def.public && !isVisitorPath(location.pathname)) {
      throw redirect({ to: homeFor(mode), replace: true });
    }
    const target = def.public ? homeFor(mode) : pathForMode(mode, location.pathname);
    if (target !== location.pathname) throw redirect({ to: target, replace: true });
  };
}

/** Cached views render in RootLayout's KeepAlive; their route only marks the match. */
const CachedSlot = () => null;

const talkSearch = (search: Record<string, unknown>) => ({
  to: typeof search.to === 'string' ? search.to : undefined,
  taPath: typeof search.taPath === 'string' ? search.taPath : undefined,
});

const routes = screens.map((def) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path: def.path,
    beforeLoad: guard(def),
    component: def.cachedView ? CachedSlot : lazyComponent(def.load),
    ...(def.path === '/talk' ? { validateSearch: talkSearch } : {}),
  }),
);

export function createAppRouter(app: AppActor, history?: RouterHistory) {
  return createRouter({
    routeTree: rootRoute.addChildren(routes),
    ...(history ? { history } : {}),
    context: { app },
    defaultPreload: 'intent',
    defaultErrorComponent: RouteError,
    defaultPendingMinMs: 0,
    scrollRestoration: false,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;
