/**
 * The limits on the doors that need no session, over real HTTP from several loopback
 * addresses (127.0.0.x through `localAddress`): failed sign-ins per account and per address,
 * sign-ups and visitor entries per address, and whose address counts (X-Forwarded-For only
 * behind a trusted proxy).
 */
import crypto from 'node:crypto';
import { request } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { ResultCode, tooManyAttemptsText } from '../../src/api/codes';
import { endpoints, type Endpoint } from '../../src/api/contract';
import { TEXT_BAD_CREDENTIALS } from '../api/session';
import { SEED_PASSWORD } from '../db/seed';
import { apiHeaders, codec, device, startTestServer, type Envelope, type TestServer } from '../testing/harness';
import { DEFAULT_DOOR_LIMITS, type DoorLimitOptions } from './limits';

const { login, register, visit } = endpoints;
const MINUTE = 60_000;

/** Calls an endpoint from the loopback address `from`, with extra headers. */
function callFrom<E extends Endpoint>(
  server: TestServer, from: string, endpoint: E, body: z.input<E['request']>, headers: Record<string, string> = {},
): Promise<Envelope<z.output<E['response']>>> {
  const url = new URL(server.base + endpoint.path);
  const payload = codec.encrypt(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, headers: { ...apiHeaders(), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(codec.decrypt(text)));
          } catch (err) {
            reject(new Error(`${endpoint.path}: HTTP ${res.statusCode} ${text} (${String(err)})`));
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Runs `fn` counting the scrypt computations the server starts meanwhile (password checks and hashes), and the most at once. */
async function countingScrypt<T>(fn: () => Promise<T>): Promise<{ result: T; scrypts: number; mostAtOnce: number }> {
  const original = crypto.scrypt;
  let scrypts = 0;
  let running = 0;
  let mostAtOnce = 0;
  crypto.scrypt = ((...args: unknown[]) => {
    scrypts += 1;
    mostAtOnce = Math.max(mostAtOnce, ++running);
    const done = args.pop() as (...results: unknown[]) => void;
    return (original as (...a: unknown[]) => void)(...args, (...results: unknown[]) => {
      running -= 1;
      done(...results);
    });
  }) as typeof original;
  syncBuiltinESMExports();
  try {
    const result = await fn();
    return { result, scrypts, mostAtOnce };
  } finally {
    crypto.scrypt = original;
    syncBuiltinESMExports();
  }
}

const attempt = (server: TestServer, from: string, account: string, password: string, headers?: Record<string, string>) =>
  callFrom(server, from, login, { ...device, account, password }, headers);

const LOCKED_15 = { code: ResultCode.tooManyAttempts, message: tooManyAttemptsText(15 * MINUTE) };
const BAD = { code: ResultCode.authFailed, message: TEXT_BAD_CREDENTIALS };

const small: DoorLimitOptions = {
  accountFailures: { points: 3, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  addressFailures: { points: 5, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE },
  addressSignUps: { points: 3, windowMs: 60 * MINUTE, lockMs: 60 * MINUTE },
  addressVisitors: { points: 3, windowMs: 60 * MINUTE, lockMs: 60 * MINUTE },
};

describe('[limits] failed sign-ins', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ build: false, seed: { hosts: 6, users: 4 }, limits: small });
  });
  afterAll(() => server.close());

  it('locks an account after its failures, from every address and even with the right password, and says how long', async () => {
    for (let i = 0; i < 3; i++) expect(await attempt(server, '127.0.0.2', 'host1@example.com', `guess-${i}`)).toEqual(BAD);
    expect(await attempt(server, '127.0.0.2', 'host1@example.com', 'guess-3')).toEqual(LOCKED_15);
    // Another address, the right password, another case of the account: all locked out the same.
    expect(await attempt(server, '127.0.0.3', 'HOST1@example.com', SEED_PASSWORD)).toEqual(LOCKED_15);
    // Other accounts are not affected.
    expect((await attempt(server, '127.0.0.3', 'host2@example.com', SEED_PASSWORD)).code).toBe(ResultCode.success);
  });

  it('locks an address after its failures, whatever the accounts, and leaves other addresses alone', async () => {
    const accounts = ['user1', 'user2', 'user3', 'user4', 'nobody'].map((n) => `${n}@example.com`);
    for (const account of accounts) expect(await attempt(server, '127.0.0.4', account, 'wrong-password')).toEqual(BAD);
    expect(await attempt(server, '127.0.0.4', 'host3@example.com', SEED_PASSWORD)).toEqual(LOCKED_15);
    expect((await attempt(server, '127.0.0.5', 'host3@example.com', SEED_PASSWORD)).code).toBe(ResultCode.success);
  });

  it('does not count successful sign-ins: 20 in a row lock nobody out', async () => {
    for (let i = 0; i < 20; i++) expect((await attempt(server, '127.0.0.6', 'host4@example.com', SEED_PASSWORD)).code).toBe(ResultCode.success);
    expect(await attempt(server, '127.0.0.6', 'host4@example.com', 'wrong-password')).toEqual(BAD);
  });

  it('refuses a locked flood without password work: 64 parallel guesses run no scrypt, a real sign-in elsewhere still works', async () => {
    expect((await callFrom(server, '127.0.0.10', register, { ...device, account: 'flood@example.com', password: 'secret1', nickname: 'F' })).code)
      .toBe(ResultCode.success);
    for (let i = 0; i < 3; i++) await attempt(server, '127.0.0.7', 'flood@example.com', `guess-${i}`);
    const flood = await countingScrypt(() =>
      Promise.all(Array.from({ length: 64 }, (_, i) => attempt(server, '127.0.0.7', 'flood@example.com', `flood-${i}`))));
    expect(flood.result.every((r) => r.code === ResultCode.tooManyAttempts)).toBe(true);
    expect(flood.scrypts).toBe(0);
    const real = await countingScrypt(() => attempt(server, '127.0.0.8', 'host6@example.com', SEED_PASSWORD));
    expect([real.result.code, real.scrypts]).toEqual([ResultCode.success, 1]);
  });

  it('holds each refusal for its delay, so a guesser that is refused comes back a second later, not at once; a real sign-in is not held', async () => {
    for (let i = 0; i < 3; i++) await attempt(server, '127.0.0.13', 'held@example.com', `guess-${i}`);
    const started = performance.now();
    const refused = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt(server, '127.0.0.13', 'held@example.com', `again-${i}`)));
    const took = performance.now() - started;
    expect(refused.every((r) => r.code === ResultCode.tooManyAttempts)).toBe(true);
    expect(took).toBeGreaterThanOrEqual(DEFAULT_DOOR_LIMITS.refusalDelayMs - 5);
    const real = performance.now();
    expect((await attempt(server, '127.0.0.14', 'host5@example.com', SEED_PASSWORD)).code).toBe(ResultCode.success);
    expect(performance.now() - real).toBeLessThan(DEFAULT_DOOR_LIMITS.refusalDelayMs);
  });

  it('holds a burst of parallel guesses to the number: the ones in flight count before they fail', async () => {
    const burst = await Promise.all(Array.from({ length: 24 }, (_, i) => attempt(server, '127.0.0.11', 'burst@example.com', `burst-${i}`)));
    const codes = burst.map((r) => r.code);
    expect(codes.filter((c) => c === ResultCode.authFailed)).toHaveLength(3);
    expect(codes.filter((c) => c === ResultCode.tooManyAttempts)).toHaveLength(21);
    expect(await attempt(server, '127.0.0.12', 'burst@example.com', 'another-guess')).toEqual(LOCKED_15);
  });

  it('ignores X-Forwarded-For by default: a client cannot step around its address lock', async () => {
    for (let i = 0; i < 5; i++) await attempt(server, '127.0.0.9', `ghost${i}@example.com`, 'wrong-password');
    const forged = await attempt(server, '127.0.0.9', 'user1@example.com', SEED_PASSWORD, { 'x-forwarded-for': '203.0.113.7' });
    expect(forged).toEqual(LOCKED_15);
  });
});

describe('[limits] password checks from one address, a few at a time', () => {
  let server: TestServer;
  beforeAll(async () => {
    const many = { points: 1000, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
    server = await startTestServer({
      build: false, seed: { hosts: 1, users: 0 },
      limits: { accountFailures: many, addressFailures: many, addressChecks: { atOnce: 2, waiting: 6 } },
    });
  });
  afterAll(() => server.close());

  it('runs two checks of one address at once, queues six, refuses the rest for a moment; another address is not held up', async () => {
    const { result, mostAtOnce } = await countingScrypt(() => Promise.all([
      ...Array.from({ length: 16 }, (_, i) => attempt(server, '127.0.0.2', `nobody${i}@example.com`, 'wrong-password')),
      attempt(server, '127.0.0.3', 'host1@example.com', SEED_PASSWORD),
    ]));
    const flood = result.slice(0, 16);
    const aMoment = { code: ResultCode.tooManyAttempts, message: tooManyAttemptsText(1000) };
    // 2 running and 6 waiting take 8; the rest, arriving while all 8 places are taken, are refused
    // (one that arrives after a check ended finds a place: how many depends on arrival times).
    expect(flood.filter((r) => r.code === ResultCode.authFailed).length).toBeGreaterThanOrEqual(8);
    expect(flood.filter((r) => r.code === ResultCode.tooManyAttempts).length).toBeGreaterThanOrEqual(1);
    expect(flood.every((r) => r.code === ResultCode.authFailed ? r.message === BAD.message : r.message === aMoment.message)).toBe(true);
    expect(result[16]!.code).toBe(ResultCode.success);
    // Two of the flooding address's and the other address's one.
    expect(mostAtOnce).toBeLessThanOrEqual(3);
  });
});

describe('[limits] checks of addresses that failed share one lane', () => {
  let server: TestServer;
  beforeAll(async () => {
    const many = { points: 1000, windowMs: 15 * MINUTE, lockMs: 15 * MINUTE };
    server = await startTestServer({
      build: false, seed: { hosts: 1, users: 0 },
      limits: { accountFailures: many, addressFailures: many, suspectChecks: { atOnce: 1, waiting: 64 } },
    });
  });
  afterAll(() => server.close());

  it('runs one check at a time for a flood from four addresses that failed before, and a clean sign-in beside it', async () => {
    const attackers = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
    for (const from of attackers) expect(await attempt(server, from, `first-${from}@example.com`, 'wrong-password')).toEqual(BAD);
    const { result, mostAtOnce } = await countingScrypt(() => Promise.all([
      ...attackers.flatMap((from) => [1, 2].map((k) => attempt(server, from, `again-${k}-${from}@example.com`, 'wrong-password'))),
      attempt(server, '127.0.0.6', 'host1@example.com', SEED_PASSWORD),
    ]));
    expect(result.slice(0, 8)).toEqual(Array(8).fill(BAD));
    expect(result[8]!.code).toBe(ResultCode.success);
    // One of the flood's and the clean sign-in's.
    expect(mostAtOnce).toBeLessThanOrEqual(2);
  });
});

describe('[limits] behind a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ build: false, seed: { hosts: 0, users: 1 }, limits: small, trustProxy: true });
  });
  afterAll(() => server.close());

  it('counts the address the proxy forwards, not the proxy\'s', async () => {
    const via = (client: string) => ({ 'x-forwarded-for': client });
    for (let i = 0; i < 5; i++) await attempt(server, '127.0.0.2', `ghost${i}@example.com`, 'wrong-password', via('198.51.100.1'));
    expect(await attempt(server, '127.0.0.2', 'user1@example.com', SEED_PASSWORD, via('198.51.100.1'))).toEqual(LOCKED_15);
    expect((await attempt(server, '127.0.0.2', 'user1@example.com', SEED_PASSWORD, via('198.51.100.2'))).code).toBe(ResultCode.success);
  });
});

describe('[limits] sign-ups and visitor entries per address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ build: false, seed: { hosts: 0, users: 0 }, limits: small });
  });
  afterAll(() => server.close());

  it('allows a few sign-ups from an address, then refuses with the wait and creates nothing', async () => {
    const signUp = (from: string, n: number) =>
      callFrom(server, from, register, { ...device, account: `new${n}@example.com`, password: 'secret1', nickname: `New ${n}` });
    for (let n = 1; n <= 3; n++) expect((await signUp('127.0.0.2', n)).code).toBe(ResultCode.success);
    expect(await signUp('127.0.0.2', 4)).toEqual({ code: ResultCode.tooManyAttempts, message: tooManyAttemptsText(60 * MINUTE) });
    expect(server.readDb().prepare("SELECT count(*) FROM users WHERE account = 'new4@example.com'").pluck().get()).toBe(0);
    expect((await signUp('127.0.0.3', 4)).code).toBe(ResultCode.success);
  });

  it('allows a few visitor entries from an address, then refuses with the wait and creates nothing', async () => {
    const enter = (from: string, n: number) => callFrom(server, from, visit, { ...device, deviceId: `phone-${from}-${n}` });
    for (let n = 1; n <= 3; n++) expect((await enter('127.0.0.4', n)).code).toBe(ResultCode.success);
    expect(await enter('127.0.0.4', 4)).toEqual({ code: ResultCode.tooManyAttempts, message: tooManyAttemptsText(60 * MINUTE) });
    expect(server.readDb().prepare("SELECT count(*) FROM users WHERE device_id = 'phone-127.0.0.4-4'").pluck().get()).toBe(0);
    expect((await enter('127.0.0.5', 4)).code).toBe(ResultCode.success);
  });
});

describe('[limits] the wait as people read it', () => {
  it('rounds up to seconds, minutes or hours', () => {
    expect(tooManyAttemptsText(1)).toBe('Too many attempts. Please try again in 1 second.');
    expect(tooManyAttemptsText(42_100)).toBe('Too many attempts. Please try again in 43 seconds.');
    expect(tooManyAttemptsText(60_000)).toBe('Too many attempts. Please try again in 1 minute.');
    expect(tooManyAttemptsText(14 * MINUTE + 1)).toBe('Too many attempts. Please try again in 15 minutes.');
    expect(tooManyAttemptsText(5 * 60 * MINUTE)).toBe('Too many attempts. Please try again in 5 hours.');
  });
});
