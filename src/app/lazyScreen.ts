/**
 * A screen's component, its code fetched on first render (or on the router's preload). A fetch
 * that fails (the network or the server away) is thrown to the nearest error boundary, whose
 * RouteError says so and offers Try again: that lets the screen fetch its code again
 * (`retryFailedScreens`) and renders it anew. React's `lazy` keeps a failure for good and the
 * router's `lazyRouteComponent` reloads the page once: either way the person would lose what the
 * page holds, a call or a live among it.
 */
import { createElement, use } from 'react';
import type { ComponentType, FunctionComponent } from 'react';
import type { ScreenModule } from './screens';

export type LazyScreen = FunctionComponent & { preload: () => Promise<void> };

/** How each screen whose fetch failed forgets the failure. */
const failed = new Set<() => void>();

/**
 * Lets every screen whose code could not be fetched fetch it again at its next render. The
 * failure is kept until then (not dropped once thrown): React renders a failing component again
 * before it shows the error, and that render must not start another fetch.
 */
export function retryFailedScreens(): void {
  for (const forget of failed) forget();
  failed.clear();
}

export function lazyScreen(load: () => ScreenModule): LazyScreen {
  let screen: ComponentType | undefined;
  let loading: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const forget = () => {
    failure = undefined;
    loading = undefined;
  };
  const fetchScreen = (): Promise<void> => {
    loading ??= load().then(
      (module) => { screen = module.default; },
      (error: unknown) => {
        failure = { error };
        failed.add(forget);
      },
    );
    return loading;
  };
  function Lazy() {
    if (failure) throw failure.error;
    if (!screen) use(fetchScreen());
    return createElement(screen!);
  }
  return Object.assign(Lazy, { preload: fetchScreen });
}
