/**
 * The start's first requests (src/app/askEarly.ts) are the very requests the app then sends: the
 * app's own calls (the session's profile, the home's setup and first page) take every early
 * response and send nothing again. A start that does not show the home first asks for the profile only.
 */
import { describe, expect, it, vi } from 'vitest';
import { FIRST_HOME_QUERY, HOME_PAGE_SIZE } from '../../machines/home-list/home-list.port';
import type { StoredAuth } from '../../machines/ports/session.port';
import { createApiClient } from '../api/client';
import { session } from '../api/contract';
import { createEarlyResponses } from '../api/earlyFetch';
import { credentialsOf } from '../api/request';
import { createWireCodec } from '../api/webCodec';
import { askHomeSetup, askHostsPage } from '../screens/home/homeEarly';
import { askEarly } from './askEarly';
import { config } from './config';

const auth = { token: 'tok-1', appId: 'web', appVersion: '1.0.34' } as StoredAuth;

async function start(path: string, lastMode: 'host' | 'restricted' | null) {
  const early = createEarlyResponses();
  const sent: string[] = [];
  const network = vi.fn(async (input: RequestInfo | URL) => {
    sent.push(new URL(String(input), 'http://app.test').pathname);
    return new Response('', { status: 503 });
  });
  const asked = await askEarly(auth, path, lastMode, early, network);
  const again = vi.fn(async () => new Response('', { status: 503 }));
  const api = createApiClient({
    baseUrl: config.apiBase,
    codec: createWireCodec(config.aesKey, config.aesIv),
    credentials: () => credentialsOf(auth),
    onNotice: () => undefined,
    fetch: early.serving(again),
  });
  return { api, asked, sent, again };
}

describe('askEarly', () => {
  it('a host\'s start on /: the profile and the home\'s first answers, each taken by the app\'s own call', async () => {
    const { api, asked, sent, again } = await start('/', 'host');
    expect(asked).toEqual(['/api/anchor/userInfo', '/api/index/indexTag', '/api/index/getCountryList', '/api/index/v2/getAppPicByType', '/api/anchor/v4/anchorList']);
    // Each is sent once. Their order on the wire is the order their bodies finish encrypting
    // (WebCrypto works off the thread), so it is not fixed.
    expect([...sent].sort()).toEqual([...asked].sort());
    // What the session (src/adapters/session.http.ts) and the home (homeEarly.ts) ask at the start.
    await Promise.allSettled([
      api.data(session.userInfo, {}),
      askHomeSetup(api),
      askHostsPage(api, FIRST_HOME_QUERY, 1, HOME_PAGE_SIZE),
    ]);
    expect(again).not.toHaveBeenCalled();
  });

  it('a start whose first screen is not the home: the profile only', async () => {
    expect((await start('/', 'restricted')).asked).toEqual(['/api/anchor/userInfo']);
    expect((await start('/talk', 'host')).asked).toEqual(['/api/anchor/userInfo']);
  });

  it('a first start (no mode known) on / asks for the home too', async () => {
    expect((await start('/', null)).asked).toHaveLength(5);
  });
});
