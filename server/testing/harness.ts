/**
 * Test harness: a real server on port 0 over a temporary database and build folder, and a
 * client that speaks the encrypted transport with the shared codec.
 */
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as z from 'zod/mini';
import { createAesCodec } from '../../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY, Header } from '../../src/api/codes';
import { endpoints, type Endpoint } from '../../src/api/contract';
import type { DeviceInfo } from '../../src/api/contract/session';
import { createServer, type ServerOptions } from '../app';

export const codec = createAesCodec(DEV_AES_KEY, DEV_AES_IV);

export const INDEX_HTML = '<!doctype html><html><head><title>App</title></head><body><div id="root"></div></body></html>';
export const ASSET_JS = 'console.log("app");';

export const device: DeviceInfo = {
  deviceType: 'web',
  deviceId: 'test-device-1',
  deviceNo: 'TD-1',
  osType: 'linux',
  osVersion: '6.1',
  appVersion: '1.0.34',
};

export interface Envelope<T = unknown> {
  code: string;
  message: string;
  data?: T;
}

export interface CallOptions {
  token?: string;
  /** null leaves the header out. */
  appVersion?: string | null;
  appId?: string;
}

export interface TestServer {
  app: FastifyInstance;
  base: string;
  dbPath: string;
  distDir: string;
  /** Calls a contract endpoint and returns the decrypted envelope. */
  call<E extends Endpoint>(endpoint: E, body: z.input<E['request']>, opts?: CallOptions): Promise<Envelope<z.output<E['response']>>>;
  /** A POST with a body of our choosing; `plain` is the decrypted answer when it decrypts. */
  post(path: string, body: BodyInit | undefined, headers?: Record<string, string>): Promise<RawAnswer>;
  /** A read-only connection to the server's database (WAL lets it read while the server writes). */
  readDb(): Database.Database;
  close(): Promise<void>;
}

export interface RawAnswer {
  status: number;
  contentType: string | null;
  text: string;
  plain: string | undefined;
}

export const apiHeaders = (opts: CallOptions = {}): Record<string, string> => ({
  'content-type': 'text/plain;charset=utf-8',
  [Header.appId]: opts.appId ?? 'test-app',
  [Header.subscriptionKey]: '',
  ...(opts.appVersion === null ? {} : { [Header.appVersion]: opts.appVersion ?? '1.0.34' }),
  ...(opts.token ? { [Header.loginToken]: opts.token, [Header.anchorToken]: opts.token } : {}),
});

/** Starts a server; `build: false` leaves the build folder empty; `dbPath` reuses a database. */
export async function startTestServer(
  opts: Partial<ServerOptions> & { build?: boolean } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'anchor-server-'));
  const distDir = join(dir, 'dist');
  mkdirSync(join(distDir, 'assets'), { recursive: true });
  if (opts.build !== false) {
    writeFileSync(join(distDir, 'index.html'), INDEX_HTML);
    writeFileSync(join(distDir, 'assets', 'index-abc123.js'), ASSET_JS);
  }
  // A given dbPath (a restart over the same database) is kept on close; the temporary folder is not.
  const dbPath = opts.dbPath ?? join(dir, 'app.db');
  const app = await createServer({ dbPath, distDir, logger: false, ...opts });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('The test server has no port.');
  const base = `http://127.0.0.1:${address.port}`;
  const readers: Database.Database[] = [];

  async function post(path: string, body: BodyInit | undefined, headers: Record<string, string> = apiHeaders()): Promise<RawAnswer> {
    const res = await fetch(base + path, { method: 'POST', headers, body });
    const text = await res.text();
    let plain: string | undefined;
    try {
      plain = codec.decrypt(text);
    } catch {
      plain = undefined;
    }
    return { status: res.status, contentType: res.headers.get('content-type'), text, plain };
  }

  return {
    app,
    base,
    dbPath,
    distDir,
    post,
    async call(endpoint, body, callOpts) {
      const answer = await post(endpoint.path, codec.encrypt(JSON.stringify(body)), apiHeaders(callOpts));
      if (answer.status !== 200 || answer.plain === undefined) {
        throw new Error(`${endpoint.path}: HTTP ${answer.status} ${answer.text}`);
      }
      return JSON.parse(answer.plain);
    },
    readDb() {
      const db = new Database(dbPath, { readonly: true });
      readers.push(db);
      return db;
    },
    async close() {
      for (const db of readers) db.close();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Calls a contract endpoint of the server at `base` (one not started here, e.g. across a restart). */
export async function callAt<E extends Endpoint>(
  base: string, endpoint: E, body: z.input<E['request']>, opts?: CallOptions,
): Promise<Envelope<z.output<E['response']>>> {
  const res = await fetch(base + endpoint.path, { method: 'POST', headers: apiHeaders(opts), body: codec.encrypt(JSON.stringify(body)) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${endpoint.path}: HTTP ${res.status} ${text}`);
  return JSON.parse(codec.decrypt(text));
}

export interface ImCredentials {
  userId: number;
  /** The login token of the new session. */
  token: string;
  yxAccid: string;
  /** The session's own IM token (userInfo imToken): it ends with the session. */
  imToken: string;
}

/** Signs the account in and answers its new session's login token and IM credentials. */
export async function signInForIm(call: TestServer['call'], account: string, password: string): Promise<ImCredentials> {
  const signedIn = await call(endpoints.login, { ...device, account, password });
  if (!signedIn.data) throw new Error(`Cannot sign ${account} in: ${signedIn.code} ${signedIn.message}`);
  const mine = await call(endpoints.userInfo, {}, { token: signedIn.data.token });
  if (!mine.data) throw new Error(`No profile for ${account}: ${mine.code} ${mine.message}`);
  return { userId: mine.data.userId, token: signedIn.data.token, yxAccid: mine.data.yxAccid, imToken: mine.data.imToken };
}
