/**
 * The call's code, which is not in the app's first chunk: the call screens, the session's
 * per-use machines (machines/session/per-use.actors.ts, which a call, a talk or a live loads
 * on first use), and the ports only they use and the media adapter of calls (perUsePorts.ts,
 * src/app/rtc.ts: `Services.warmCall`, which the session also asks for as a call rings).
 *
 * It is fetched a while after the start (warmLater.ts, for an incoming call), and sooner on a
 * screen that offers a call (`useWarmCall`): the first call from it then does not wait for its
 * code. Measured on the call bench's first call, the caller's code took 158 ms of the tap's
 * 1.5 s before createCall could even be asked.
 */
import { useEffect } from 'react';
import { useServices } from '../services';

export const loadCallOverlay = () => import('./CallOverlay');
export const loadPerUse = () => Promise.all([import('../../../machines/session/per-use.actors'), import('../perUsePorts')]);

/** The call screens and the per-use machines and ports (not the media adapter). */
export function loadCallScreens(): Promise<unknown> {
  return Promise.all([loadCallOverlay(), loadPerUse()]);
}

type IdleWindow = { requestIdleCallback?: (fn: () => void) => number; cancelIdleCallback?: (id: number) => void };

/**
 * While `offered` (a call button is on screen): the call's code, its ports and its media adapter are
 * loaded at the next idle moment (not in the screen's own render). Loading is once: a second
 * screen finds it done. A failed load is left to the call itself, which says why it cannot start.
 */
export function useWarmCall(offered: boolean): void {
  const { warmCall } = useServices();
  useEffect(() => {
    if (!offered) return undefined;
    const warm = () => {
      loadCallScreens().catch(() => undefined);
      warmCall?.();
    };
    const w = window as IdleWindow;
    if (w.requestIdleCallback) {
      const id = w.requestIdleCallback(warm);
      return () => w.cancelIdleCallback?.(id);
    }
    const timer = window.setTimeout(warm, 0);
    return () => window.clearTimeout(timer);
  }, [offered, warmCall]);
}
