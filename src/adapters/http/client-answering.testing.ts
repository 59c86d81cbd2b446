/** An API client for adapter tests: `answer` gives each request's data (or throws its refusal), and every request is kept. */
import type { ApiClient } from '../../api/client';

export function clientAnswering(answer: (path: string, body: unknown) => unknown): { api: ApiClient; seen: [string, unknown][] } {
  const seen: [string, unknown][] = [];
  const api = {
    call: () => Promise.reject(new Error('not used')),
    data: async (endpoint: { path: string }, body: unknown) => {
      seen.push([endpoint.path, body]);
      return answer(endpoint.path, body);
    },
  } as unknown as ApiClient;
  return { api, seen };
}
