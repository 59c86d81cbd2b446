/**
 * Early responses (src/api/earlyFetch.ts): a request sent before the client is there is answered
 * once, to the same request only (method, address, token, body); one too old or failed is sent again.
 */
import { describe, expect, it, vi } from 'vitest';
import { Header } from './codes';
import { EARLY_RESPONSE_MAX_AGE_MS, createEarlyResponses } from './earlyFetch';

const init = (token: string, body: string): RequestInit =>
  ({ method: 'POST', headers: { [Header.loginToken]: token }, body });

function setup() {
  let clock = 1_000;
  const early = createEarlyResponses(() => clock);
  let n = 0;
  const network = vi.fn(async () => new Response(`answer ${++n}`));
  const client = vi.fn(async () => new Response('asked again'));
  return { early, network, client, fetch: early.serving(client), advance: (ms: number) => { clock += ms; } };
}

describe('early responses', () => {
  it('answers the same request once with the response sent early', async () => {
    const { early, network, client, fetch } = setup();
    early.send('/api/a', init('t1', 'body'), network);
    expect(await (await fetch('/api/a', { ...init('t1', 'body'), signal: new AbortController().signal })).text()).toBe('answer 1');
    expect(client).not.toHaveBeenCalled();
    // Taken once: the next one is sent.
    expect(await (await fetch('/api/a', init('t1', 'body'))).text()).toBe('asked again');
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('sends any other request: another address, token, body or method', async () => {
    const { early, network, client, fetch } = setup();
    early.send('/api/a', init('t1', 'body'), network);
    await fetch('/api/b', init('t1', 'body'));
    await fetch('/api/a', init('t2', 'body'));
    await fetch('/api/a', init('t1', 'other'));
    await fetch('/api/a', { ...init('t1', 'body'), method: 'GET' });
    expect(client).toHaveBeenCalledTimes(4);
    expect(await (await fetch('/api/a', init('t1', 'body'))).text()).toBe('answer 1');
  });

  it('sends again a request whose early response is too old', async () => {
    const { early, network, client, fetch, advance } = setup();
    early.send('/api/a', init('t1', 'body'), network);
    advance(EARLY_RESPONSE_MAX_AGE_MS + 1);
    expect(await (await fetch('/api/a', init('t1', 'body'))).text()).toBe('asked again');
    expect(client).toHaveBeenCalledTimes(1);
  });

  it('sends again a request whose early one failed, and leaves no unhandled failure', async () => {
    const { early, client, fetch } = setup();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    early.send('/api/a', init('t1', 'body'), () => Promise.reject(new TypeError('Failed to fetch')));
    early.send('/api/never-taken', init('t1', 'body'), () => Promise.reject(new TypeError('Failed to fetch')));
    expect(await (await fetch('/api/a', init('t1', 'body'))).text()).toBe('asked again');
    await new Promise((resolve) => setTimeout(resolve, 10));
    process.off('unhandledRejection', unhandled);
    expect(client).toHaveBeenCalledTimes(1);
    expect(unhandled).not.toHaveBeenCalled();
  });
});
