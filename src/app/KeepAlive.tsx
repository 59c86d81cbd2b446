/**
 * Keeps the cached views of SPEC §2 mounted once visited: the active one is visible, the
 * others are hidden with React's <Activity>, which keeps their state (and ScreenFrame keeps
 * their scroll position). Mounted per session, so nothing of one account survives into the next.
 * A view whose code cannot be fetched shows RouteError in its place, and Try again fetches it again.
 * A view shows as soon as its code is here (useArrived), not on React's Suspense retry, which
 * waits up to 300 ms more; Suspense only covers a fetch again after a failure.
 */
import { CatchBoundary } from '@tanstack/react-router';
import { Activity, Suspense, useState } from 'react';
import { Splash } from '../ui/Splash';
import { lazyComponent, useArrived } from './lazyComponent';
import type { LazyComponent } from './lazyComponent';
import { RouteError } from './RouteError';
import { cachedScreens } from './screens';

const views = new Map(cachedScreens.map((s) => [s.path, lazyComponent(s.load)]));

export function KeepAlive({ pathname }: { pathname: string }) {
  const [visited, setVisited] = useState<readonly string[]>([]);
  if (views.has(pathname) && !visited.includes(pathname)) {
    // Derived from the path during render (React's pattern for state that follows a prop).
    setVisited([...visited, pathname]);
  }
  return visited.map((path) => {
    const View = views.get(path)!;
    const active = path === pathname;
    return (
      <Activity key={path} mode={active ? 'visible' : 'hidden'}>
        <div className="cached-view" data-cached-view={path}>
          {/* A view that fails (its code could not be fetched) says so in its own place: the tab bar
              and an ongoing call stay. */}
          <CatchBoundary getResetKey={() => path} errorComponent={RouteError}>
            <Suspense fallback={<Splash />}>
              <CachedView View={View} />
            </Suspense>
          </CatchBoundary>
        </div>
      </Activity>
    );
  });
}

function CachedView({ View }: { View: LazyComponent<object> }) {
  return useArrived(View) ? <View /> : <Splash />;
}
