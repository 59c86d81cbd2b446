/**
 * The page's entry: the app (src/main.tsx) runs once the shell of index.html has been painted.
 * From a phone's cache the app's code would otherwise run before the first paint, and the
 * person would look at a blank page for all of its evaluation (some 300 ms at 4× slowdown).
 * Its code is fetched from the start all the same: index.html preloads it (vite.config.ts
 * `preloadApp`). A page opened in the background (no frames) starts it at once.
 *
 * The shell's open parameters are taken here, before anything waits: kept in storage and
 * out of the address bar at once, so a navigation or reload while the app's code loads
 * does not lose the session it was opened with. And a signed-in start's first requests are
 * sent from here (src/app/askEarly.ts).
 */
import { readOpenParams } from './adapters/openParams';
import { readLastMode } from './adapters/storage';
import { TEXT_APP_NOT_LOADED } from './app/bootText';

const openParams = readOpenParams();

// A signed-in start's first requests go now, with the cipher (a few KiB), not after the app's code:
// the app's client takes their responses (src/app/askEarly.ts). Without them it asks itself.
if (openParams) {
  const { pathname } = window.location;
  import('./app/askEarly')
    .then(({ askEarly }) => askEarly(openParams, pathname, readLastMode()))
    .catch(() => undefined);
}

function start(): void {
  // The app's start imports more code of its own (the cipher, the machines) before it renders.
  import('./main').then(({ startApp }) => startApp(openParams)).catch((error: unknown) => {
    console.error('The start failed:', error);
    showFailure();
  });
}

/**
 * The code could not be fetched (the network or the server is away): say so, with a way to try
 * again. Only while the start-up shell is shown: once the app has rendered, its own screens speak.
 */
function showFailure(): void {
  const line = document.querySelector('.boot-line');
  if (!line) return;
  line.textContent = TEXT_APP_NOT_LOADED;
  line.setAttribute('role', 'alert');
  const retry = document.createElement('button');
  retry.type = 'button';
  retry.className = 'boot-retry';
  retry.textContent = 'Retry';
  retry.addEventListener('click', () => window.location.reload());
  line.after(retry);
}

if (document.visibilityState === 'hidden') start();
else requestAnimationFrame(() => setTimeout(start, 0));
