/**
 * Starts the page: calls the composition root (src/compose/), which builds the ports and
 * creates the root actor once (outside React), then wires the actor's emitted navigation and
 * toasts to the shell, starts it and renders the router.
 */
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { AppMode } from '../machines/app/app.paths';
import { selectMode } from '../machines/app/app.selectors';
import type { StoredAuth } from '../machines/ports/session.port';
import { installShellVisibilityBridge } from './adapters/shellBridge';
import { readLastMode, writeLastMode } from './adapters/storage';
import { AppActorContext } from './app/AppActorContext';
import { startInspector } from './app/inspector';
import { asksHomeEarly, preloadFirstScreen } from './app/firstScreen';
import { nextTask } from './app/nextTask';
import { createAppRouter } from './app/router';
import { renderInSlices } from './app/renderInSlices';
import { confirmBecameHost, showToast, warmToasts } from './app/toast';
import { watchPage } from './app/page';
import { compose } from './compose';
import { ServicesContext } from './compose/services';
import './ui/app.css';

/** Starts the app with the shell's open parameters, which src/boot.ts has already taken from the page. */
export async function startApp(openParams: StoredAuth | null): Promise<void> {
  // First, as before the composition root moved: installed after the inspector had started, the
  // inspector's window stopped receiving after 8-14 messages in 3 of 3 runs of inspector.spec
  // (3 of 3 passed with this order; the bridge itself is a no-op outside the dev shell's frame).
  installShellVisibilityBridge();
  const { pathname, search, hash } = window.location;
  const inspector = await startInspector(window.location.search);
  const { app, services, signedIn, askHomeEarly } = await compose({ openParams, path: pathname + search + hash, inspector });
  const router = createAppRouter(app);
  // Emitted during a transition: navigate once the new snapshot is in place for the guards.
  app.on('navigate', ({ to }) => queueMicrotask(() => void router.navigate({ to, replace: true })));
  app.on('toast', ({ text }) => showToast(text));
  app.on('log', ({ text }) => console.info(text));
  app.on('becameHost', () => void confirmBecameHost());
  // A payment provider's page: the app is left for it and comes back at the order's return path.
  app.on('openPage', ({ url }) => window.location.assign(url));
  let mode: AppMode | null = null;
  const lastMode = readLastMode();
  // Signed in with no mode kept (a first start), the first screen's code is fetched as soon as the
  // profile tells the mode (see preloadFirstScreen).
  let screenAwaitsMode = openParams !== null && lastMode === null;
  app.subscribe((snapshot) => {
    const now = selectMode(snapshot);
    if (now && now !== mode) writeLastMode(now);
    if (now && screenAwaitsMode) {
      screenAwaitsMode = false;
      preloadFirstScreen(pathname, true, now);
    }
    mode = now;
  });
  // The profile is asked for first, then the first screen's code while it comes.
  // Each in a task of its own: together they held the main thread for some 300 ms at 4× slowdown.
  app.start();
  await nextTask();
  preloadFirstScreen(pathname, openParams !== null, lastMode);
  // A host's home asks for its first answers now, beside its code and the profile.
  if (signedIn() && asksHomeEarly(pathname, openParams !== null, lastMode)) {
    await nextTask();
    askHomeEarly();
  }
  watchPage(app);
  await nextTask();

  renderInSlices(createRoot(document.getElementById('root')!), (
    <StrictMode>
      <AppActorContext.Provider value={app}>
        <ServicesContext.Provider value={services}>
          <RouterProvider router={router} />
        </ServicesContext.Provider>
      </AppActorContext.Provider>
    </StrictMode>
  ));
  warmToasts();
}

// A stylesheet of a lazy chunk that cannot be fetched (the network or the server is away)
// must not break the screen: the chunk's code still runs, and the style comes with a reload.
window.addEventListener('vite:preloadError', (event) => {
  const message = (event as Event & { payload?: unknown }).payload;
  if (/\.css\b/.test(String(message))) event.preventDefault();
});
