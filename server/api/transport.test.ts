import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../../src/api/codec';
import { ResultCode, TEXT_BODY_TOO_LARGE, TEXT_VISITOR_REFUSED } from '../../src/api/codes';
import { BODY_LIMIT_SIGNED_OUT, bodyLimitOf, endpoints, type Endpoint } from '../../src/api/contract';
import { NICKNAME_MAX, PIC_LIST_MAX } from '../../src/api/contract/people';
import { MEDIA_URL_MAX } from '../../src/api/contract/media';
import { SEED_PASSWORD } from '../db/seed';
import { apiHeaders, codec, device, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_INVALID_REQUEST, TEXT_SESSION_EXPIRED } from './transport';

const INVALID_PLAIN = JSON.stringify({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
const INVALID_WIRE = codec.encrypt(INVALID_PLAIN);

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({ mediaHosts: ['cdn.example.com'] });
  const res = await server.call(endpoints.login, { ...device, account: 'user1@example.com', password: SEED_PASSWORD });
  token = res.data!.token;
});
afterAll(() => server.close());

/** Asserts the one uniform answer to an unusable body. */
async function expectInvalid(path: string, body: BodyInit | undefined, headers = apiHeaders({ token })) {
  const answer = await server.post(path, body, headers);
  expect(answer.status).toBe(200);
  expect(answer.contentType).toBe('text/plain;charset=utf-8');
  expect(answer.text).toBe(INVALID_WIRE);
  expect(answer.plain).toBe(INVALID_PLAIN);
}

const notJson = (text: string) => {
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
};

type Schema = { safeParse(v: unknown): { success: boolean } };

/** JSON values the schema refuses, sent as valid ciphertext. */
const wrongJson = (schema: Schema, values: fc.Arbitrary<unknown>) =>
  values.filter((v) => !schema.safeParse(v).success).map((v) => codec.encrypt(JSON.stringify(v) ?? 'null'));

/** Bodies that must all be refused: random text and bytes, ciphertext of non-JSON, JSON of the wrong shape. */
const unusableBodies = (...wrongShapes: fc.Arbitrary<string>[]) =>
  fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.base64String(),
    fc.uint8Array({ maxLength: 256 }),
    fc.string({ unit: 'binary' }).filter(notJson).map((text) => codec.encrypt(text)),
    // Whole AES blocks of random bytes: they mostly fail the padding or UTF-8 check.
    fc.integer({ min: 1, max: 8 }).chain((blocks) =>
      fc.uint8Array({ minLength: 16 * blocks, maxLength: 16 * blocks }).map(bytesToBase64),
    ),
    ...wrongShapes,
  );

const loginShapedRecord = fc.record(
  Object.fromEntries(['account', 'password', ...Object.keys(device)].map((k) => [k, fc.anything()])),
);

describe('[§7 transport] unusable requests', () => {
  it('answers the same encrypted 1000 envelope to garbage, empty and mistyped bodies', async () => {
    const path = endpoints.login.path;
    await expectInvalid(path, 'garbage');
    await expectInvalid(path, '');
    await expectInvalid(path, undefined);
    await expectInvalid(path, codec.encrypt('{"account":'));
    await expectInvalid(path, codec.encrypt('[]'));
    const { 'content-type': _, ...noType } = apiHeaders();
    await expectInvalid(path, codec.encrypt(JSON.stringify({ ...device, account: 'host1@example.com', password: SEED_PASSWORD })).slice(1), noType);
    await expectInvalid(path, '{"account":1', { ...noType, 'content-type': 'application/json' });
    await expectInvalid(path, 'a=b', { ...noType, 'content-type': 'application/x-www-form-urlencoded' });
  });

  it('fuzz: 1,000 random bodies to login are never a 5xx and always the uniform 1000', async () => {
    await fc.assert(
      fc.asyncProperty(
        unusableBodies(wrongJson(endpoints.login.request, fc.jsonValue()), wrongJson(endpoints.login.request, loginShapedRecord)),
        (body) => expectInvalid(endpoints.login.path, body)),
      { numRuns: 1000 },
    );
  // 1,000 encrypted round trips: ~5 s alone, over 20 s on a loaded two-core machine.
  }, 60_000);

  it('fuzz: 300 random bodies to a session endpoint with a valid token', async () => {
    await fc.assert(
      fc.asyncProperty(unusableBodies(wrongJson(endpoints.userInfo.request, fc.jsonValue())), (body) => expectInvalid(endpoints.userInfo.path, body)),
      { numRuns: 300 },
    );
  });
});

describe('[§8 HTTP] paths outside the contract', () => {
  it('answers 404 in plain text to an unknown /api path, whatever the method', async () => {
    const post = await server.post('/api/does/not/exist', codec.encrypt('{}'));
    expect(post.status).toBe(404);
    expect(post.contentType).toMatch(/^text\/plain/);
    for (const path of ['/api/does/not/exist', endpoints.login.path, '/api']) {
      expect((await fetch(server.base + path)).status).toBe(404);
    }
  });
});

/**
 * Sends the headers of a POST that declares `length` bytes of body and none of the body, and
 * answers what the server says within `ms` (decrypted), or 'no answer' when it is still waiting.
 */
function answerWithoutBody(path: string, length: number, headers: Record<string, string>, ms = 2000): Promise<unknown> {
  return new Promise((resolve) => {
    const url = new URL(server.base + path);
    const req = httpRequest({
      host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...headers, 'content-length': length },
    });
    const timer = setTimeout(() => {
      req.destroy();
      resolve('no answer');
    }, ms);
    req.on('error', () => undefined);
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve(JSON.parse(codec.decrypt(Buffer.concat(parts).toString())));
      });
    });
    req.flushHeaders();
  });
}

const TOO_LARGE = { code: ResultCode.invalidRequest, message: TEXT_BODY_TOO_LARGE };
const sessionEndpoints = (Object.values(endpoints) as Endpoint[]).filter((e) => e.auth === 'session');

describe('[§7 transport] body limits, before any decryption', () => {
  it('refuses a signed-out body over 4 KiB with a clear sentence: a sign-in padded to 8 KiB no longer goes through', async () => {
    const signIn = JSON.stringify({ ...device, account: 'user1@example.com', password: SEED_PASSWORD });
    expect((await server.post(endpoints.login.path, codec.encrypt(signIn))).plain).toContain('"code":"0000"');
    const padded = await server.post(endpoints.login.path, codec.encrypt(signIn + ' '.repeat(8 * 1024)));
    expect(padded.status).toBe(200);
    expect(JSON.parse(padded.plain!)).toEqual(TOO_LARGE);
    expect(JSON.parse((await server.post(endpoints.visit.path, 'x'.repeat(1024 * 1024))).plain!)).toEqual(TOO_LARGE);
  });

  it('answers a declared body over the limit at once, without reading it', async () => {
    expect(await answerWithoutBody(endpoints.login.path, 1024 * 1024, apiHeaders())).toEqual(TOO_LARGE);
    expect(await answerWithoutBody(endpoints.userInfo.path, 1024 * 1024, apiHeaders({ token }))).toEqual(TOO_LARGE);
  });

  it('checks the app version and the session before the body is read', async () => {
    const length = 8 * 1024;
    expect(await answerWithoutBody(endpoints.userInfo.path, length, apiHeaders()))
      .toEqual({ code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED });
    expect(await answerWithoutBody(endpoints.userInfo.path, length, apiHeaders({ token: 'f'.repeat(64) })))
      .toEqual({ code: ResultCode.authFailed, message: TEXT_SESSION_EXPIRED });
    expect(await answerWithoutBody(endpoints.login.path, 2048, apiHeaders({ appVersion: '0.1.0' })))
      .toMatchObject({ code: ResultCode.updateRequired });
  });

  it('gives every signed-out endpoint 4 KiB at most, and each endpoint room for its largest valid request', async () => {
    for (const endpoint of Object.values(endpoints)) {
      if (endpoint.auth === 'none') expect(bodyLimitOf(endpoint), endpoint.path).toBeLessThanOrEqual(BODY_LIMIT_SIGNED_OUT);
    }
    // The largest profile the server accepts: a 24-emoji nickname, and ten URLs of 1,024 three-byte characters.
    const url = `https://cdn.example.com/${'ü'.repeat(MEDIA_URL_MAX - 'https://cdn.example.com/'.length)}`.slice(0, MEDIA_URL_MAX);
    const largest = {
      nickname: '😀'.repeat(NICKNAME_MAX),
      icon: url.replaceAll('ü', '中'),
      picList: Array.from({ length: PIC_LIST_MAX }, () => ({ mediaType: 1 as const, mediaUrl: url.replaceAll('ü', '中') })),
    };
    expect(codec.encrypt(JSON.stringify(largest)).length).toBeGreaterThan(16 * 1024);
    const res = await server.call(endpoints.updateUserInfo, largest, { token });
    expect(res.code).toBe(ResultCode.success);
    expect(res.data!.picList).toHaveLength(PIC_LIST_MAX);
  });
});

describe('[§6 visitors] a visitor may log in and register only, and browse the public catalogue', () => {
  let visitor: string;
  beforeAll(async () => {
    visitor = (await server.call(endpoints.visit, { ...device, deviceId: 'transport-visitor' })).data!.token;
  });

  it('refuses a visitor, before reading the body, every session endpoint the contract does not mark (default-deny)', async () => {
    const refused = { code: ResultCode.visitorRefused, message: TEXT_VISITOR_REFUSED };
    const denied = sessionEndpoints.filter((e) => e.visitors !== 'allowed');
    expect(denied.map((e) => e.path)).toEqual(expect.arrayContaining([
      endpoints.followUser.path, endpoints.sendGift.path, endpoints.createCall.path, endpoints.updateUserInfo.path,
      endpoints.getAgoraRtmToken.path, endpoints.getChatRoomAddress.path, endpoints.getRoomAndJoinRoom.path,
    ]));
    for (const endpoint of denied) {
      const answer = await server.post(endpoint.path, codec.encrypt('{}'), apiHeaders({ token: visitor }));
      expect(JSON.parse(answer.plain!), endpoint.path).toEqual(refused);
    }
    expect(await answerWithoutBody(endpoints.followUser.path, 8 * 1024, apiHeaders({ token: visitor }))).toEqual(refused);
    // Nothing was done: the visitor follows nobody.
    const follows = await server.call(endpoints.followUser, { beFollowUserId: 100001, follow: true }, { token: visitor });
    expect(follows).toEqual(refused);
  });

  it('lets a visitor read their own profile, the home lists, host profiles, the live list and the app config, and log out', async () => {
    const ok = async <E extends Endpoint>(endpoint: E, body: Parameters<TestServer['call']>[1]) => {
      expect(endpoint.visitors, endpoint.path).toBe('allowed');
      const res = await server.call(endpoint, body as never, { token: visitor });
      expect(res.code, endpoint.path).toBe(ResultCode.success);
    };
    await ok(endpoints.userInfo, {});
    // The profile says so, and the app acts on it (no session, the sign-up prompt).
    expect((await server.call(endpoints.userInfo, {}, { token: visitor })).data!.isVisitor).toBe(true);
    expect((await server.call(endpoints.userInfo, {}, { token })).data!.isVisitor).toBeUndefined();
    await ok(endpoints.indexTag, {});
    await ok(endpoints.anchorList, { currentPage: 1, pageSize: 10, onlineStatus: 0 });
    await ok(endpoints.getCountryList, {});
    await ok(endpoints.getAppPicByType, { type: 1 });
    await ok(endpoints.getUserDetail, { userId: 100001 });
    await ok(endpoints.queryLiveList, { currentPage: 1, pageSize: 10 });
    await ok(endpoints.getBaseConfigForIntoBagV4, {});
    await ok(endpoints.getConfigByKey, { searchValue: 'achor_hide_button' });
    await ok(endpoints.loadList, { currentPage: 1, pageSize: 10 });
    await ok(endpoints.logout, {});
  });

  it('lets a signed-up person through the same doors', async () => {
    expect((await server.call(endpoints.followUser, { beFollowUserId: 100003, follow: true }, { token })).code).toBe(ResultCode.success);
  });
});
