/**
 * A port whose code loads on first use: the stand-in has the port's methods at once (so it can be
 * handed to the machines at start-up), and each call waits for `load()`, then is the loaded
 * port's. Calls made while it loads go out in the order they were made, once it has loaded.
 * `load` decides what a failed load means: with `loadOnce` (the per-use ports' loader in
 * realtime.ts) the calls that waited reject with the load's error, and the next call tries again.
 */

/** The keys of `P` whose members are methods that answer with a promise. */
export type AsyncMethodKey<P> = {
  [K in keyof P]-?: P[K] extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof P];

type Method = (...args: unknown[]) => Promise<unknown>;

/**
 * The stand-in for the methods `methods` of the port `load()` answers with. Listing every method
 * of a port makes the result that port: `deferredPort(load, ['join', 'leave'])` is a
 * `Pick<P, 'join' | 'leave'>`, so a method left out does not type-check where the port is needed.
 */
export function deferredPort<P, K extends keyof P>(load: () => Promise<P>, methods: readonly (K & AsyncMethodKey<P>)[]): Pick<P, K> {
  const port: Partial<Record<K, Method>> = {};
  for (const key of methods) {
    port[key] = async (...args) => {
      const loaded = await load();
      // K names a method of P that answers with a promise (AsyncMethodKey), called on its own port.
      const method = loaded[key] as Method;
      return method.apply(loaded, args);
    };
  }
  // Every key of K has its forwarding method: the record is the port's picked methods.
  return port as Pick<P, K>;
}

/** `load` run once and its answer kept; a failed load is forgotten, so the next call tries again. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}
