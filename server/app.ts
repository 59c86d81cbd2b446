/**
 * The reference server on one origin: the encrypted API (SPEC §7), the WebSocket hub
 * (server/realtime, on the HTTP server's upgrades), same-origin avatars, the dev shell and
 * the built app. `createServer` opens, migrates and seeds the database and returns the
 * Fastify instance without listening (the hub is `app.realtime`); closing the instance
 * closes the hub's sockets, then the database.
 */
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createAesCodec } from '../src/api/codec';
import { DEV_AES_IV, DEV_AES_KEY } from '../src/api/codes';
import { apiRoutes } from './api';
import { createCallEngine, type CallOptions } from './api/billing';
import { createFaults } from './api/faults';
import { createLiveEngine, type LiveOptions } from './api/live.rooms';
import { translatorStandIn } from './api/translator';
import { encryptedApi } from './api/transport';
import { mediaUploads } from './api/upload';
import { createSessions } from './auth/sessions';
import { openDatabase } from './db/database';
import { seed, type SeedOptions } from './db/seed';
import { createRealtimeHub, type RealtimeOptions } from './realtime/hub';
import { devShell } from './shell/routes';
import { createUsers } from './users/users';
import { registerAvatars } from './web/avatars';
import { registerBanners } from './web/banners';
import { registerGiftPictures } from './web/gifts';
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
  /** WebSocket hub timings (presence grace, heartbeat). */
  realtime?: RealtimeOptions;
  /** Where uploaded pictures and videos are kept; default `media/` beside the database (a temporary folder for ':memory:'). */
  mediaDir?: string;
  /** Call timings: billing period, ring time-out, offline grace (server/api/billing.ts). */
  calls?: CallOptions;
  /** Live-room timings: the heartbeat window (server/api/live.rooms.ts). */
  live?: LiveOptions;
}

export async function createServer(opts: ServerOptions): Promise<FastifyInstance> {
  // Built first so that a bad key fails before anything is opened (SPEC §5).
  const codec = createAesCodec(opts.aesKey ?? DEV_AES_KEY, opts.aesIv ?? DEV_AES_IV);
  const db = openDatabase(opts.dbPath);
  try {
    if (opts.seed !== false) seed(db, opts.seed);
    const users = createUsers(db);
    const sessions = createSessions(db);

    const app = Fastify({ logger: opts.logger ? { level: process.env.LOG_LEVEL ?? 'warn' } : false });
    const hub = createRealtimeHub({ db, findSession: sessions.find, log: app.log }, opts.realtime);
    hub.attach(app.server);
    app.decorate('realtime', hub);
    // Sockets first: the HTTP server's close waits for every connection, upgraded ones included.
    app.addHook('preClose', () => hub.close());
    // Resumes or settles the calls left open by the last run (see src/api/contract/call.ts).
    const calls = createCallEngine({ db, realtime: hub, log: app.log }, opts.calls);
    // No call timer runs once closing starts (the database closes after).
    app.decorate('calls', calls);
    app.addHook('preClose', async () => calls.stop());
    // Reopens the chat rooms of the rooms left live by the last run and sets their heartbeat deadlines.
    const live = createLiveEngine({ db, realtime: hub, log: app.log }, opts.live);
    app.decorate('live', live);
    app.addHook('preClose', async () => live.stop());
    app.addHook('onClose', async () => db.close());
    const deps = { users, sessions, realtime: hub, db, faults: createFaults(), calls, live };
    registerSecurityHeaders(app);
    // Outside the API (which has its own): client errors keep their status, anything else is a logged, generic 500.
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error(error);
      return reply.code(status).type('text/plain; charset=utf-8').send(`${STATUS_CODES[status] ?? 'Error'}\n`);
    });

    await app.register(encryptedApi, { codec, findSession: deps.sessions.find, routes: apiRoutes(deps) });
    await app.register(translatorStandIn, { db });
    let mediaDir = opts.mediaDir ?? join(dirname(opts.dbPath), 'media');
    if (opts.mediaDir === undefined && opts.dbPath === ':memory:') {
      // A database that vanishes on close keeps its uploads in a folder that does too.
      const temporary = (mediaDir = mkdtempSync(join(tmpdir(), 'anchor-media-')));
      app.addHook('onClose', async () => rmSync(temporary, { recursive: true, force: true }));
    }
    await app.register(mediaUploads, { codec, findSession: deps.sessions.find, dir: mediaDir });
    registerAvatars(app);
    registerBanners(app);
    registerGiftPictures(app);
    if (opts.devShell !== false) await app.register(devShell, { ...deps, hub });
    await registerStaticApp(app, resolve(opts.distDir ?? 'dist'));
    return app;
  } catch (err) {
    db.close();
    throw err;
  }
}
