/**
 * A screen's (or a part's) component, its code fetched on first render or on a preload. A fetch
 * that fails (the network or the server away) is thrown to the nearest error boundary, whose
 * RouteError says so and offers Try again: that lets the component fetch its code again
 * (`retryFailedLoads`) and renders it anew. React's `lazy` keeps a failure for good and the
 * router's `lazyRouteComponent` reloads the page once: either way the person would lose what the
 * page holds, a call or a live among it. Every lazily loaded component of the app is made here.
 */
import { createElement, startTransition, use, useEffect, useState } from 'react';
import type { ComponentProps, ComponentType, FunctionComponent } from 'react';

export type LazyComponent<P extends object> = FunctionComponent<P> & {
  preload: () => Promise<void>;
  /** Whether the fetch of the code has ended, fetched or failed. */
  settled: () => boolean;
};

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
  return Object.assign(Lazy, { preload: fetchComponent, settled: () => component !== undefined || failure !== undefined });
}

/**
 * Whether `lazy`'s code has been fetched (or failed to be): until then it is fetched, and the
 * caller renders again as it arrives, as an ordinary update, so the caller shows its own
 * placeholder meanwhile. A component that suspends instead is shown by React as a Suspense
 * retry, which React holds back until 300 ms after the boundary's fallback appeared (to show
 * nearby boundaries together): a first screen waited some 150 ms for that with its code here.
 * That render is a transition, in slices (as the first render, src/app/renderInSlices.ts): the
 * view is a whole screen, some 30 ms of rendering (120 at 4× slowdown) that would be one task,
 * and what is shown stays until the view can show (no fallback if a part of it still loads).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any component
export function useArrived(lazy: LazyComponent<any>): boolean {
  const settled = lazy.settled();
  const [, setArrivals] = useState(0);
  useEffect(() => {
    if (settled) return undefined;
    let current = true;
    void lazy.preload().then(() => { if (current) startTransition(() => setArrivals((n) => n + 1)); });
    return () => { current = false; };
  }, [lazy, settled]);
  return settled;
}
