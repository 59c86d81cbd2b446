/**
 * Builds the ports, composes and starts the root actor once (outside React), wires its
 * emitted navigation and the API's notices, and renders the router.
 */
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createActor } from 'xstate';
import { createApiClient } from './api/client';
import { earlyResponses } from './api/earlyFetch';
import type { ApiNotice } from './api/outcome';
import type { AppMode } from '../machines/app/app.paths';
import { selectMode } from '../machines/app/app.selectors';
import type { StoredAuth } from '../machines/ports/session.port';
import { readLastMode, writeLastMode } from './adapters/storage';
import { SessionCredentials, createHttpSessionPort } from './adapters/session.http';
import { installShellVisibilityBridge } from './adapters/shellBridge';
import type { AppActor } from './app/AppActorContext';
import { AppActorContext } from './app/AppActorContext';
import { config } from './app/config';
import { startInspector } from './app/inspector';
import { asksHomeEarly, fetchPicture, preloadFirstScreen } from './app/firstScreen';
import { createEarlyAnswers } from './app/early';
import { askHomeEarly } from './screens/home/homeEarly';
import { createAppRouter } from './app/router';
import { createRealtimePorts } from './app/realtime';
import { renderInSlices } from './app/renderInSlices';
import type { Services } from './app/services';
import { ServicesContext } from './app/services';
import { confirmBecameHost, showToast, warmToasts } from './app/toast';
import { createTranslatorPort } from './app/translator';
import { watchPage } from './app/page';
import './ui/app.css';

/** Starts the app with the shell's open parameters, which src/boot.ts has already taken from the page. */
export async function startApp(openParams: StoredAuth | null): Promise<void> {
  installShellVisibilityBridge();
  const { pathname, search, hash } = window.location;
  const inspector = await startInspector(window.location.search);

  let app: AppActor | null = null;
  const credentials = new SessionCredentials();
  // The cipher (the browser's: in the chunk the page's entry loaded for the start's first requests)
  // and the machines are chunks of their own, each run in a task of its own: in the app's chunk
  // they made one long task of its evaluation.
  const { createWireCodec } = await import('./api/webCodec');
  const codec = createWireCodec(config.aesKey, config.aesIv);
  const onNotice = (notice: ApiNotice) => {
    if (notice.type === 'toast') showToast(notice.text);
    else app?.send({ type: 'api.sessionRejected', reason: notice.reason });
  };
  const api = createApiClient({
    baseUrl: config.apiBase, codec, credentials: credentials.forApi, appId: config.appId, onNotice,
    // The start's first requests were sent by the page's entry (src/app/askEarly.ts).
    fetch: earlyResponses.serving((input, init) => fetch(input, init)),
  });
  const session = createHttpSessionPort({ api, credentials, appId: config.appId });
  const early = createEarlyAnswers();
  const services: Services = {
    api,
    // Loaded with the first upload (only /profile uploads): kept off the first screen.
    upload: async (file, onProgress, signal) => {
      const { createUploader } = await import('./api/upload');
      return createUploader({ baseUrl: config.apiBase, codec, credentials: credentials.forApi, onNotice })(file, onProgress, signal);
    },
    // Loaded with the first translation (a chat's Translate): kept off the first screen.
    translator: createTranslatorPort(api, config.apiBase),
    early,
  };
  const realtime = await createRealtimePorts(api, credentials, services.translator);
  // The call screens show the streams of the media adapter (loaded with the first call).
  services.callMedia = realtime.rtc.media;
  services.warmCall = realtime.warmCall;
  services.liveMedia = realtime.liveMedia.media;

  // The start is cut into tasks of their own (composing the machines, creating the actor and
  // the router, starting it, rendering), so a tap during the start waits for none of them long.
  await nextTask();
  const { composeAppMachine } = await import('../machines/app/app.actors');
  await nextTask();
  const logic = composeAppMachine({ session, realtime });
  await nextTask();
  app = createActor(logic, {
    input: { openParams, path: pathname + search + hash },
    ...(inspector ? { inspect: inspector } : {}),
  });
  const router = createAppRouter(app);
  // Emitted during a transition: navigate once the new snapshot is in place for the guards.
  app.on('navigate', ({ to }) => queueMicrotask(() => void router.navigate({ to, replace: true })));
  app.on('toast', ({ text }) => showToast(text));
  app.on('log', ({ text }) => console.info(text));
  app.on('becameHost', () => void confirmBecameHost());
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
  if (credentials.forApi() && asksHomeEarly(pathname, openParams !== null, lastMode)) {
    await nextTask();
    askHomeEarly(api, early, fetchPicture);
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

/** Lets the browser handle what waits (a tap, a frame, a response) before the start goes on. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => { setTimeout(resolve, 0); });
}

// A stylesheet of a lazy chunk that cannot be fetched (the network or the server is away)
// must not break the screen: the chunk's code still runs, and the style comes with a reload.
window.addEventListener('vite:preloadError', (event) => {
  const message = (event as Event & { payload?: unknown }).payload;
  if (/\.css\b/.test(String(message))) event.preventDefault();
});
