/**
 * The error catalogue of SPEC §8 as pure functions: given what came back, what the call
 * resolves or rejects with and which notices (toasts, session ends) the app must act on.
 * The client applies them; tests check every branch here without a network.
 */
import type * as z from 'zod/mini';
import type { Endpoint, Envelope } from './contract/endpoint';
import {
  HTTP_TEXT, MESSAGE_DIAMOND_NOT_ENOUGH, MESSAGE_NO_MATCH_USER, RESOLVED_WITH_MESSAGE, ResultCode,
  SUCCESS, TEXT_MALFORMED, TEXT_NETWORK_FAILURE, TEXT_UPDATE_REQUIRED,
} from './codes';

export type ApiNotice =
  | { type: 'toast'; text: string; level: 'warning' | 'error' }
  | { type: 'sessionRejected'; reason: 'expired' | 'updateRequired' };

export type ApiResult<T> =
  | { kind: 'ok'; data: T }
  /** 1080 or the message 'diamond.not.enough'. */
  | { kind: 'balanceInsufficient'; code: string; message: string }
  /** 2001, 1992, 1006: resolved with code and message. */
  | { kind: 'resolvedWithMessage'; code: string; message: string }
  /** 1005 on the login call, handed back as a value. */
  | { kind: 'loginRefused'; code: string; message: string };

export type ApiErrorKind =
  | 'http' | 'network' | 'timeout' | 'malformed' | 'code' | 'noMatchUser' | 'sessionRejected';

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly detail: { status?: number; code?: string } = {},
  ) {
    super(message);
  }
}

/**
 * Whether a request failed without an answer that says what the server did: no connection, a
 * time-out, a server failure (HTTP 5xx, which a proxy may answer for a server that did the
 * work) or an answer that could not be read. A money request that failed so may have been
 * carried out: it is tried again with the same idempotency key (src/api/contract/idempotency.ts).
 */
export function isUnanswered(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  if (error.kind === 'http') return (error.detail.status ?? 0) >= 500;
  return error.kind === 'network' || error.kind === 'timeout' || error.kind === 'malformed';
}

export interface CallOptions {
  /** SPEC §8 "unless the request disables it": no warning toast for other codes. */
  silent?: boolean;
  /** SPEC §8 1005: on the login call the response is handed back as a value. */
  loginCall?: boolean;
}

export interface Interpretation<T> {
  outcome: { resolve: ApiResult<T> } | { reject: ApiError };
  notices: ApiNotice[];
}

const toast = (text: string, level: 'warning' | 'error' = 'warning'): ApiNotice => ({ type: 'toast', text, level });

export function malformed<T>(): Interpretation<T> {
  return {
    outcome: { reject: new ApiError('malformed', TEXT_MALFORMED) },
    notices: [toast(TEXT_MALFORMED, 'error')],
  };
}

/** An HTTP status other than 2xx (SPEC §8 HTTP texts); 401 also ends the session. */
export function interpretHttpStatus<T>(status: number): Interpretation<T> {
  const text = HTTP_TEXT[status] ?? TEXT_NETWORK_FAILURE;
  const notices: ApiNotice[] = [toast(text, 'error')];
  if (status === 401) notices.push({ type: 'sessionRejected', reason: 'expired' });
  return { outcome: { reject: new ApiError('http', text, { status }) }, notices };
}

export function interpretTransportFailure<T>(timedOut: boolean): Interpretation<T> {
  return {
    outcome: { reject: new ApiError(timedOut ? 'timeout' : 'network', TEXT_NETWORK_FAILURE) },
    notices: [toast(TEXT_NETWORK_FAILURE, 'error')],
  };
}

/** A decrypted, parsed envelope (SPEC §8 result codes). */
export function interpretEnvelope<E extends Endpoint>(
  envelope: Envelope,
  endpoint: E,
  options: CallOptions = {},
): Interpretation<z.output<E['response']>> {
  const code = String(envelope.code);
  const message = envelope.message ?? '';

  if (code === SUCCESS) {
    const parsed = endpoint.response.safeParse(envelope.data ?? null);
    if (!parsed.success) return malformed();
    return { outcome: { resolve: { kind: 'ok', data: parsed.data as z.output<E['response']> } }, notices: [] };
  }
  if (code === ResultCode.updateRequired) {
    return {
      outcome: { reject: new ApiError('sessionRejected', TEXT_UPDATE_REQUIRED, { code }) },
      notices: [toast(TEXT_UPDATE_REQUIRED), { type: 'sessionRejected', reason: 'updateRequired' }],
    };
  }
  if (code === ResultCode.authFailed) {
    if (options.loginCall) {
      return { outcome: { resolve: { kind: 'loginRefused', code, message } }, notices: [] };
    }
    return {
      outcome: { reject: new ApiError('sessionRejected', message, { code }) },
      notices: [...(message ? [toast(message)] : []), { type: 'sessionRejected', reason: 'expired' }],
    };
  }
  if (code === ResultCode.balanceInsufficient || message === MESSAGE_DIAMOND_NOT_ENOUGH) {
    return { outcome: { resolve: { kind: 'balanceInsufficient', code, message } }, notices: [] };
  }
  if (message === MESSAGE_NO_MATCH_USER) {
    return { outcome: { reject: new ApiError('noMatchUser', message, { code }) }, notices: [] };
  }
  if (RESOLVED_WITH_MESSAGE.includes(code)) {
    return { outcome: { resolve: { kind: 'resolvedWithMessage', code, message } }, notices: [] };
  }
  return {
    outcome: { reject: new ApiError('code', message || TEXT_NETWORK_FAILURE, { code }) },
    notices: options.silent || !message ? [] : [toast(message)],
  };
}
