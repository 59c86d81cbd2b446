/**
 * A screen's (or a part's) component, its code fetched on first render or on a preload. A fetch
 * that fails (the network or the server away) is thrown to the nearest error boundary, whose
 * RouteError says so and offers Try again: that lets the component fetch its code again
 * (`retryFailedLoads`) and renders it anew. React's `lazy` keeps a failure for good and the
 * router's `lazyRouteComponent` reloads the page once: either way the person would lose what the
 * page holds, a call or a live among it. Every lazily loaded component of the app is made here.
 */
import { createElement, use } from 'react';
import type { ComponentProps, ComponentType, FunctionComponent } from 'react';

export type LazyComponent<P extends object> = FunctionComponent<P> & { preload: () => Promise<void> };

/** How each component whose fetch failed forgets the failure. */
const failed = new Set<() => void>();

/**
 * Lets every component whose code could not be fetched fetch it again at its next render. The
 * failure is kept until then (not dropped once thrown): React renders a failing component again
 * before it shows the error, and that render must not start another fetch.
 */
export function retryFailedLoads(): void {
  for (const forget of failed) forget();
  failed.clear();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component, its props read from it
export function lazyComponent<C extends ComponentType<any>>(load: () => Promise<{ default: C }>): LazyComponent<ComponentProps<C>> {
  type P = ComponentProps<C>;
  let component: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const forget = () => {
    failure = undefined;
    loading = undefined;
  };
  const fetchComponent = (): Promise<void> => {
    loading ??= load().then(
      (module) => { component = module.default as ComponentType<P>; },
      (error: unknown) => {
        failure = { error };
        failed.add(forget);
      },
    );
    return loading;
  };
  function Lazy(props: P) {
    if (failure) throw failure.error;
    if (!component) use(fetchComponent());
    return createElement(component!, props);
  }
  return Object.assign(Lazy, { preload: fetchComponent });
}
