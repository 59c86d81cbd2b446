/**
 * The start's first requests, sent by the page's entry (src/boot.ts) as soon as it runs: a
 * signed-in start's profile (SPEC §7 userInfo), and when the home comes first (`asksHomeEarly`)
 * the home's first answers, as src/screens/home/homeEarly.ts asks for them. The app's client
 * takes their responses (src/api/earlyFetch.ts) instead of asking again, so they are on the way
 * while the app's code (some 130 KiB) loads and runs, not after it. This module and what it
 * imports stay small: the entry fetches it with the cipher, before the app's code.
 */
import type { AppMode } from '../../machines/app/app.paths';
import { FIRST_HOME_QUERY, HOME_PAGE_SIZE } from '../../machines/home-list/home-list.port';
import type { StoredAuth } from '../../machines/ports/session.port';
import { createWireCodec } from '../api/webCodec';
import { earlyResponses } from '../api/earlyFetch';
import type { EarlyResponses } from '../api/earlyFetch';
import { apiUrl, credentialsOf, requestBody, requestHeaders } from '../api/request';
import { config } from './config';
import { asksHomeEarly } from './firstScreen';

/** [path, body] of each request, as the app's client sends it. */
type Request = readonly [path: string, body: Record<string, unknown>];

/** The profile: every signed-in start asks for it first (machines/session). */
export const PROFILE_REQUESTS: readonly Request[] = [['/api/anchor/userInfo', {}]];

/** The home's setup (indexTag, getCountryList, the banners) and the All tab's first page. */
export const HOME_REQUESTS: readonly Request[] = [
  ['/api/index/indexTag', {}],
  ['/api/index/getCountryList', {}],
  ['/api/index/v2/getAppPicByType', { type: 1 }],
  ['/api/anchor/v4/anchorList', { currentPage: 1, pageSize: HOME_PAGE_SIZE, onlineStatus: FIRST_HOME_QUERY.onlineStatus }],
];

/**
 * Sends the first requests of a start on `path` with the stored session, each as soon as its
 * body is encrypted (the browser's cipher answers asynchronously, within a few milliseconds);
 * resolves with their paths once all are sent.
 */
export async function askEarly(
  auth: StoredAuth, path: string, lastMode: AppMode | null,
  early: EarlyResponses = earlyResponses, fetchFn?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>,
): Promise<string[]> {
  const codec = createWireCodec(config.aesKey, config.aesIv);
  const headers = requestHeaders(credentialsOf(auth));
  const requests = [...PROFILE_REQUESTS, ...(asksHomeEarly(path, true, lastMode) ? HOME_REQUESTS : [])];
  await Promise.all(requests.map(async ([endpoint, body]) => {
    early.send(apiUrl(config.apiBase, endpoint), { method: 'POST', headers, body: await requestBody(codec, body) }, fetchFn);
  }));
  return requests.map(([endpoint]) => endpoint);
}
