/**
 * The development-only fault switch (faults.ts, POST /shell/api/faults): the next N
 * base-config requests fail with HTTP 500, so the client's retry path (SPEC §7, §8 "Base
 * config failure throws after 3 retries") meets a server that fails twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_TEXT, ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { SEED_PASSWORD } from '../db/seed';
import { apiHeaders, codec, device, startTestServer, type TestServer } from '../testing/harness';
import { createFaults, MAX_INJECTED_FAILURES } from './faults';

const { getBaseConfigForIntoBagV2, getBaseConfigForIntoBagV4, getCountryList, login } = endpoints;

const setFaults = (server: TestServer, body: unknown) =>
  fetch(server.base + '/shell/api/faults', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** One base-config request: its HTTP status, and the envelope code when it answered 200. */
async function baseConfig(server: TestServer, token?: string): Promise<number | string> {
  const endpoint = token ? getBaseConfigForIntoBagV4 : getBaseConfigForIntoBagV2;
  const answer = await server.post(endpoint.path, codec.encrypt('{}'), apiHeaders(token ? { token } : {}));
  if (answer.status !== 200) return answer.status;
  return (JSON.parse(answer.plain!) as { code: string }).code;
}

describe('fault switch (development only)', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = await startTestServer({ build: false });
    token = (await server.call(login, { ...device, account: 'user1@example.com', password: SEED_PASSWORD })).data!.token;
  });
  afterAll(() => server.close());

  it('makes the next two base-config requests fail with HTTP 500, then answers again', async () => {
    const set = await setFaults(server, { baseConfigFailures: 2 });
    expect(set.status).toBe(200);
    expect(await set.json()).toEqual({ baseConfigFailures: 2 });
    expect(HTTP_TEXT[500]).toBe('Server Failure');
    // v4 and v2 count together; other endpoints are not touched.
    expect((await server.call(getCountryList, {}, { token })).code).toBe(ResultCode.success);
    expect(await baseConfig(server, token)).toBe(500);
    expect(await (await fetch(server.base + '/shell/api/faults')).json()).toEqual({ baseConfigFailures: 1 });
    expect(await baseConfig(server)).toBe(500);
    expect(await baseConfig(server, token)).toBe(ResultCode.success);
    expect(await baseConfig(server)).toBe(ResultCode.success);
    expect(await (await fetch(server.base + '/shell/api/faults')).json()).toEqual({ baseConfigFailures: 0 });
  });

  it('can be cleared before it is used up, and an empty body changes nothing', async () => {
    await setFaults(server, { baseConfigFailures: 5 });
    expect(await (await setFaults(server, {})).json()).toEqual({ baseConfigFailures: 5 });
    expect(await (await setFaults(server, { baseConfigFailures: 0 })).json()).toEqual({ baseConfigFailures: 0 });
    expect(await baseConfig(server, token)).toBe(ResultCode.success);
  });

  it('refuses counts that are not whole numbers 0…100 (400), leaving the count as it was', async () => {
    for (const body of [{ baseConfigFailures: -1 }, { baseConfigFailures: MAX_INJECTED_FAILURES + 1 }, { baseConfigFailures: 1.5 },
      { baseConfigFailures: '2' }]) {
      expect((await setFaults(server, body)).status).toBe(400);
    }
    expect(await (await fetch(server.base + '/shell/api/faults')).json()).toEqual({ baseConfigFailures: 0 });
  });

  it('with a user id, fails only that user\'s base-config requests, before any set for anyone', async () => {
    const other = (await server.call(login, { ...device, account: 'user2@example.com', password: SEED_PASSWORD })).data!.token;
    const me = (await server.call(login, { ...device, account: 'user1@example.com', password: SEED_PASSWORD })).data!;
    expect(await (await setFaults(server, { baseConfigFailures: 2, userId: me.userId })).json()).toEqual({ baseConfigFailures: 2 });
    expect(await (await fetch(`${server.base}/shell/api/faults?userId=${me.userId}`)).json()).toEqual({ baseConfigFailures: 2 });
    expect(await (await fetch(server.base + '/shell/api/faults')).json()).toEqual({ baseConfigFailures: 0 });
    // Someone else, or no one signed in: untouched.
    expect(await baseConfig(server, other)).toBe(ResultCode.success);
    expect(await baseConfig(server)).toBe(ResultCode.success);
    expect(await baseConfig(server, me.token)).toBe(500);
    expect(await baseConfig(server, me.token)).toBe(500);
    expect(await baseConfig(server, me.token)).toBe(ResultCode.success);
    expect(await (await fetch(`${server.base}/shell/api/faults?userId=${me.userId}`)).json()).toEqual({ baseConfigFailures: 0 });
    expect((await fetch(`${server.base}/shell/api/faults?userId=x`)).status).toBe(400);
  });

  it('counts and refuses in the store as well', () => {
    const faults = createFaults();
    expect(() => faults.set({ baseConfigFailures: -1 })).toThrow(RangeError);
    faults.set({ baseConfigFailures: 1 });
    expect(() => faults.failBaseConfigIfPending()).toThrow('Injected fault (dev shell): base config');
    expect(() => faults.failBaseConfigIfPending()).not.toThrow();
  });
});

describe('without the dev shell', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ build: false, devShell: false });
  });
  afterAll(() => server.close());

  it('has no fault route, and base config always answers', async () => {
    expect((await setFaults(server, { baseConfigFailures: 2 })).status).toBe(404);
    expect((await fetch(server.base + '/shell/api/faults')).status).toBe(404);
    expect(await baseConfig(server)).toBe(ResultCode.success);
    expect(await baseConfig(server)).toBe(ResultCode.success);
  });
});
