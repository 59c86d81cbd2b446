/**
 * A media adapter that loads on first use (SPEC §8: up to 3 attempts): what the call's RTC
 * (rtc.ts) and the live room's media (liveMedia.ts) share. The stand-in can be handed to the
 * machines and to React at start-up; no media code is in the first screen's chunk. Events and
 * the media view pass through once the adapter is there.
 */
import type { CallMediaView } from '../../machines/ports/call.media';
import { loadWithRetry } from '../adapters/sdk-load';

interface MediaAdapter<E> {
  readonly media: CallMediaView;
  subscribe(listener: (event: E) => void): () => void;
  leave(): Promise<void>;
}

export interface LazyMedia<A extends MediaAdapter<E>, E> {
  /** The adapter, loading it the first time (a failed load is tried again at the next use). */
  load(): Promise<A>;
  /**
   * `run(adapter)` with the adapter: at once when it is loaded (so that what it starts, such as
   * opening the camera, goes out before anything else queued meanwhile), else once it loads.
   */
  withAdapter<T>(run: (adapter: A) => Promise<T>): Promise<T>;
  /** The adapter once it has loaded; null before (nothing is loaded for asking). */
  loaded(): A | null;
  readonly media: CallMediaView;
  /** Leaves what was loaded; nothing was ever loaded: nothing to leave (and nothing to load for it). */
  leave(): Promise<void>;
  subscribe(listener: (event: E) => void): () => void;
}

export function lazyMedia<A extends MediaAdapter<E>, E>(loadAdapter: () => Promise<A>): LazyMedia<A, E> {
  const listeners = new Set<(event: E) => void>();
  const viewers = new Set<() => void>();
  let adapter: A | null = null;
  let loading: Promise<A> | null = null;

  const viewChanged = () => {
    for (const viewer of [...viewers]) viewer();
  };

  function load(): Promise<A> {
    loading ??= loadWithRetry(loadAdapter).then(
      (loaded) => {
        adapter = loaded;
        loaded.subscribe((event) => {
          for (const listener of [...listeners]) listener(event);
        });
        loaded.media.subscribe(viewChanged);
        viewChanged();
        return loaded;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  }

  return {
    load,
    loaded: () => adapter,
    withAdapter(run) {
      if (!adapter) return load().then(run);
      try {
        return run(adapter);
      } catch (error) {
        return Promise.reject(error);
      }
    },
    media: {
      local: () => adapter?.media.local() ?? null,
      remote: () => adapter?.media.remote() ?? null,
      subscribe(viewer) {
        viewers.add(viewer);
        return () => {
          viewers.delete(viewer);
        };
      },
    },
    async leave() {
      const current = adapter ?? (loading ? await loading.catch(() => null) : null);
      await current?.leave();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
