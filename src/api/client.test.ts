import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createApiClient } from './client';
import type { ApiCredentials } from './client';
import { createAesCodec } from './codec';
import { DEV_AES_IV, DEV_AES_KEY, Header } from './codes';
import { defineEndpoint } from './contract/endpoint';
import { session } from './contract';
import type { ApiNotice } from './outcome';
import { ApiError } from './outcome';

const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);

const probe = defineEndpoint({
  path: '/api/test/probe',
  method: 'POST',
  auth: 'session',
  request: z.object({ n: z.number() }),
  response: z.object({ n: z.number(), icon: z.optional(session.MineInfo.shape.icon) }),
});

interface Seen { url: string; headers: Headers; body: string }

function setup(
  reply: (seen: Seen) => Response | Promise<Response>, creds: ApiCredentials | null = { token: 'tok', appId: 'app' }, appId?: string,
) {
  const notices: ApiNotice[] = [];
  const seen: Seen[] = [];
  const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const s = { url: request.url, headers: request.headers, body: await request.text() };
    seen.push(s);
    return reply(s);
  }) as typeof fetch;
  const client = createApiClient({
    baseUrl: 'http://api.test',
    codec,
    credentials: () => creds,
    onNotice: (n) => notices.push(n),
    fetch: fetchFn,
    timeoutMs: 200,
    ...(appId === undefined ? {} : { appId }),
  });
  return { client, notices, seen };
}

const encrypted = (envelope: unknown, status = 200) =>
  new Response(codec.encrypt(JSON.stringify(envelope)), { status });

const rejection = (p: Promise<unknown>) => p.then(
  () => { throw new Error('expected a rejection'); },
  (e: unknown) => e as ApiError,
);

describe('[§7] request shape', () => {
  it('POSTs the AES-encrypted JSON body with the shell-contract headers', async () => {
    const { client, seen } = setup(() => encrypted({ code: '0000', data: { n: 2 } }));
    await client.call(probe, { n: 1 });
    expect(seen[0]!.url).toBe('http://api.test/api/test/probe');
    expect(JSON.parse(codec.decrypt(seen[0]!.body))).toEqual({ n: 1 });
    expect(seen[0]!.headers.get(Header.loginToken)).toBe('tok');
    expect(seen[0]!.headers.get(Header.anchorToken)).toBe('tok');
    expect(seen[0]!.headers.get(Header.appId)).toBe('app');
    expect(seen[0]!.headers.get(Header.appVersion)).toBe('1.0.34');
  });

  it('sends no token when signed out', async () => {
    const { client, seen } = setup(() => encrypted({ code: '0000', data: { n: 2 } }), null);
    await client.call(probe, { n: 1 });
    expect(seen[0]!.headers.get(Header.loginToken)).toBeNull();
  });

  it('signed out, sends the app\'s own app id when it has one (base config by app id); signed in, the session\'s', async () => {
    const out = setup(() => encrypted({ code: '0000', data: { n: 2 } }), null, 'web');
    await out.client.call(probe, { n: 1 });
    expect(out.seen[0]!.headers.get(Header.appId)).toBe('web');
    expect(out.seen[0]!.headers.get(Header.anchorToken)).toBeNull();
    const bare = setup(() => encrypted({ code: '0000', data: { n: 2 } }), null);
    await bare.client.call(probe, { n: 1 });
    expect(bare.seen[0]!.headers.get(Header.appId)).toBeNull();
    const signedIn = setup(() => encrypted({ code: '0000', data: { n: 2 } }), undefined, 'web');
    await signedIn.client.call(probe, { n: 1 });
    expect(signedIn.seen[0]!.headers.get(Header.appId)).toBe('app');
  });
});

describe('[§8] result codes', () => {
  it('"0000" resolves the validated data', async () => {
    const { client, notices } = setup(() => encrypted({ code: '0000', message: 'ok', data: { n: 7 } }));
    await expect(client.call(probe, { n: 1 })).resolves.toEqual({ kind: 'ok', data: { n: 7 } });
    expect(notices).toEqual([]);
  });

  it('[§5] rewrites http image URLs to https and keeps relative ones', async () => {
    const { client } = setup(() => encrypted({ code: '0000', data: { n: 1, icon: 'http://cdn.example/a.png' } }));
    await expect(client.data(probe, { n: 1 })).resolves.toEqual({ n: 1, icon: 'https://cdn.example/a.png' });
    const rel = setup(() => encrypted({ code: '0000', data: { n: 1, icon: '/avatars/a.svg' } }));
    await expect(rel.client.data(probe, { n: 1 })).resolves.toEqual({ n: 1, icon: '/avatars/a.svg' });
  });

  it('1004 toasts the update text and ends the session', async () => {
    const { client, notices } = setup(() => encrypted({ code: '1004', message: 'old' }));
    const error = await rejection(client.call(probe, { n: 1 }));
    expect(error.kind).toBe('sessionRejected');
    expect(notices).toEqual([
      { type: 'toast', text: "Oops! We've updated something new. Re-enter and try our new feature!", level: 'warning' },
      { type: 'sessionRejected', reason: 'updateRequired' },
    ]);
  });

  it('1005 on the login call is handed back as a value', async () => {
    const { client, notices } = setup(() => encrypted({ code: 1005, message: 'Incorrect account or password.' }));
    await expect(client.call(probe, { n: 1 }, { loginCall: true })).resolves.toEqual({
      kind: 'loginRefused', code: '1005', message: 'Incorrect account or password.',
    });
    expect(notices).toEqual([]);
  });

  it('1005 elsewhere shows the message and logs out', async () => {
    const { client, notices } = setup(() => encrypted({ code: '1005', message: 'Expired.' }));
    expect((await rejection(client.call(probe, { n: 1 }))).kind).toBe('sessionRejected');
    expect(notices).toEqual([
      { type: 'toast', text: 'Expired.', level: 'warning' },
      { type: 'sessionRejected', reason: 'expired' },
    ]);
  });

  it.each([
    ['1080', 'whatever'],
    ['3000', 'diamond.not.enough'],
  ])('%s / %s resolves as balance insufficient', async (code, message) => {
    const { client, notices } = setup(() => encrypted({ code, message }));
    await expect(client.call(probe, { n: 1 })).resolves.toEqual({ kind: 'balanceInsufficient', code, message });
    expect(notices).toEqual([]);
  });

  it("'no.match.user' rejects without a toast", async () => {
    const { client, notices } = setup(() => encrypted({ code: '3001', message: 'no.match.user' }));
    expect((await rejection(client.call(probe, { n: 1 }))).kind).toBe('noMatchUser');
    expect(notices).toEqual([]);
  });

  it.each(['2001', '1992', '1006'])('%s resolves with code and message', async (code) => {
    const { client, notices } = setup(() => encrypted({ code, message: 'm' }));
    await expect(client.call(probe, { n: 1 })).resolves.toEqual({ kind: 'resolvedWithMessage', code, message: 'm' });
    expect(notices).toEqual([]);
    // `data()` treats anything but success as a failure the caller must handle.
    await expect(client.data(probe, { n: 1 })).rejects.toMatchObject({ kind: 'code', detail: { code } });
  });

  it('other codes toast the message as a warning, then reject', async () => {
    const { client, notices } = setup(() => encrypted({ code: '1010', message: 'This account is already registered.' }));
    const error = await rejection(client.call(probe, { n: 1 }));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'code', message: 'This account is already registered.', detail: { code: '1010' } });
    expect(notices).toEqual([{ type: 'toast', text: 'This account is already registered.', level: 'warning' }]);
  });

  it('other codes stay silent when the request disables the toast', async () => {
    const { client, notices } = setup(() => encrypted({ code: '1010', message: 'x' }));
    expect((await rejection(client.call(probe, { n: 1 }, { silent: true }))).kind).toBe('code');
    expect(notices).toEqual([]);
  });
});

describe('[§8] HTTP and network failures', () => {
  it.each([
    [401, 'Token invalid, please log in again'],
    [403, 'No Access'],
    [404, 'Request Address Error'],
    [500, 'Server Failure'],
    [502, 'Network Connection Failure'],
    [418, 'Network Connection Failure'],
  ])('HTTP %i → %s', async (status, text) => {
    const { client, notices } = setup(() => new Response('nope', { status }));
    const error = await rejection(client.call(probe, { n: 1 }));
    expect(error).toMatchObject({ kind: 'http', message: text, detail: { status } });
    expect(notices[0]).toEqual({ type: 'toast', text, level: 'error' });
    expect(notices.some((n) => n.type === 'sessionRejected')).toBe(status === 401);
  });

  it('a network failure is Network Connection Failure', async () => {
    const { client, notices } = setup(() => { throw new TypeError('Failed to fetch'); });
    expect(await rejection(client.call(probe, { n: 1 }))).toMatchObject({ kind: 'network', message: 'Network Connection Failure' });
    expect(notices).toHaveLength(1);
  });

  it('a request that outlives the time-out fails as Network Connection Failure', async () => {
    const { client } = setup(() => new Promise<Response>(() => {}));
    expect(await rejection(client.call(probe, { n: 1 }))).toMatchObject({ kind: 'timeout', message: 'Network Connection Failure' });
  });

  it('a request given up at the time-out is aborted, not left running', async () => {
    let signal: AbortSignal | null | undefined;
    const client = createApiClient({
      baseUrl: 'http://api.test',
      codec,
      credentials: () => null,
      onNotice: () => {},
      timeoutMs: 50,
      fetch: ((_input: RequestInfo | URL, init?: RequestInit) => {
        signal = init?.signal;
        return new Promise<Response>(() => {});
      }) as typeof fetch,
    });
    await rejection(client.call(probe, { n: 1 }));
    expect(signal?.aborted).toBe(true);
  });
});

describe('malformed responses are a clear error, never a crash', () => {
  it.each([
    ['plain text', () => new Response('hello')],
    ['base64 of garbage', () => new Response(btoa('garbage-garbage!'))],
    ['encrypted non-JSON', () => new Response(codec.encrypt('not json'))],
    ['envelope without a code', () => encrypted({ message: 'x' })],
    ['data of the wrong shape', () => encrypted({ code: '0000', data: { n: 'seven' } })],
    ['missing data', () => encrypted({ code: '0000' })],
    ['JSON null', () => encrypted(null)],
  ])('%s', async (_, reply) => {
    const { client, notices } = setup(reply);
    const error = await rejection(client.call(probe, { n: 1 }));
    expect(error).toMatchObject({ kind: 'malformed' });
    expect(error.message).toMatch(/could not read/);
    expect(notices).toEqual([{ type: 'toast', text: error.message, level: 'error' }]);
  });
});
