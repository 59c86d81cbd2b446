/**
 * The call's code, which is not in the app's first chunk: the call screens, the session's
 * per-use machines (machines/session/per-use.actors.ts, which a call, a talk or a live loads
 * on first use), and the ports only they use and the media adapter of calls (perUsePorts.ts,
 * src/app/rtc.ts: `Services.warmCall`, which the session also asks for as a call rings).
 *
 * It is fetched a while after the start (warmLater.ts, for an incoming call), and sooner on a
 * screen that offers a call (`useWarmCall`): the first call from it then does not wait for its
 * code. Measured on the call bench's first call, the caller's code took 158 ms of the tap's
 * 1.0–1.3 s before createCall could even be asked.
 */
import { useEffect } from 'react';
import { useServices } from '../services';
import { whenIdle } from '../warmLater';

export const loadCallOverlay = () => import('./CallOverlay');

/**
 * Loads the call's code, opening nothing: the call screens and the per-use machines here, the
 * call ports and media adapter through `warmCall` (Services). Each loads once; a failed load is
 * left to the call itself, which says why it cannot start.
 */
export function loadCallCode(warmCall: (() => void) | undefined): void {
  Promise.all([loadCallOverlay(), import('../../../machines/session/per-use.actors')]).catch(() => undefined);
  warmCall?.();
}

/**
 * While `offered` (a call button is on screen): the call's code (`loadCallCode`) is loaded at
 * the next idle moment, not in the screen's own render.
 */
export function useWarmCall(offered: boolean): void {
  const { warmCall } = useServices();
  useEffect(() => (offered ? whenIdle(() => loadCallCode(warmCall)) : undefined), [offered, warmCall]);
}
