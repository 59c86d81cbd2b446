/**
 * The composition root: builds the API client, the session's HTTP port, the services screens
 * read and the realtime ports (each adapter chosen here: realtime.ts, rtc.ts, liveMedia.ts,
 * the per-use ports loaded on first use), composes the root actor once and creates it (not
 * started). src/main.tsx calls `compose` and wires what it returns to the React shell.
 */
import { createActor } from 'xstate';
import type { InspectionEvent, Observer } from 'xstate';
import type { StoredAuth } from '../../machines/ports/session.port';
import { SessionCredentials, createHttpSessionPort } from '../adapters/http/session.http';
import { askHomeEarly } from '../adapters/http/home.early';
import { createApiClient } from '../api/client';
import { earlyResponses } from '../api/earlyFetch';
import type { ApiNotice } from '../api/outcome';
import type { AppActor } from '../app/AppActorContext';
import { config } from '../app/config';
import { createEarlyAnswers } from '../app/early';
import { fetchPicture } from '../app/firstScreen';
import { nextTask } from '../app/nextTask';
import { showToast } from '../app/toast';
import { createRealtimePorts } from './realtime';
import type { Services } from './services';
import { createTranslatorPort } from './translator';

export interface ComposeOptions {
  /** The shell's open parameters, which src/boot.ts has already taken from the page. */
  openParams: StoredAuth | null;
  /** The address the app opened at (path, query and hash). */
  path: string;
  /** The inspector's observer when `?inspect=1` opened it (src/app/inspector.ts). */
  inspector?: Observer<InspectionEvent> | null;
}

export interface Composed {
  /** The root actor, created and not yet started. */
  app: AppActor;
  services: Services;
  /** Whether the API has a session's credentials (a signed-in start). */
  signedIn(): boolean;
  /** Asks for a host's home's first answers now, beside its code and the profile (adapters/http/home.early.ts). */
  askHomeEarly(): void;
}

export async function compose({ openParams, path, inspector }: ComposeOptions): Promise<Composed> {
  let app: AppActor | null = null;
  const credentials = new SessionCredentials();
  // The cipher (the browser's: in the chunk the page's entry loaded for the start's first requests)
  // and the machines are chunks of their own, each run in a task of its own: in the app's chunk
  // they made one long task of its evaluation.
  const { createWireCodec } = await import('../api/webCodec');
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
      const { createUploader } = await import('../api/upload');
      return createUploader({ baseUrl: config.apiBase, codec, credentials: credentials.forApi, onNotice })(file, onProgress, signal);
    },
    // Loaded with the first translation (a chat's Translate): kept off the first screen.
    translator: createTranslatorPort(api, config.apiBase),
    early,
    ...(inspector ? { inspect: inspector } : {}),
  };
  const realtime = await createRealtimePorts(api, credentials, services.translator);
  // The call screens show the streams of the media adapter (loaded with the first call).
  services.callMedia = realtime.rtc.media;
  services.warmCall = realtime.warmCall;
  services.callApi = realtime.callApi;
  services.liveMedia = realtime.liveMedia.media;
  if (realtime.wallet) services.wallet = realtime.wallet;
  services.withdraw = realtime.withdraw;
  services.clock = realtime.clock;

  // The start is cut into tasks of their own (composing the machines, creating the actor and
  // the router, starting it, rendering), so a tap during the start waits for none of them long.
  await nextTask();
  const { composeAppMachine } = await import('../../machines/app/app.actors');
  await nextTask();
  const logic = composeAppMachine({ session, realtime });
  await nextTask();
  app = createActor(logic, {
    input: { openParams, path },
    ...(inspector ? { inspect: inspector } : {}),
  });
  return {
    app,
    services,
    signedIn: () => credentials.forApi() !== null,
    askHomeEarly: () => askHomeEarly(api, early, fetchPicture),
  };
}
