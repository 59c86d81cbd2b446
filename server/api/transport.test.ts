import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64 } from '../../src/api/codec';
import { ResultCode } from '../../src/api/codes';
import { endpoints } from '../../src/api/contract';
import { SEED_PASSWORD } from '../db/seed';
import { apiHeaders, codec, device, startTestServer, type TestServer } from '../testing/harness';
import { TEXT_INVALID_REQUEST } from './transport';

const INVALID_PLAIN = JSON.stringify({ code: ResultCode.invalidRequest, message: TEXT_INVALID_REQUEST });
const INVALID_WIRE = codec.encrypt(INVALID_PLAIN);

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
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
    await expectInvalid(path, 'x'.repeat(2_000_000));
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
  });

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
