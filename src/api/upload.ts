/**
 * The media upload (src/api/contract/media.ts: POST /api/upload with the file as the body)
 * over XMLHttpRequest, whose upload events report progress (fetch cannot report the progress
 * of a request body in Chromium without streaming uploads). The answer is the API's encrypted
 * envelope, read with the same SPEC §8 catalogue as every call (outcome.ts).
 */
import type { WireCodec } from './aesText';
import { APP_VERSION, Header, REQUEST_TIMEOUT_MS } from './codes';
import type { ApiCredentials } from './client';
import { Empty, Envelope, defineEndpoint } from './contract/endpoint';
import { UPLOAD_PATH, UPLOAD_TYPES, UploadedMedia } from './contract/media';
import type { UploadType } from './contract/media';
import type { ApiNotice } from './outcome';
import { ApiError, interpretEnvelope, interpretHttpStatus, interpretTransportFailure, malformed } from './outcome';
import type { Interpretation } from './outcome';

/** The upload as an endpoint, so its answer is checked like any other. */
const uploadEndpoint = defineEndpoint({ path: UPLOAD_PATH, method: 'POST', auth: 'session', request: Empty, response: UploadedMedia });

export interface UploadProgress {
  loaded: number;
  total: number;
}

export type Uploader = (file: Blob, onProgress: (progress: UploadProgress) => void, signal?: AbortSignal) => Promise<UploadedMedia>;

export interface UploaderOptions {
  baseUrl?: string;
  codec: WireCodec;
  credentials: () => ApiCredentials | null;
  onNotice: (notice: ApiNotice) => void;
  timeoutMs?: number;
}

export const TEXT_UPLOAD_CANCELLED = 'The upload was cancelled.';

export function createUploader(options: UploaderOptions): Uploader {
  const base = (options.baseUrl ?? '').replace(/\/$/, '');
  const settle = (result: Interpretation<UploadedMedia>): UploadedMedia => {
    result.notices.forEach(options.onNotice);
    if ('reject' in result.outcome) throw result.outcome.reject;
    const outcome = result.outcome.resolve;
    if (outcome.kind !== 'ok') throw new ApiError('code', outcome.message, { code: outcome.code });
    return outcome.data;
  };

  return (file, onProgress, signal) => new Promise<UploadedMedia>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', base + UPLOAD_PATH);
    xhr.timeout = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const creds = options.credentials();
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream');
    xhr.setRequestHeader(Header.appVersion, creds?.appVersion || APP_VERSION);
    if (creds) {
      xhr.setRequestHeader(Header.loginToken, creds.token);
      xhr.setRequestHeader(Header.anchorToken, creds.token);
      xhr.setRequestHeader(Header.appId, creds.appId);
    }
    const run = (read: () => UploadedMedia | Promise<UploadedMedia>) => {
      Promise.resolve().then(read).then(resolve, reject);
    };
    xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
    xhr.onload = () => run(async () => {
      if (xhr.status < 200 || xhr.status >= 300) return settle(interpretHttpStatus(xhr.status));
      let envelope: Envelope | null = null;
      try {
        const parsed = Envelope.safeParse(JSON.parse(await options.codec.decrypt(xhr.responseText)));
        if (parsed.success) envelope = parsed.data;
      } catch {
        // Undecryptable or not JSON: malformed below.
      }
      // The upload screen shows refusals itself (too large, wrong type).
      return settle(envelope ? interpretEnvelope(envelope, uploadEndpoint, { silent: true }) : malformed());
    });
    xhr.onerror = () => run(() => settle(interpretTransportFailure(false)));
    xhr.ontimeout = () => run(() => settle(interpretTransportFailure(true)));
    xhr.onabort = () => reject(new ApiError('network', TEXT_UPLOAD_CANCELLED));
    if (signal?.aborted) {
      reject(new ApiError('network', TEXT_UPLOAD_CANCELLED));
      return;
    }
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** What a picker's file is, by its type (SPEC §3 mediaType 1 picture, 2 video), or null when not accepted. */
export const mediaTypeOf = (type: string): 1 | 2 | null =>
  (Object.hasOwn(UPLOAD_TYPES, type) ? UPLOAD_TYPES[type as UploadType].mediaType : null);
