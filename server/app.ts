/**
 * The reference server on one origin: the encrypted API (SPEC §7), same-origin avatars,
 * the dev shell and the built app. `createServer` opens, migrates and seeds the database
 * and returns the Fastify instance without listening; closing the instance closes the
 * database.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { resolve } from 'node:path';
import { createAesCodec } from '../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY } from '../src/api/codes';
import { apiRoutes } from './api';
import { encryptedApi } from './api/transport';
import { createSessions } from './auth/sessions';
import { openDatabase } from './db/database';
import { seed, type SeedOptions } from './db/seed';
import { devShell } from './shell/routes';
import { createUsers } from './users/users';
import { registerAvatars } from './web/avatars';
import { registerSecurityHeaders } from './web/security';
import { registerStaticApp } from './web/static';

export interface ServerOptions {
  /** SQLite file (created with its folder), or ':memory:'. */
  dbPath: string;
  /** The Vite build to serve; default `dist`. */
  distDir?: string;
  /** Log warnings and errors (level from LOG_LEVEL, default 'warn'). */
  logger?: boolean;
  /** Transport key and IV, 16 bytes each; default the shared development pair. */
  aesKey?: string;
  aesIv?: string;
  /** Development-only routes under /shell (see shell/routes.ts); default true. */
  devShell?: boolean;
  /** Seed counts, or false to leave the database unseeded; default the standard seed. */
  seed?: SeedOptions | false;
}

export async function createServer(opts: ServerOptions): Promise<FastifyInstance> {
  // Built first so that a bad key fails before anything is opened (SPEC §5).
  const codec = createAesCodec(opts.aesKey ?? DEV_AES_KEY, opts.aesIv ?? DEV_AES_IV);
  const db = openDatabase(opts.dbPath);
  try {
    if (opts.seed !== false) seed(db, opts.seed);
    const deps = { users: createUsers(db), sessions: createSessions(db) };

    const app = Fastify({ logger: opts.logger ? { level: process.env.LOG_LEVEL ?? 'warn' } : false });
    app.addHook('onClose', async () => db.close());
    registerSecurityHeaders(app);
    // Outside the API (which has its own): client errors keep their status, anything else is a logged, generic 500.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error(error);
      return reply.code(status).type('text/plain; charset=utf-8').send(`${STATUS_CODES[status] ?? 'Error'}\n`);
    });

    await app.register(encryptedApi, { codec, findSession: deps.sessions.find, routes: apiRoutes(deps) });
    registerAvatars(app);
    if (opts.devShell !== false) await app.register(devShell, deps);
    await registerStaticApp(app, resolve(opts.distDir ?? 'dist'));
    return app;
  } catch (err) {
    db.close();
    throw err;
  }
}
