/**
 * Production mode (server/app.ts `mode: 'production'`, NODE_ENV=production in server/main.ts):
 * no dev shell, no development seed, and a refused start, in one line, without the
 * deployment's own AES key and IV.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { createAesCodec } from '../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY, ResultCode } from '../src/api/codes';
import { endpoints, type Endpoint } from '../src/api/contract';
import { createServer, ProductionConfigError, type ServerOptions } from './app';
import { CUSTOMER_SERVICE, SEED_PASSWORD } from './db/seed';
import { apiHeaders, device, type Envelope } from './testing/harness';

const KEY = 'Zq8wN3vR6tY1uI4o';
const IV = 'Lk2Jh5Gf8Ds1Aa7P';
const codec = createAesCodec(KEY, IV);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'anchor-production-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const fresh = (): Pick<ServerOptions, 'dbPath' | 'distDir' | 'logger'> => ({ dbPath: join(dir, `db-${++n}`, 'app.db'), distDir: join(dir, 'dist'), logger: false });

describe('[production] refuses to start without its own secrets', () => {
  it.each([
    [{}, 'Refusing to start in production: AES_KEY is not set.'],
    [{ aesKey: KEY }, 'Refusing to start in production: AES_IV is not set.'],
    [{ aesKey: DEV_AES_KEY, aesIv: IV }, 'Refusing to start in production: AES_KEY is the development value from src/api/codes.ts; set one of your own.'],
    [{ aesKey: KEY, aesIv: DEV_AES_IV }, 'Refusing to start in production: AES_IV is the development value from src/api/codes.ts; set one of your own.'],
    [{ aesKey: 'too-short-key', aesIv: IV }, 'Refusing to start in production: AES_KEY must be exactly 16 bytes, not 13.'],
    [{ aesKey: KEY, aesIv: IV, devShell: true }, 'Refusing to start in production: the dev shell is development only; leave devShell unset.'],
    [{ aesKey: KEY, aesIv: IV, seed: { hosts: 2 } }, 'Refusing to start in production: the development seed is development only; unset SEED_HOSTS and SEED_USERS.'],
  ] as const)('%o: %s', async (options, line) => {
    const where = fresh();
    const start = createServer({ ...where, ...options, mode: 'production' });
    await expect(start).rejects.toThrow(ProductionConfigError);
    await expect(start).rejects.toThrow(line);
    // Refused before anything was opened or written.
    expect(existsSync(where.dbPath)).toBe(false);
  });

  it('refuses a database that holds the development accounts', async () => {
    const where = fresh();
    await (await createServer({ ...where, seed: { hosts: 1, users: 1 } })).close();
    await expect(createServer({ ...where, mode: 'production', aesKey: KEY, aesIv: IV })).rejects.toThrow(
      `Refusing to start in production: the database ${where.dbPath} holds the development accounts; start on a new one (DB_PATH).`,
    );
  });

  it('says it in one line on stderr and exits 1 when started as NODE_ENV=production npm run server', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', PORT: '0', DB_PATH: join(dir, 'cli', 'app.db') };
    delete env.AES_KEY;
    delete env.AES_IV;
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('Refusing to start in production: AES_KEY is not set.\n');
    expect(run.stdout).toBe('');
  }, 60_000);
});

describe('[production] a started server', () => {
  let app: FastifyInstance;
  let base: string;
  let dbPath: string;
  beforeAll(async () => {
    const where = fresh();
    dbPath = where.dbPath;
    app = await createServer({ ...where, mode: 'production', aesKey: KEY, aesIv: IV });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => app.close());

  async function call<E extends Endpoint>(endpoint: E, body: z.input<E['request']>, token?: string): Promise<Envelope<z.output<E['response']>>> {
    const res = await fetch(base + endpoint.path, {
      method: 'POST', headers: apiHeaders(token ? { token } : {}), body: codec.encrypt(JSON.stringify(body)),
    });
    return JSON.parse(codec.decrypt(await res.text())) as Envelope<z.output<E['response']>>;
  }

  it('serves no dev shell route at all: no passwordless session, no account list, no faults, no withdrawal moves, no payment sandbox', async () => {
    const answers = await Promise.all([
      fetch(`${base}/shell`),
      fetch(`${base}/shell/shell.js`),
      fetch(`${base}/shell/api/accounts`),
      fetch(`${base}/shell/api/faults`),
      fetch(`${base}/shell/api/open`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"userId":100001}' }),
      fetch(`${base}/shell/api/visitor`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      fetch(`${base}/shell/api/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"baseConfigFailures":5}' }),
      fetch(`${base}/shell/api/live/forceEnd`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"userId":100001}' }),
      fetch(`${base}/shell/api/withdrawals`),
      fetch(`${base}/shell/api/withdrawals/move`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":1,"to":"refused","reason":"x"}' }),
    ]);
    expect(answers.map((r) => r.status)).toEqual(Array(answers.length).fill(404));
    // No payment sandbox (anyone could credit themselves with it): its page of an unknown order would say
    // 'No such order'; here the path is only the app's (its fallback, whatever that answers).
    expect(await (await fetch(`${base}/sandbox/pay/R1`)).text()).not.toBe('No such order');
  });

  it('seeds the reference data only: no accounts, no messages, a customer-service token nobody can derive', async () => {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(dbPath, { readonly: true });
    try {
      const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
      expect([count('users'), count('sys_mail'), count('wallets'), count('user_follows')]).toEqual([0, 0, 0, 0]);
      expect([count('countries'), count('gifts'), count('feedback_types')]).toEqual([8, 14, 6]);
      const service = db.prepare('SELECT yx_accid, im_token FROM customer_service').all() as { yx_accid: string; im_token: string }[];
      expect(service).toHaveLength(1);
      expect(service[0]!.yx_accid).toBe(CUSTOMER_SERVICE.yxAccid);
      expect(service[0]!.im_token).toMatch(/^[0-9a-f]{32}$/);
      expect(service[0]!.im_token).not.toBe(CUSTOMER_SERVICE.imToken);
    } finally {
      db.close();
    }
    expect(await call(endpoints.login, { ...device, account: 'host1@example.com', password: SEED_PASSWORD }))
      .toMatchObject({ code: ResultCode.authFailed });
  });

  it('speaks its own AES pair: a sign-up works, and a request under the development pair is not understood', async () => {
    const signedUp = await call(endpoints.register, { ...device, account: 'first@example.com', password: 'secret1', nickname: 'First' });
    expect(signedUp.code).toBe(ResultCode.success);
    expect((await call(endpoints.userInfo, {}, signedUp.data!.token)).data).toMatchObject({ nickname: 'First' });
    const devCodec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);
    const res = await fetch(base + endpoints.login.path, {
      method: 'POST', headers: apiHeaders(), body: devCodec.encrypt(JSON.stringify({ ...device, account: 'first@example.com', password: 'secret1' })),
    });
    expect(JSON.parse(codec.decrypt(await res.text()))).toMatchObject({ code: ResultCode.invalidRequest });
  });
});
