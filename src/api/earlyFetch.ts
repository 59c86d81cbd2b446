/**
 * Responses to requests sent before the API client is there (src/app/askEarly.ts: the page's
 * entry sends the start's first requests while the app's code loads). The client's fetch
 * (`serving`) takes each one once, when it sends the same request (method, address, token and
 * body); one sent too long ago is not taken, and one that failed is sent again. The client
 * reads and checks a taken response as it would its own.
 */
import { Header } from './codes';

/** How long an early response waits for the client: past this, the client asks afresh. */
export const EARLY_RESPONSE_MAX_AGE_MS = 15_000;

type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export interface EarlyResponses {
  /** Sends the request now; its response waits for the client. */
  send(url: string, init: RequestInit, fetchFn?: Fetch): void;
  /** `fetchFn`, which gives a request sent early its waiting response instead of sending it again. */
  serving(fetchFn: Fetch): Fetch;
}

const keyOf = (input: RequestInfo | URL, init: RequestInit | undefined): string => JSON.stringify([
  (init?.method ?? 'GET').toUpperCase(),
  String(input),
  new Headers(init?.headers).get(Header.loginToken),
  typeof init?.body === 'string' ? init.body : null,
]);

export function createEarlyResponses(now: () => number = Date.now): EarlyResponses {
  const waiting = new Map<string, { at: number; response: Promise<Response> }>();
  return {
    send(url, init, fetchFn = (input, options) => fetch(input, options)) {
      const response = fetchFn(url, init);
      // Not taken, a failure is nobody's: the client sends the request again and reports its own.
      response.catch(() => undefined);
      waiting.set(keyOf(url, init), { at: now(), response });
    },
    serving: (fetchFn) => (input, init) => {
      const key = keyOf(input, init);
      const early = waiting.get(key);
      waiting.delete(key);
      for (const [other, { at }] of waiting) if (now() - at > EARLY_RESPONSE_MAX_AGE_MS) waiting.delete(other);
      if (!early || now() - early.at > EARLY_RESPONSE_MAX_AGE_MS) return fetchFn(input, init);
      return early.response.catch(() => fetchFn(input, init));
    },
  };
}

/** The page's early responses (one start per page). */
export const earlyResponses = createEarlyResponses();
