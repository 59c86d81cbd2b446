/**
 * What every request of the API client carries (SPEC §7): its address, the shell-contract
 * headers and the AES body. Kept apart from the client, so that the page's entry can send the
 * start's first requests before the client's code is there (src/app/askEarly.ts).
 */
import type { StoredAuth } from '../../machines/ports/session.port';
import type { WireCodec } from './aesText';
import { APP_VERSION, Header } from './codes';

export interface ApiCredentials {
  token: string;
  appId: string;
  appVersion?: string;
  subscriptionKey?: string;
}

/** The credentials a stored session signs its requests with. */
export const credentialsOf = (auth: StoredAuth): ApiCredentials =>
  ({ token: auth.token, appId: auth.appId, appVersion: auth.appVersion });

/** An endpoint's address on the API host (`base` '' is the app's own origin). */
export const apiUrl = (base: string, path: string): string => base.replace(/\/$/, '') + path;

/**
 * The headers of a request: the session's (`creds`), or with no session the app's own app id
 * (`appId`), which the public pages' requests carry (SPEC §7 base config "by app id").
 */
export function requestHeaders(creds: ApiCredentials | null, appId = ''): Record<string, string> {
  const out: Record<string, string> = {
    'content-type': 'text/plain;charset=utf-8',
    [Header.appVersion]: creds?.appVersion || APP_VERSION,
  };
  if (creds) {
    out[Header.loginToken] = creds.token;
    out[Header.anchorToken] = creds.token;
    out[Header.appId] = creds.appId;
    if (creds.subscriptionKey) out[Header.subscriptionKey] = creds.subscriptionKey;
  } else if (appId) {
    out[Header.appId] = appId;
  }
  return out;
}

/** A POST body: the request's JSON, encrypted. */
export const requestBody = async (codec: WireCodec, body: unknown): Promise<string> => codec.encrypt(JSON.stringify(body ?? {}));
