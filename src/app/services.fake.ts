/**
 * Services for screen tests: an API client that answers each endpoint from a handler (the
 * answer checked against the endpoint's response schema, as the real client does) and
 * records every request, and the in-memory translator.
 */
import * as z from 'zod/mini';
import { FakeTranslatorPort } from '../../machines/ports/translator.fake';
import type { ApiClient } from '../api/client';
import type { Endpoint, RequestOf, ResponseOf } from '../api/contract/endpoint';
import { ApiError } from '../api/outcome';
import type { Services } from './services';

export type FakeHandler = (body: unknown) => unknown;

export interface FakeServices extends Services {
  /** Every request, in order: the endpoint's path and the body. */
  requests: { path: string; body: unknown }[];
}

/** A refusal as the client rejects it: the server's message (SPEC §8 other codes). */
export const refusal = (message: string, code = '1000') => new ApiError('code', message, { code });

export function fakeServices(handlers: Readonly<Record<string, FakeHandler>>): FakeServices {
  const requests: FakeServices['requests'] = [];
  async function data<E extends Endpoint>(endpoint: E, body: RequestOf<E>): Promise<ResponseOf<E>> {
    requests.push({ path: endpoint.path, body });
    const handler = handlers[endpoint.path];
    if (!handler) throw new ApiError('http', 'Request Address Error', { status: 404 });
    // As the client does (client.ts): the schema's output is the endpoint's response type.
    return z.parse(endpoint.response, await handler(body)) as ResponseOf<E>;
  }
  const api: ApiClient = {
    data,
    async call(endpoint, body) {
      return { kind: 'ok', data: await data(endpoint, body) };
    },
  };
  // Uploads: a picture answers at once, after one progress step of the whole file.
  const upload: Services['upload'] = async (file, onProgress) => {
    onProgress({ loaded: file.size, total: file.size });
    return { mediaType: file.type.startsWith('video/') ? 2 : 1, mediaUrl: `/media/${'0'.repeat(32)}.${file.type.startsWith('video/') ? 'mp4' : 'png'}` };
  };
  return { api, translator: new FakeTranslatorPort(), upload, requests };
}
