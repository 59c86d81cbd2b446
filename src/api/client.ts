/**
 * The encrypted API client of SPEC §7: POST unless noted, one API host (same origin by
 * default), 30 s time-out, the shell-contract headers, AES bodies, and the §8 catalogue
 * applied through `outcome.ts`. Every response is checked against the endpoint's schema,
 * so a malformed or undecryptable answer becomes a clear error, never a crash.
 * Plain `fetch` with a time-out: every first screen loads this client, and an HTTP library
 * would add only what these few lines do.
 */
import type { WireCodec } from './aesText';
import { REQUEST_TIMEOUT_MS } from './codes';
import type { Endpoint, RequestOf, ResponseOf } from './contract/endpoint';
import { Envelope } from './contract/endpoint';
import type { ApiNotice, ApiResult, CallOptions, Interpretation } from './outcome';
import {
  ApiError, interpretEnvelope, interpretHttpStatus, interpretTransportFailure, malformed,
} from './outcome';
import type { ApiCredentials } from './request';
import { apiUrl, requestBody, requestHeaders } from './request';

export type { ApiCredentials } from './request';

export interface ApiClientOptions {
  /** API host; '' means the app's own origin. */
  baseUrl?: string;
  codec: WireCodec;
  /** The current session's credentials, read at each call. */
  credentials: () => ApiCredentials | null;
  /** The app's own app id, sent when there is no session (SPEC §7 base config "by app id"). */
  appId?: string;
  onNotice: (notice: ApiNotice) => void;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface ApiClient {
  /** Resolves with every outcome SPEC §8 resolves; rejects with ApiError for the rest. */
  call<E extends Endpoint>(endpoint: E, body: RequestOf<E>, options?: CallOptions): Promise<ApiResult<ResponseOf<E>>>;
  /** As `call`, but anything other than success rejects (with the server's code and message). */
  data<E extends Endpoint>(endpoint: E, body: RequestOf<E>, options?: CallOptions): Promise<ResponseOf<E>>;
}

/** Why a request was given up: no response within the time-out. */
class TimedOut extends Error {}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const base = options.baseUrl ?? '';

  /** The response, or TimedOut when none came in time (the request is then aborted). */
  async function http(url: string, init: RequestInit): Promise<Response> {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new TimedOut());
        controller.abort();
      }, timeoutMs);
    });
    try {
      return await Promise.race([fetchFn(url, { ...init, signal: controller.signal }), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  function settle<T>(result: Interpretation<T>): ApiResult<T> {
    result.notices.forEach(options.onNotice);
    if ('reject' in result.outcome) throw result.outcome.reject;
    return result.outcome.resolve;
  }

  async function call<E extends Endpoint>(
    endpoint: E,
    body: RequestOf<E>,
    callOptions: CallOptions = {},
  ): Promise<ApiResult<ResponseOf<E>>> {
    const headers = requestHeaders(options.credentials(), options.appId);
    const sealed = endpoint.method === 'POST' ? { body: await requestBody(options.codec, body) } : {};
    let response: Response;
    try {
      response = await http(apiUrl(base, endpoint.path), { method: endpoint.method, headers, ...sealed });
    } catch (error) {
      return settle(interpretTransportFailure(error instanceof TimedOut));
    }
    if (!response.ok) return settle(interpretHttpStatus(response.status));

    let envelope: Envelope | null = null;
    try {
      const parsed = Envelope.safeParse(JSON.parse(await options.codec.decrypt(await response.text())));
      if (parsed.success) envelope = parsed.data;
    } catch {
      // Undecryptable or not JSON: reported as malformed below.
    }
    return settle(envelope ? interpretEnvelope(envelope, endpoint, callOptions) : malformed());
  }

  return {
    call,
    async data(endpoint, body, callOptions) {
      const result = await call(endpoint, body, callOptions);
      if (result.kind === 'ok') return result.data;
      throw new ApiError('code', result.message, { code: result.code });
    },
  };
}

