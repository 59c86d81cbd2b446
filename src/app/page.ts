/**
 * Facts from the page for the root actor: visibility (SPEC §4: host IM disconnects while
 * hidden; presence reports background) and user input (SPEC §4 Idle host), the latter at
 * most once a second — the idle rule only needs to know that someone is there.
 */
import type { AppActor } from './AppActorContext';

const INPUT_EVENTS = ['pointerdown', 'keydown', 'touchstart', 'wheel'] as const;
const INPUT_THROTTLE_MS = 1000;

export function watchPage(app: AppActor): void {
  document.addEventListener('visibilitychange', () => {
    app.send({ type: document.visibilityState === 'hidden' ? 'app.hidden' : 'app.visible' });
  });
  let last = 0;
  const onInput = () => {
    const now = Date.now();
    if (now - last < INPUT_THROTTLE_MS) return;
    last = now;
    app.send({ type: 'user.input' });
  };
  for (const type of INPUT_EVENTS) window.addEventListener(type, onInput, { passive: true, capture: true });
}
